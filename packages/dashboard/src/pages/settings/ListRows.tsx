// A list of settings rows (page configurations, rules…): one bordered card per row with its
// fields, a Remove button, and an Add button under the list.
import type { ReactNode } from "react";

export function ListRows({
  noun,
  count,
  canEdit,
  onAdd,
  onRemove,
  renderRow,
  empty,
}: {
  noun: string;
  count: number;
  canEdit: boolean;
  onAdd: () => void;
  onRemove: (index: number) => void;
  renderRow: (index: number) => ReactNode;
  /** Row keys come from useFieldArray; the caller passes them through renderRow's wrapper. */
  empty: ReactNode;
}) {
  return (
    <div className="list-rows">
      {count === 0 ? <p className="muted list-rows__empty">{empty}</p> : null}
      {Array.from({ length: count }, (_, index) => (
        <div className="list-row" key={index} data-testid="settings-row">
          <div className="list-row__fields">{renderRow(index)}</div>
          {canEdit ? (
            <button type="button" className="button button--secondary button--small list-row__remove" onClick={() => onRemove(index)} aria-label={`Remove ${noun} ${index + 1}`}>
              Remove
            </button>
          ) : null}
        </div>
      ))}
      {canEdit ? (
        <button type="button" className="button button--secondary button--small" onClick={onAdd}>
          Add {noun}
        </button>
      ) : null}
    </div>
  );
}
