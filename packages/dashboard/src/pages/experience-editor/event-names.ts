// Whether a goal's event name is one the shop sends (docs/dashboard.md "Goals"). A goal counts only
// events whose name is exactly its own, case included, and Live events shows names as words
// ("Add to cart" for add_to_cart), so a name copied from there, or typed as it reads, would count
// nothing, silently. The editor offers the names received and, when the typed one is not among
// them, says so and suggests those it only differs from by case, separators or a `domain|` prefix.
import type { GoalKind } from "@storefit/contract";
import type { EventNames, NamedEventType } from "../../api/event-names";

/** The event type a goal kind counts, for the kinds matched by name (docs/results.md "Goals"). */
export const NAMED_GOAL_TYPES: Partial<Record<GoalKind, NamedEventType>> = {
  click: "CLICK",
  form_submit: "FORM",
  track: "TRACK",
};

/**
 * A name with what tells near names apart removed: the case, and spaces, `_`, `-` and `.` (the
 * separators Live events turns into spaces: events/labels.ts humanizeName).
 */
const loose = (name: string): string => name.toLowerCase().replace(/[\s_.-]+/g, "");

/** The forms a typed name may stand for: itself, and without a `domain|` prefix (event_customer_id's form). */
function typedForms(typed: string): string[] {
  const bar = typed.indexOf("|");
  return bar < 0 ? [loose(typed)] : [loose(typed), loose(typed.slice(bar + 1))];
}

export type EventNameCheck =
  /** Received, exactly: the goal counts its events. */
  | { kind: "received" }
  /**
   * Not among the names received: `suggestions` are received names it differs from only by case,
   * separators or a `domain|` prefix; `complete` whether every event of the account was looked at.
   */
  | { kind: "unknown"; suggestions: string[]; complete: boolean; window: number };

/**
 * The check of a typed goal event name against the names received, or null when there is nothing
 * to say: no name typed (any event of the kind counts) or no name received yet (the shop may not
 * have sent any: a warning on every name would say nothing).
 */
export function checkEventName(
  typed: string,
  received: EventNames | undefined,
): EventNameCheck | null {
  const name = typed.trim(); // the goal keeps it trimmed (model.ts)
  if (name === "" || !received || received.names.length === 0) return null;
  if (received.names.some((n) => n.name === name)) return { kind: "received" };
  const forms = typedForms(name);
  const suggestions = received.names.map((n) => n.name).filter((n) => forms.includes(loose(n)));
  return { kind: "unknown", suggestions, complete: received.complete, window: received.window };
}
