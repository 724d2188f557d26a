// The side panel's "Changes on this page": the shown variation's configs that apply to the page in
// the frame (a click on one selects its element; an editor may remove it), and how many more it
// has on other pages.
import type { ConfigDefinition } from "@storefit/contract";
import { describeConfig, templateOf } from "./model";

export function ChangesSection({
  onThisPage,
  total,
  ready,
  onSelect,
  onRemove,
}: {
  /** The variation's configs that apply to this page. */
  onThisPage: ConfigDefinition[];
  /** How many configs the variation has in all. */
  total: number;
  /** The bridge is there to select a change's element. */
  ready: boolean;
  onSelect: (path: string) => void;
  /** Absent for a viewer. */
  onRemove: ((configId: string) => void) | null;
}) {
  const elsewhere = total - onThisPage.length;
  return (
    <>
      <section className="ve-section ve-changes" aria-label="Changes on this page">
        <h2 className="ve-section__title">Changes on this page</h2>
        {onThisPage.length === 0 ? (
          <p className="ve-hint">This variation changes nothing on this page.</p>
        ) : (
          <ul className="ve-changes__list">
            {onThisPage.map((c) => {
              const path = c.properties?.element_path;
              return (
                <li key={c.config_id} className="ve-changes__item" data-testid="change-row">
                  <button
                    type="button"
                    className="ve-changes__path mono"
                    disabled={!path || !ready}
                    onClick={() => path && onSelect(path)}
                  >
                    {path ?? templateOf(c)?.id ?? c.config_id}
                  </button>
                  <span className="ve-hint">{describeConfig(c)}</span>
                  {onRemove ? (
                    <button
                      type="button"
                      className="button button--secondary button--small"
                      onClick={() => onRemove(c.config_id)}
                      aria-label={`Remove the change of ${path ?? c.config_id}`}
                    >
                      Remove
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {elsewhere > 0 ? (
        <p className="ve-hint" data-testid="other-pages">
          {elsewhere} more {elsewhere === 1 ? "change" : "changes"} of this variation on other
          pages.
        </p>
      ) : null}
    </>
  );
}
