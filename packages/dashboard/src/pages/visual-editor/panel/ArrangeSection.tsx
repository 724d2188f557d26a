// "Arrange": move the element above its previous or below its next sibling (move_action), swap it
// with another element (swap_action), duplicate it (duplicate_actions). The bridge names the
// siblings, so the moves write their paths without moving the selection.
import type { CustomfitMeta } from "@storefit/contract";
import { setMeta } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

export function ArrangeSection({ selection, variation: v, onEdit, readOnly }: SectionProps) {
  const m: CustomfitMeta = v.customfit_meta ?? {};
  const siblings = selection.siblings;
  return (
    <Section title="Arrange">
      {readOnly ? null : (
        <div className="ve-row">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={!siblings?.previous}
            onClick={() =>
              siblings?.previous &&
              onEdit(null, setMeta("move_action", { target: siblings.previous, position: "above" }))
            }
          >
            Move up
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={!siblings?.next}
            onClick={() =>
              siblings?.next &&
              onEdit(null, setMeta("move_action", { target: siblings.next, position: "below" }))
            }
          >
            Move down
          </button>
          {m.move_action ? (
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => onEdit(null, setMeta("move_action", undefined))}
            >
              Undo the move
            </button>
          ) : null}
        </div>
      )}
      {m.move_action ? (
        <p className="ve-hint">
          Moved {m.move_action.position} <code>{m.move_action.target}</code>
        </p>
      ) : null}
      <TextField
        label="Swap with (CSS path)"
        mono
        value={m.swap_action?.target ?? ""}
        placeholder={siblings?.next ?? siblings?.previous ?? ""}
        onChange={(target) =>
          onEdit("swap", setMeta("swap_action", target.trim() ? { target } : undefined))
        }
      />
      {m.duplicate_actions ? (
        <p className="ve-hint">
          Duplicated {m.duplicate_actions.length}{" "}
          {m.duplicate_actions.length === 1 ? "time" : "times"}
        </p>
      ) : null}
      {readOnly ? null : (
        <div className="ve-row">
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() =>
              onEdit(
                null,
                setMeta("duplicate_actions", [
                  ...(m.duplicate_actions ?? []),
                  { position: "below" },
                ]),
              )
            }
          >
            Duplicate
          </button>
          {m.duplicate_actions ? (
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => onEdit(null, setMeta("duplicate_actions", undefined))}
            >
              Remove {m.duplicate_actions.length === 1 ? "the copy" : "the copies"}
            </button>
          ) : null}
        </div>
      )}
    </Section>
  );
}
