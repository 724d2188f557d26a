// Goals (GoalDefinition): what counts as a conversion in the results. The first is the primary.
import type { GoalKind } from "@storefit/contract";
import { emptyGoal, GOAL_KIND_LABELS, PAGE_MATCH_OPTIONS } from "./model";
import type { GoalForm } from "./model";
import { Select, TextInput, useFieldList, useFieldValue } from "../../components/form";

const KIND_OPTIONS = (Object.keys(GOAL_KIND_LABELS) as GoalKind[]).map((value) => ({
  value,
  label: GOAL_KIND_LABELS[value],
}));

const EVENT_HINT: Partial<Record<GoalKind, string>> = {
  click: "The click's goal name (an on-click action's goal name). Empty: any click.",
  form_submit: "The form's name. Empty: any form.",
  track: "The name given to track(), e.g. signup.",
};

function GoalRow({
  index,
  onRemove,
  onMoveUp,
}: {
  index: number;
  onRemove: () => void;
  onMoveUp: (() => void) | null;
}) {
  const prefix = `goals.${index}.`;
  const kind = useFieldValue<GoalKind>(`${prefix}kind`);
  return (
    <div className="ed-item" data-testid="goal">
      <div className="ed-row">
        <TextInput name={`${prefix}name`} label="Goal name" />
        <Select name={`${prefix}kind`} label="Counts" options={KIND_OPTIONS} />
        {index === 0 ? <span className="ed-tag ed-row__end">Primary</span> : null}
      </div>
      {kind === "page_view" ? (
        <div className="ed-row">
          <Select name={`${prefix}page_match`} label="Page match" options={PAGE_MATCH_OPTIONS} />
          <TextInput name={`${prefix}page_path`} label="Goal page" mono placeholder="/checkout" />
          <TextInput name={`${prefix}domain`} label="Domain (empty: any)" mono />
        </div>
      ) : null}
      {kind === "click" || kind === "form_submit" || kind === "track" ? (
        <TextInput name={`${prefix}event_name`} label="Event name" mono hint={EVENT_HINT[kind]} />
      ) : null}
      {kind === "revenue" ? (
        <TextInput
          name={`${prefix}revenue_cap`}
          label="Revenue cap per visitor (optional)"
          inputMode="decimal"
          hint="Caps outliers before the statistics."
        />
      ) : null}
      <div className="ed-config__tools">
        {onMoveUp ? (
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={onMoveUp}
            aria-label={`Make goal ${index + 1} come first`}
          >
            Move up
          </button>
        ) : null}
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={onRemove}
          aria-label={`Remove goal ${index + 1}`}
        >
          Remove goal
        </button>
      </div>
    </div>
  );
}

export function GoalsSection() {
  const goals = useFieldList<GoalForm>("goals");
  return (
    <section className="panel ed-panel" aria-labelledby="goals-title">
      <h2 className="panel__title" id="goals-title">
        Goals
      </h2>
      <p className="panel__description">
        What counts as a conversion in the results. The first goal is the primary one.
      </p>
      {goals.fields.length === 0 ? (
        <p className="muted">No goals: results will show exposures only.</p>
      ) : null}
      {goals.fields.map((field, i) => (
        <GoalRow
          key={field.id}
          index={i}
          onRemove={() => goals.remove(i)}
          onMoveUp={i > 0 ? () => goals.move(i, i - 1) : null}
        />
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => goals.append(emptyGoal())}
      >
        Add goal
      </button>
    </section>
  );
}
