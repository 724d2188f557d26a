// A list of settings rows (page configurations, rules…): one bordered card per row with its
// fields, a Remove button, and an Add button under the list.
import { type ReactNode, useState } from "react";

/** Longer lists start folded (the demo account has 30 page configurations). */
const FOLD_ABOVE = 6;

export function ListRows({
  noun,
  keys,
  canEdit,
  onAdd,
  onRemove,
  renderRow,
  empty,
}: {
  noun: string;
  /** The rows' useFieldArray ids: React must key rows by them, or removing one shows stale values. */
  keys: readonly string[];
  canEdit: boolean;
  onAdd: () => void;
  onRemove: (index: number) => void;
  renderRow: (index: number) => ReactNode;
  empty: ReactNode;
}) {
  const count = keys.length;
  const [open, setOpen] = useState(count <= FOLD_ABOVE);
  const rows = keys.map((key, index) => (
    <div className="list-row" key={key} data-testid="settings-row">
      <div className="list-row__fields">{renderRow(index)}</div>
      {canEdit ? (
        <button
          type="button"
          className="button button--secondary button--small list-row__remove"
          onClick={() => onRemove(index)}
          aria-label={`Remove ${noun} ${index + 1}`}
        >
          Remove
        </button>
      ) : null}
    </div>
  ));
  return (
    <div className="list-rows">
      {count === 0 ? <p className="muted list-rows__empty">{empty}</p> : null}
      {count > FOLD_ABOVE ? (
        <details className="list-rows__fold" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary>
            {open ? "Hide" : "Show"} all {count} {noun}s
          </summary>
          {open ? <div className="list-rows">{rows}</div> : null}
        </details>
      ) : (
        rows
      )}
      {canEdit ? (
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            setOpen(true);
            onAdd();
          }}
        >
          Add {noun}
        </button>
      ) : null}
    </div>
  );
}
