// The element changes of an HTML_ELEMENT variation (spec §3 "Variation fields"), used for the
// variation itself and for its mobile and desktop sub-variations.
import { linkTargetOptions } from "./model";
import type { StyleRow } from "./model";
import { useFormContext } from "react-hook-form";
import {
  Checkbox,
  ColorInput,
  FieldError,
  Select,
  TextArea,
  TextInput,
  useFieldError,
  useFieldList,
  useFieldValue,
} from "../../components/form";

/** Color properties (color, background-color, border-color…) get a picker next to their value. */
function StylePicker({ prefix }: { prefix: string }) {
  const property = useFieldValue<string>(`${prefix}property`);
  return /color$/i.test(property?.trim() ?? "") ? (
    <ColorInput name={`${prefix}value`} label={`Pick ${property.trim()}`} />
  ) : null;
}

export function ElementFields({ prefix }: { prefix: string }) {
  const { register } = useFormContext();
  const kind = useFieldValue<string>(`${prefix}innerHTMLKind`);
  const classOption = useFieldValue<string>(`${prefix}classOption`);
  const src = useFieldValue<string>(`${prefix}src`);
  const target = useFieldValue<string>(`${prefix}target`);
  const styles = useFieldList<StyleRow>(`${prefix}styles`);
  const classError = useFieldError(`${prefix}classesAdd`);

  return (
    <div className="ed-element">
      <fieldset className="ed-group">
        <legend>Content</legend>
        <div className="ed-radio" role="radiogroup" aria-label="Content is">
          <label>
            <input type="radio" value="text" {...register(`${prefix}innerHTMLKind`)} /> Plain text
          </label>
          <label>
            <input type="radio" value="html" {...register(`${prefix}innerHTMLKind`)} /> Rich text
            (HTML)
          </label>
        </div>
        <TextArea
          name={`${prefix}innerHTML`}
          label={kind === "html" ? "New content (HTML)" : "New text"}
          mono={kind === "html"}
          hint={
            kind === "html"
              ? "Replaces the element's inner HTML."
              : "Replaces the element's text; leave empty to keep it."
          }
        />
        <TextInput
          name={`${prefix}value`}
          label="Input value"
          hint="For form fields: the value to set."
        />
      </fieldset>

      <fieldset className="ed-group">
        <legend>Image</legend>
        <div className="ed-row">
          <TextInput
            name={`${prefix}src`}
            label="Image source (src)"
            mono
            placeholder="/images/product-2.jpg"
          />
          {/^https?:\/\//.test(src) ? (
            <img className="ed-thumb" src={src} alt="Image preview" />
          ) : null}
        </div>
        <TextInput
          name={`${prefix}srcset`}
          label="Responsive sources (srcset)"
          mono
          placeholder="/img-480.jpg 480w, /img-960.jpg 960w"
        />
      </fieldset>

      <fieldset className="ed-group">
        <legend>Link</legend>
        <div className="ed-row">
          <TextInput name={`${prefix}href`} label="Link address (href)" mono />
          <Select
            name={`${prefix}target`}
            label="Opens in"
            options={linkTargetOptions(target ?? "")}
          />
        </div>
      </fieldset>

      <fieldset className="ed-group">
        <legend>Style</legend>
        {styles.fields.length === 0 ? <p className="muted ed-small">No style changes.</p> : null}
        {styles.fields.map((field, i) => (
          <div className="ed-row ed-row--tight" key={field.id}>
            <TextInput
              name={`${prefix}styles.${i}.property`}
              label="CSS property"
              mono
              placeholder="color"
            />
            <TextInput
              name={`${prefix}styles.${i}.value`}
              label="Value"
              mono
              placeholder="#2f6b4f"
            />
            <StylePicker prefix={`${prefix}styles.${i}.`} />
            <button
              type="button"
              className="button button--secondary button--small ed-row__end"
              onClick={() => styles.remove(i)}
            >
              Remove style
            </button>
          </div>
        ))}
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => styles.append({ property: "", value: "" })}
        >
          Add style
        </button>
      </fieldset>

      <fieldset className="ed-group">
        <legend>Classes</legend>
        <Select
          name={`${prefix}classOption`}
          label="Class changes"
          options={[
            { value: "", label: "None" },
            { value: "no_changes", label: "No changes (explicit)" },
            { value: "add_remove_classes", label: "Add and remove classes" },
            { value: "overwrite_classes", label: "Replace all classes" },
          ]}
        />
        {classOption === "add_remove_classes" ? (
          <div className="ed-row">
            <TextInput
              name={`${prefix}classesAdd`}
              label="Classes to add"
              mono
              hint="Separated by spaces."
            />
            <TextInput name={`${prefix}classesRemove`} label="Classes to remove" mono />
          </div>
        ) : null}
        {classOption === "overwrite_classes" ? (
          <TextInput
            name={`${prefix}classesOverwrite`}
            label="The element's classes"
            mono
            hint="Separated by spaces; empty removes all."
          />
        ) : null}
        {classOption !== "add_remove_classes" && classError ? (
          <FieldError>{classError}</FieldError>
        ) : null}
      </fieldset>

      <fieldset className="ed-group">
        <legend>When and how to apply</legend>
        <div className="ed-checks">
          <Checkbox
            name={`${prefix}retain`}
            label="Keep re-applying when the page changes it back (retain value)"
          />
          <Checkbox name={`${prefix}defer`} label="Wait for the page to finish loading (defer)" />
          <Checkbox name={`${prefix}evtLoadTime`} label="Record the load time as an event" />
          <Checkbox name={`${prefix}performClick`} label="Click the element once changed" />
        </div>
        <TextInput
          name={`${prefix}delayMs`}
          label="Delay before applying (ms)"
          inputMode="numeric"
          placeholder="0"
        />
      </fieldset>
    </div>
  );
}
