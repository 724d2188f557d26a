// Goals (GoalDefinition): what counts as a conversion in the results. The first is the primary.
import { useId } from "react";
import { useFormContext } from "react-hook-form";
import type { GoalKind } from "@storefit/contract";
import { useEventNames } from "../../api/event-names";
import type { NamedEventType } from "../../api/event-names";
import { formatCount } from "../../format";
import { checkEventName, NAMED_GOAL_TYPES } from "./event-names";
import { emptyGoal, GOAL_KIND_LABELS, PAGE_MATCH_OPTIONS } from "./model";
import type { GoalForm } from "./model";
import { Select, TextInput, useFieldList, useFieldValue } from "../../components/form";

const KIND_OPTIONS = (Object.keys(GOAL_KIND_LABELS) as GoalKind[]).map((value) => ({
  value,
  label: GOAL_KIND_LABELS[value],
}));

const EVENT_HINT: Partial<Record<GoalKind, string>> = {
  click: "The click's goal name (an on-click action's goal name), exactly. Empty: any click.",
  form_submit: "The form's name, exactly. Empty: any form.",
  track: "The name given to track(), exactly, case included, e.g. signup.",
};

/** What the warning calls an event of each type. */
const TYPE_WORDS: Record<NamedEventType, string> = {
  CLICK: "click",
  FORM: "form submit",
  TRACK: "custom event",
};

/**
 * The event name of a click, form or custom-event goal: the names the account received offered as
 * suggestions, and a warning (never a block: the event may not have happened yet) when the typed
 * name is not one of them, with the received names it differs from only in how it is written.
 */
function EventNameField({
  prefix,
  kind,
  type,
}: {
  prefix: string;
  kind: GoalKind;
  type: NamedEventType;
}) {
  const listId = useId();
  const warningId = useId();
  const { setValue } = useFormContext();
  const received = useEventNames(type).data;
  const typed = useFieldValue<string | undefined>(`${prefix}event_name`) ?? "";
  const check = checkEventName(typed, received);
  const unknown = check?.kind === "unknown" ? check : null;
  const what = TYPE_WORDS[type];
  return (
    <>
      <TextInput
        name={`${prefix}event_name`}
        label="Event name"
        mono
        list={listId}
        hint={EVENT_HINT[kind]}
        describedBy={unknown ? warningId : undefined}
      />
      <datalist id={listId}>
        {(received?.names ?? []).map((n) => (
          <option
            key={n.name}
            value={n.name}
            label={`${formatCount(n.events)} received recently`}
          />
        ))}
      </datalist>
      {unknown ? (
        <div
          className="notice notice--warning"
          id={warningId}
          role="status"
          data-testid="event-name-warning"
        >
          <p>
            {unknown.complete
              ? `This account has never received a ${what} named “${typed.trim()}”.`
              : `No ${what} named “${typed.trim()}” is among this account's newest ${formatCount(unknown.window)} events.`}{" "}
            A goal counts only events with exactly its name, case included: until the shop sends
            this one, the goal counts nothing.
          </p>
          {unknown.suggestions.map((name) => (
            <p key={name}>
              Did you mean <code>{name}</code>?{" "}
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => setValue(`${prefix}event_name`, name, { shouldDirty: true })}
              >
                Use {name}
              </button>
            </p>
          ))}
        </div>
      ) : null}
    </>
  );
}

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
  const namedType = NAMED_GOAL_TYPES[kind];
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
      {namedType ? <EventNameField prefix={prefix} kind={kind} type={namedType} /> : null}
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
