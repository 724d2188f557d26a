// "On click": count the element's clicks as a goal (onclick_action track_click) and one more
// action (advanced_click_actions): go to a page, scroll to, hide or show an element.
import { useId } from "react";
import type { AdvancedClickAction, CustomfitMeta, GoalDefinition } from "@storefit/contract";
import { setMeta } from "../model";
import { Section, TextField } from "./Section";
import type { SectionProps } from "./Section";

const CLICK_KINDS = [
  ["", "Nothing more"],
  ["redirect_to_page", "Go to a page"],
  ["scroll_to_element", "Scroll to an element"],
  ["hide_element", "Hide an element"],
  ["unhide_element", "Show a hidden element"],
] as const;

/**
 * Which of the experience's click goals counts clicks named `name`: without a goal of its own
 * name (or one counting any click) the clicks are stored but no result shows them.
 */
function CountedBy({ name, goals }: { name: string; goals: readonly GoalDefinition[] }) {
  const goal = goals.find((g) => g.event_name === name) ?? goals.find((g) => !g.event_name);
  return goal ? (
    <p className="ve-hint" data-testid="click-goal-note">
      Counted by the goal “{goal.name}”.
    </p>
  ) : (
    <p className="notice notice--warning" data-testid="click-goal-note">
      No goal of this experience counts “{name}” yet: add a Click goal with the event name {name} to
      the experience’s Goals to see these clicks in Results.
    </p>
  );
}

export function ClickSection({
  variation: v,
  onEdit,
  clickGoals,
}: SectionProps & { clickGoals: readonly GoalDefinition[] }) {
  const m: CustomfitMeta = v.customfit_meta ?? {};
  const goalName = m.onclick_action?.action_txt?.goal_name ?? "";
  const ids = { click: useId(), tab: useId() };
  const click: AdvancedClickAction | undefined = m.advanced_click_actions?.[0];
  const setClick = (next: AdvancedClickAction | undefined) =>
    onEdit("click", setMeta("advanced_click_actions", next ? [next] : undefined));
  return (
    <Section title="On click">
      <TextField
        label="Count clicks as the goal"
        value={goalName}
        placeholder="e.g. price_click"
        onChange={(goal) =>
          onEdit(
            "goal",
            setMeta(
              "onclick_action",
              goal ? { action_type: "track_click", action_txt: { goal_name: goal } } : undefined,
            ),
          )
        }
      />
      {goalName ? <CountedBy name={goalName} goals={clickGoals} /> : null}
      <div className="ve-field">
        <label className="ve-field__label" htmlFor={ids.click}>
          Then
        </label>
        <select
          id={ids.click}
          className="field__input ve-input"
          value={click?.action_type ?? ""}
          onChange={(e) => {
            const type = e.target.value as AdvancedClickAction["action_type"] | "";
            setClick(type ? { action_type: type } : undefined);
          }}
        >
          {CLICK_KINDS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {click?.action_type === "redirect_to_page" ? (
        <>
          <TextField
            label="Page address"
            mono
            value={click.redirect_url ?? ""}
            onChange={(url) => setClick({ ...click, redirect_url: url })}
          />
          <div className="ve-check">
            <input
              id={ids.tab}
              type="checkbox"
              checked={!!click.open_in_new_tab}
              onChange={(e) => setClick({ ...click, open_in_new_tab: e.target.checked })}
            />
            <label htmlFor={ids.tab}>Open in a new tab</label>
          </div>
        </>
      ) : click ? (
        <TextField
          label="Target element (CSS path)"
          mono
          value={click.target ?? ""}
          onChange={(target) => setClick({ ...click, target })}
        />
      ) : null}
      <p className="ve-hint">
        Clicks counted as a goal are counted in every variation of the test, so each can convert.
        Click actions run in the preview while “Select elements” is off.
      </p>
    </Section>
  );
}
