// customfit_meta (spec §3): moves, swaps, HTML edits, duplicates, click and load actions, global
// actions, and the template (popup) with its triggers, visibility and close settings.
import type { ClickActionForm, MetaForm } from "./model";
import {
  CheckboxField,
  Section,
  SelectField,
  TextArea,
  TextField,
  useArray,
  useValue,
} from "./fields";
import type { FieldName } from "./fields";

const POSITIONS = [
  { value: "above", label: "Above" },
  { value: "below", label: "Below" },
];

const SCRIPT_ACTIONS = [
  { value: "track_click", label: "Count the click as a goal" },
  { value: "execute_javascript", label: "Run JavaScript" },
  { value: "track_click_and_execute_javascript", label: "Count the click and run JavaScript" },
];

function ScriptActionFields({ prefix, title }: { prefix: FieldName; title: string }) {
  const enabled = useValue<boolean>(`${prefix}enabled`);
  const type = useValue<string>(`${prefix}action_type`);
  return (
    <fieldset className="ed-group">
      <legend>{title}</legend>
      <CheckboxField name={`${prefix}enabled`} label={`Add ${title.toLowerCase()}`} />
      {enabled ? (
        <>
          <SelectField name={`${prefix}action_type`} label="Action" options={SCRIPT_ACTIONS} />
          {type !== "execute_javascript" ? (
            <TextField
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

function ClickActions({ prefix }: { prefix: FieldName }) {
  const actions = useArray<ClickActionForm>(`${prefix}clickActions`);
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

function ClickActionRow({ prefix, onRemove }: { prefix: FieldName; onRemove: () => void }) {
  const type = useValue<string>(`${prefix}action_type`);
  return (
    <div className="ed-item">
      <div className="ed-row">
        <SelectField
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
          <TextField name={`${prefix}redirect_url`} label="Address" mono type="url" />
        ) : (
          <TextField name={`${prefix}target`} label="Element (CSS path)" mono />
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
          <CheckboxField
            name={`${prefix}retain_params`}
            label="Keep the current query parameters"
          />
          <CheckboxField name={`${prefix}open_in_new_tab`} label="Open in a new tab" />
        </div>
      ) : null}
    </div>
  );
}

function Duplicates({ prefix }: { prefix: FieldName }) {
  const items = useArray<MetaForm["duplicates"][number]>(`${prefix}duplicates`);
  return (
    <fieldset className="ed-group">
      <legend>Duplicate the element</legend>
      {items.fields.map((field, i) => (
        <div className="ed-row" key={field.id}>
          <SelectField
            name={`${prefix}duplicates.${i}.position`}
            label="Copy goes"
            options={POSITIONS}
          />
          <TextField
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

function QueryParamRow({ prefix, onRemove }: { prefix: FieldName; onRemove: () => void }) {
  const operation = useValue<string>(`${prefix}operation`);
  return (
    <div className="ed-row">
      <SelectField
        name={`${prefix}operation`}
        label="Operation"
        options={[
          { value: "add", label: "Add" },
          { value: "remove", label: "Remove" },
        ]}
      />
      <TextField name={`${prefix}key`} label="Parameter" mono />
      {/* Removing a parameter takes no value (spec §3 query_params): none is saved, so none is asked. */}
      {operation === "add" ? <TextField name={`${prefix}value`} label="Value" mono /> : null}
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

function QueryParams({ prefix }: { prefix: FieldName }) {
  const items = useArray<MetaForm["queryParams"][number]>(`${prefix}queryParams`);
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

function TemplateFields({ prefix }: { prefix: FieldName }) {
  const enabled = useValue<boolean>(`${prefix}enabled`);
  const trigger = useValue<string>(`${prefix}trigger`);
  const closeEnabled = useValue<boolean>(`${prefix}closeEnabled`);
  const close = useValue<string>(`${prefix}close`);
  return (
    <>
      <CheckboxField name={`${prefix}enabled`} label="Insert a template (popup or block)" />
      {enabled ? (
        <>
          <div className="ed-row">
            <TextField name={`${prefix}id`} label="Template id" mono />
            <TextField
              name={`${prefix}parentElement`}
              label="Insert into (CSS path)"
              mono
              placeholder="body"
            />
            <TextField name={`${prefix}nextSibling`} label="Before element (optional)" mono />
          </div>
          <TextArea
            name={`${prefix}html`}
            label="Template HTML"
            mono
            rows={6}
            hint="Elements with data-storefit-close close it."
          />
          <TextField
            name={`${prefix}root_style`}
            label="Wrapper style (CSS declarations)"
            mono
            placeholder="position:fixed;inset:0"
          />
          <TextArea name={`${prefix}js_script`} label="Template script" mono rows={3} />
          <fieldset className="ed-group">
            <legend>Trigger</legend>
            <SelectField
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
              <TextField name={`${prefix}delay`} label="Delay (seconds)" type="number" />
            ) : null}
            {trigger === "timerbased" ? (
              <TextField name={`${prefix}timeout`} label="After (seconds)" type="number" />
            ) : null}
            {trigger === "on_scroll" ? (
              <TextField
                name={`${prefix}scroll_percentage`}
                label="Scroll depth (%)"
                type="number"
              />
            ) : null}
          </fieldset>
          <fieldset className="ed-group">
            <legend>Visibility and closing</legend>
            <SelectField
              name={`${prefix}visibility`}
              label="Visible on"
              options={[
                { value: "", label: "All devices" },
                { value: "desktop_only", label: "Desktop only" },
                { value: "mobile_only", label: "Mobile only" },
                { value: "hide_template", label: "Hidden (inserted, not shown)" },
              ]}
            />
            <CheckboxField
              name={`${prefix}closeEnabled`}
              label="Remember when a visitor closes it"
            />
            {closeEnabled ? (
              <div className="ed-row">
                <SelectField
                  name={`${prefix}close`}
                  label="Stay closed"
                  options={[
                    { value: "next_session", label: "Until the next session" },
                    { value: "duration", label: "For a duration" },
                  ]}
                />
                <TextField
                  name={`${prefix}expiry`}
                  label={close === "duration" ? "Duration (expiry)" : "Expiry (optional)"}
                  type="number"
                />
              </div>
            ) : null}
            <CheckboxField
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

export function MetaFields({ prefix }: { prefix: FieldName }) {
  const move = useValue<boolean>(`${prefix}move.enabled`);
  const swap = useValue<boolean>(`${prefix}swap.enabled`);
  const edit = useValue<boolean>(`${prefix}edit.enabled`);
  const js = useValue<boolean>(`${prefix}js.enabled`);
  const redirection = useValue<boolean>(`${prefix}redirection.enabled`);
  return (
    <>
      <Section title="Move, swap, edit HTML, duplicate" prefix={prefix.slice(0, -1)}>
        <CheckboxField
          name={`${prefix}isDefault`}
          label="This is the control: change nothing, count the exposure"
        />
        <fieldset className="ed-group">
          <legend>Move</legend>
          <CheckboxField name={`${prefix}move.enabled`} label="Move the element" />
          {move ? (
            <div className="ed-row">
              <SelectField name={`${prefix}move.position`} label="Put it" options={POSITIONS} />
              <TextField name={`${prefix}move.target`} label="Next to (CSS path)" mono />
              <TextField
                name={`${prefix}move.first_element`}
                label="First element (optional)"
                mono
              />
              <TextField name={`${prefix}move.order`} label="Order (optional)" type="number" />
            </div>
          ) : null}
        </fieldset>
        <fieldset className="ed-group">
          <legend>Swap</legend>
          <CheckboxField name={`${prefix}swap.enabled`} label="Swap with another element" />
          {swap ? (
            <TextField name={`${prefix}swap.target`} label="Swap with (CSS path)" mono />
          ) : null}
        </fieldset>
        <fieldset className="ed-group">
          <legend>Edit HTML</legend>
          <CheckboxField name={`${prefix}edit.enabled`} label="Edit the element's HTML" />
          {edit ? (
            <>
              <SelectField
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
      </Section>
      <Section title="Click and load actions" prefix={prefix.slice(0, -1)}>
        <ClickActions prefix={prefix} />
        <ScriptActionFields prefix={`${prefix}onclick.`} title="On click action" />
        <ScriptActionFields prefix={`${prefix}onload.`} title="On load action" />
      </Section>
      <Section
        title="Global actions (CSS, JavaScript, query parameters, redirection)"
        prefix={prefix.slice(0, -1)}
      >
        <TextArea name={`${prefix}css`} label="Global CSS" mono rows={4} />
        <fieldset className="ed-group">
          <legend>Global JavaScript</legend>
          <CheckboxField name={`${prefix}js.enabled`} label="Run a script on the page" />
          {js ? (
            <>
              <SelectField
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
          <CheckboxField
            name={`${prefix}redirection.enabled`}
            label="Send visitors to another page"
          />
          {redirection ? (
            <>
              <TextField name={`${prefix}redirection.url`} label="Redirect to" mono type="url" />
              <CheckboxField
                name={`${prefix}redirection.retain_params`}
                label="Keep the current query parameters"
              />
            </>
          ) : null}
        </fieldset>
      </Section>
      <Section title="Template (popup)" prefix={`${prefix}template`}>
        <TemplateFields prefix={`${prefix}template.`} />
      </Section>
    </>
  );
}
