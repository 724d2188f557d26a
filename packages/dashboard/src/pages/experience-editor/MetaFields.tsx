// customfit_meta (spec §3): moves, swaps, HTML edits, duplicates, click and load actions, global
// actions, and the template (popup) with its triggers, visibility and close settings.
import type { ClickActionForm, MetaForm } from "./model";
import {
  Checkbox,
  FormSection,
  Select,
  TextArea,
  TextInput,
  useFieldList,
  useFieldValue,
} from "../../components/form";

const POSITIONS = [
  { value: "above", label: "Above" },
  { value: "below", label: "Below" },
];

const SCRIPT_ACTIONS = [
  { value: "track_click", label: "Count the click as a goal" },
  { value: "execute_javascript", label: "Run JavaScript" },
  { value: "track_click_and_execute_javascript", label: "Count the click and run JavaScript" },
];

function ScriptActionFields({ prefix, title }: { prefix: string; title: string }) {
  const enabled = useFieldValue<boolean>(`${prefix}enabled`);
  const type = useFieldValue<string>(`${prefix}action_type`);
  return (
    <fieldset className="ed-group">
      <legend>{title}</legend>
      <Checkbox name={`${prefix}enabled`} label={`Add ${title.toLowerCase()}`} />
      {enabled ? (
        <>
          <Select name={`${prefix}action_type`} label="Action" options={SCRIPT_ACTIONS} />
          {type !== "execute_javascript" ? (
            <TextInput
              name={`${prefix}goal_name`}
              label="Goal name"
              hint="The CLICK event's name; a click goal counts it."
            />
          ) : null}
          {type !== "track_click" ? (
            <TextArea name={`${prefix}js_code`} label="JavaScript" mono rows={4} />
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}

function ClickActions({ prefix }: { prefix: string }) {
  const actions = useFieldList<ClickActionForm>(`${prefix}clickActions`);
  return (
    <fieldset className="ed-group">
      <legend>Advanced click actions</legend>
      <p className="ed-hint">What a click on the element does.</p>
      {actions.fields.map((field, i) => (
        <ClickActionRow
          key={field.id}
          prefix={`${prefix}clickActions.${i}.`}
          onRemove={() => actions.remove(i)}
        />
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() =>
          actions.append({
            action_type: "scroll_to_element",
            target: "",
            redirect_url: "",
            retain_params: true,
            open_in_new_tab: false,
          })
        }
      >
        Add click action
      </button>
    </fieldset>
  );
}

function ClickActionRow({ prefix, onRemove }: { prefix: string; onRemove: () => void }) {
  const type = useFieldValue<string>(`${prefix}action_type`);
  return (
    <div className="ed-item">
      <div className="ed-row">
        <Select
          name={`${prefix}action_type`}
          label="On click"
          options={[
            { value: "scroll_to_element", label: "Scroll to an element" },
            { value: "redirect_to_page", label: "Go to a page" },
            { value: "hide_element", label: "Hide an element" },
            { value: "unhide_element", label: "Show a hidden element" },
          ]}
        />
        {type === "redirect_to_page" ? (
          <TextInput name={`${prefix}redirect_url`} label="Address" mono type="url" />
        ) : (
          <TextInput name={`${prefix}target`} label="Element (CSS path)" mono />
        )}
        <button
          type="button"
          className="button button--secondary button--small ed-row__end"
          onClick={onRemove}
        >
          Remove action
        </button>
      </div>
      {type === "redirect_to_page" ? (
        <div className="ed-checks">
          <Checkbox name={`${prefix}retain_params`} label="Keep the current query parameters" />
          <Checkbox name={`${prefix}open_in_new_tab`} label="Open in a new tab" />
        </div>
      ) : null}
    </div>
  );
}

function Duplicates({ prefix }: { prefix: string }) {
  const items = useFieldList<MetaForm["duplicates"][number]>(`${prefix}duplicates`);
  return (
    <fieldset className="ed-group">
      <legend>Duplicate the element</legend>
      {items.fields.map((field, i) => (
        <div className="ed-row" key={field.id}>
          <Select
            name={`${prefix}duplicates.${i}.position`}
            label="Copy goes"
            options={POSITIONS}
          />
          <TextInput
            name={`${prefix}duplicates.${i}.cloned_elem_id`}
            label="Id of the copy (optional)"
            mono
          />
          <button
            type="button"
            className="button button--secondary button--small ed-row__end"
            onClick={() => items.remove(i)}
          >
            Remove copy
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => items.append({ position: "below", cloned_elem_id: "" })}
      >
        Add a copy
      </button>
    </fieldset>
  );
}

function QueryParamRow({ prefix, onRemove }: { prefix: string; onRemove: () => void }) {
  const operation = useFieldValue<string>(`${prefix}operation`);
  return (
    <div className="ed-row">
      <Select
        name={`${prefix}operation`}
        label="Operation"
        options={[
          { value: "add", label: "Add" },
          { value: "remove", label: "Remove" },
        ]}
      />
      <TextInput name={`${prefix}key`} label="Parameter" mono />
      {/* Removing a parameter takes no value (spec §3 query_params): none is saved, so none is asked. */}
      {operation === "add" ? <TextInput name={`${prefix}value`} label="Value" mono /> : null}
      <button
        type="button"
        className="button button--secondary button--small ed-row__end"
        onClick={onRemove}
      >
        Remove parameter
      </button>
    </div>
  );
}

function QueryParams({ prefix }: { prefix: string }) {
  const items = useFieldList<MetaForm["queryParams"][number]>(`${prefix}queryParams`);
  return (
    <fieldset className="ed-group">
      <legend>Query parameters</legend>
      {items.fields.map((field, i) => (
        <QueryParamRow
          key={field.id}
          prefix={`${prefix}queryParams.${i}.`}
          onRemove={() => items.remove(i)}
        />
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => items.append({ key: "", value: "", operation: "add" })}
      >
        Add parameter
      </button>
    </fieldset>
  );
}

function TemplateFields({ prefix }: { prefix: string }) {
  const enabled = useFieldValue<boolean>(`${prefix}enabled`);
  const trigger = useFieldValue<string>(`${prefix}trigger`);
  const closeEnabled = useFieldValue<boolean>(`${prefix}closeEnabled`);
  const close = useFieldValue<string>(`${prefix}close`);
  return (
    <>
      <Checkbox name={`${prefix}enabled`} label="Insert a template (popup or block)" />
      {enabled ? (
        <>
          <div className="ed-row">
            <TextInput name={`${prefix}id`} label="Template id" mono />
            <TextInput
              name={`${prefix}parentElement`}
              label="Insert into (CSS path)"
              mono
              placeholder="body"
            />
            <TextInput name={`${prefix}nextSibling`} label="Before element (optional)" mono />
          </div>
          <TextArea
            name={`${prefix}html`}
            label="Template HTML"
            mono
            rows={6}
            hint="Elements with data-storefit-close close it."
          />
          <TextInput
            name={`${prefix}root_style`}
            label="Wrapper style (CSS declarations)"
            mono
            placeholder="position:fixed;inset:0"
          />
          <TextArea name={`${prefix}js_script`} label="Template script" mono rows={3} />
          <fieldset className="ed-group">
            <legend>Trigger</legend>
            <Select
              name={`${prefix}trigger`}
              label="Show"
              options={[
                { value: "on_entry", label: "On entry" },
                { value: "on_click", label: "On a click on elements" },
                { value: "at_exit", label: "At exit intent" },
                { value: "timerbased", label: "After some time" },
                { value: "on_scroll", label: "After scrolling" },
              ]}
            />
            {trigger === "on_click" ? (
              <TextArea
                name={`${prefix}elements`}
                label="Elements (CSS paths, one per line)"
                mono
                rows={2}
              />
            ) : null}
            {trigger === "at_exit" ? (
              <TextInput name={`${prefix}delay`} label="Delay (seconds)" inputMode="decimal" />
            ) : null}
            {trigger === "timerbased" ? (
              <TextInput name={`${prefix}timeout`} label="After (seconds)" inputMode="decimal" />
            ) : null}
            {trigger === "on_scroll" ? (
              <TextInput
                name={`${prefix}scroll_percentage`}
                label="Scroll depth (%)"
                inputMode="decimal"
              />
            ) : null}
          </fieldset>
          <fieldset className="ed-group">
            <legend>Visibility and closing</legend>
            <Select
              name={`${prefix}visibility`}
              label="Visible on"
              options={[
                { value: "", label: "All devices" },
                { value: "desktop_only", label: "Desktop only" },
                { value: "mobile_only", label: "Mobile only" },
                { value: "hide_template", label: "Hidden (inserted, not shown)" },
              ]}
            />
            <Checkbox name={`${prefix}closeEnabled`} label="Remember when a visitor closes it" />
            {closeEnabled ? (
              <div className="ed-row">
                <Select
                  name={`${prefix}close`}
                  label="Stay closed"
                  options={[
                    { value: "next_session", label: "Until the next session" },
                    { value: "duration", label: "For a duration" },
                  ]}
                />
                <TextInput
                  name={`${prefix}expiry`}
                  label={close === "duration" ? "Duration (expiry)" : "Expiry (optional)"}
                  inputMode="decimal"
                />
              </div>
            ) : null}
            <Checkbox
              name={`${prefix}mirror`}
              label="Also list the template in the config's properties"
              hint="Recommended: the script finds the template there first."
            />
          </fieldset>
        </>
      ) : null}
    </>
  );
}

export function MetaFields({ prefix }: { prefix: string }) {
  const move = useFieldValue<boolean>(`${prefix}move.enabled`);
  const swap = useFieldValue<boolean>(`${prefix}swap.enabled`);
  const edit = useFieldValue<boolean>(`${prefix}edit.enabled`);
  const js = useFieldValue<boolean>(`${prefix}js.enabled`);
  const redirection = useFieldValue<boolean>(`${prefix}redirection.enabled`);
  return (
    <>
      <FormSection title="Move, swap, edit HTML, duplicate" fields={[prefix.slice(0, -1)]}>
        <Checkbox
          name={`${prefix}isDefault`}
          label="This is the control: change nothing, count the exposure"
        />
        <fieldset className="ed-group">
          <legend>Move</legend>
          <Checkbox name={`${prefix}move.enabled`} label="Move the element" />
          {move ? (
            <div className="ed-row">
              <Select name={`${prefix}move.position`} label="Put it" options={POSITIONS} />
              <TextInput name={`${prefix}move.target`} label="Next to (CSS path)" mono />
              <TextInput
                name={`${prefix}move.first_element`}
                label="First element (optional)"
                mono
              />
              <TextInput
                name={`${prefix}move.order`}
                label="Order (optional)"
                inputMode="decimal"
              />
            </div>
          ) : null}
        </fieldset>
        <fieldset className="ed-group">
          <legend>Swap</legend>
          <Checkbox name={`${prefix}swap.enabled`} label="Swap with another element" />
          {swap ? (
            <TextInput name={`${prefix}swap.target`} label="Swap with (CSS path)" mono />
          ) : null}
        </fieldset>
        <fieldset className="ed-group">
          <legend>Edit HTML</legend>
          <Checkbox name={`${prefix}edit.enabled`} label="Edit the element's HTML" />
          {edit ? (
            <>
              <Select
                name={`${prefix}edit.action_type`}
                label="How"
                options={[
                  { value: "replace_html", label: "Replace the element" },
                  { value: "insert_before_html", label: "Insert before it" },
                  { value: "insert_after_html", label: "Insert after it" },
                  { value: "append_html", label: "Append inside it" },
                ]}
              />
              <TextArea name={`${prefix}edit.action_txt`} label="HTML" mono rows={4} />
            </>
          ) : null}
        </fieldset>
        <Duplicates prefix={prefix} />
      </FormSection>
      <FormSection title="Click and load actions" fields={[prefix.slice(0, -1)]}>
        <ClickActions prefix={prefix} />
        <ScriptActionFields prefix={`${prefix}onclick.`} title="On click action" />
        <ScriptActionFields prefix={`${prefix}onload.`} title="On load action" />
      </FormSection>
      <FormSection
        title="Global actions (CSS, JavaScript, query parameters, redirection)"
        fields={[prefix.slice(0, -1)]}
      >
        <TextArea name={`${prefix}css`} label="Global CSS" mono rows={4} />
        <fieldset className="ed-group">
          <legend>Global JavaScript</legend>
          <Checkbox name={`${prefix}js.enabled`} label="Run a script on the page" />
          {js ? (
            <>
              <Select
                name={`${prefix}js.execution_type`}
                label="Run"
                options={[
                  { value: "asap", label: "As soon as possible" },
                  { value: "document_ready", label: "When the document is ready" },
                  { value: "document_load", label: "When the page has loaded" },
                ]}
              />
              <TextArea name={`${prefix}js.script`} label="Script" mono rows={4} />
            </>
          ) : null}
        </fieldset>
        <QueryParams prefix={prefix} />
        <fieldset className="ed-group">
          <legend>Redirection</legend>
          <Checkbox name={`${prefix}redirection.enabled`} label="Send visitors to another page" />
          {redirection ? (
            <>
              <TextInput name={`${prefix}redirection.url`} label="Redirect to" mono type="url" />
              <Checkbox
                name={`${prefix}redirection.retain_params`}
                label="Keep the current query parameters"
              />
            </>
          ) : null}
        </fieldset>
      </FormSection>
      <FormSection title="Template (popup)" fields={[`${prefix}template`]}>
        <TemplateFields prefix={`${prefix}template.`} />
      </FormSection>
    </>
  );
}
