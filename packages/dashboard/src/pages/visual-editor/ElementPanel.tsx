// The panel that edits what the storefront script can apply to the selected element (spec §3
// "Variation fields" and customfit_meta): content, image, link, styles, classes, hide, move,
// swap, duplicate, inserted HTML and click actions. Each control shows the saved change when
// there is one and the element's own value otherwise; every edit goes through `onEdit`, which
// keeps the undo history (edits of one field under one key are one step).
import { useId, useState } from "react";
import type { ReactNode } from "react";
import type {
  AdvancedClickAction,
  CustomfitMeta,
  ElementInfo,
  HtmlElementVariation,
} from "@storefit/contract";
import {
  HIDDEN_DISPLAY,
  classList,
  escapeHtml,
  isHidden,
  setMeta,
  setStyle,
  textOf,
  toClassList,
  toHexColor,
} from "./model";

export type Edit = (v: HtmlElementVariation) => HtmlElementVariation;

/** The styles the panel offers, with their labels; the placeholder is the computed value. */
const STYLE_FIELDS: readonly (readonly [prop: string, label: string])[] = [
  ["color", "Text color"],
  ["background-color", "Background color"],
  ["font-size", "Font size"],
  ["font-weight", "Font weight"],
  ["font-style", "Font style"],
  ["text-align", "Text align"],
  ["text-decoration", "Text decoration"],
  ["line-height", "Line height"],
  ["padding", "Padding"],
  ["margin", "Margin"],
  ["border", "Border"],
  ["border-radius", "Border radius"],
  ["width", "Width"],
  ["height", "Height"],
  ["opacity", "Opacity"],
];

const INSERT_KINDS = [
  ["insert_before_html", "Before the element"],
  ["insert_after_html", "After the element"],
  ["append_html", "At the end, inside it"],
  ["replace_html", "Instead of the element"],
] as const;
type InsertKind = (typeof INSERT_KINDS)[number][0];

const CLICK_KINDS = [
  ["", "Nothing more"],
  ["redirect_to_page", "Go to a page"],
  ["scroll_to_element", "Scroll to an element"],
  ["hide_element", "Hide an element"],
  ["unhide_element", "Show a hidden element"],
] as const;

const VOID_TAGS = /^(?:img|input|br|hr|source|track|wbr|area|col|embed|meta|link|base|param)$/;

const COLOR_PROPS = new Set(["color", "background-color"]);

/** A computed style worth showing as a placeholder (not the browser's defaults for "nothing"). */
const shown = (value: string | undefined) =>
  value && value !== "none" && value !== "normal" ? value : "";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="ve-section">
      <legend className="ve-section__title">{title}</legend>
      {children}
    </fieldset>
  );
}

function TextField({
  label,
  value,
  placeholder,
  onChange,
  multiline,
  mono,
}: {
  label: string;
  value: string;
  placeholder?: string | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  mono?: boolean;
}) {
  const id = useId();
  const className = `field__input ve-input${mono ? " mono" : ""}`;
  return (
    <div className="ve-field">
      <label className="ve-field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          className={className}
          rows={4}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          id={id}
          className={className}
          value={value}
          placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

export function ElementPanel({
  selection,
  variation: v,
  onEdit,
  readOnly = false,
}: {
  selection: ElementInfo;
  /** A viewer's panel: values shown, nothing editable, no action buttons. */
  readOnly?: boolean;
  /** The variation's change of this element ({} when it has none yet). */
  variation: HtmlElementVariation;
  /** `key` names the field: edits with the same key in a row are one undo step. */
  onEdit: (key: string | null, edit: Edit) => void;
}) {
  const m: CustomfitMeta = v.customfit_meta ?? {};
  // The element's own content, as the shop has it: what the bridge read may be a preview of this
  // very change (a saved variation), and typing that value again must keep the change.
  const own = selection.original ?? selection;
  const tag = selection.tagName;
  const isImage = tag === "img" || tag === "source" || "src" in selection.attributes;
  const isLink = tag === "a" || "href" in selection.attributes;
  // Elements without content (an image, a line break) have no text or HTML to edit.
  const hasContent = !VOID_TAGS.test(tag);
  const siblings = selection.siblings;
  const [insertKind, setInsertKind] = useState<InsertKind>(
    m.edit_elem_action?.action_type ?? "insert_after_html",
  );
  const ids = { insert: useId(), click: useId(), target: useId(), hide: useId(), tab: useId() };
  const click: AdvancedClickAction | undefined = m.advanced_click_actions?.[0];
  const setClick = (next: AdvancedClickAction | undefined) =>
    onEdit("click", setMeta("advanced_click_actions", next ? [next] : undefined));

  return (
    // A viewer's panel is one disabled fieldset: every field shows its value, none takes input.
    <fieldset className="ve-panel__sections" disabled={readOnly}>
      {hasContent ? (
        <Section title="Content">
          <TextField
            label="Text"
            value={v.innerHTML !== undefined ? textOf(v.innerHTML) : own.text}
            onChange={(text) =>
              onEdit("innerHTML", (x) => ({
                ...x,
                innerHTML: text === own.text ? undefined : escapeHtml(text),
              }))
            }
          />
          <TextField
            label="HTML"
            multiline
            mono
            value={v.innerHTML ?? own.html}
            onChange={(html) =>
              onEdit("innerHTML", (x) => ({
                ...x,
                innerHTML: html === own.html ? undefined : html,
              }))
            }
          />
          {selection.htmlTruncated ? (
            <p className="ve-hint">The element's HTML is long: only its start is shown.</p>
          ) : null}
        </Section>
      ) : null}

      {isImage ? (
        <Section title="Image">
          <TextField
            label="Image address (src)"
            mono
            value={v.src ?? ""}
            placeholder={selection.attributes.src}
            onChange={(src) => onEdit("src", (x) => ({ ...x, src: src || undefined }))}
          />
          <TextField
            label="Responsive sources (srcset)"
            mono
            value={v.srcset ?? ""}
            placeholder={selection.attributes.srcset}
            onChange={(srcset) => onEdit("srcset", (x) => ({ ...x, srcset: srcset || undefined }))}
          />
        </Section>
      ) : null}

      {isLink ? (
        <Section title="Link">
          <TextField
            label="Link address (href)"
            mono
            value={v.href_target?.href ?? ""}
            placeholder={selection.attributes.href}
            onChange={(href) =>
              onEdit("href", (x) => ({
                ...x,
                href_target: { ...x.href_target, href: href || undefined },
              }))
            }
          />
          <div className="ve-field">
            <label className="ve-field__label" htmlFor={ids.target}>
              Opens in
            </label>
            <select
              id={ids.target}
              className="field__input ve-input"
              value={v.href_target?.target ?? ""}
              onChange={(e) => {
                const target = e.target.value || undefined;
                onEdit(null, (x) => ({ ...x, href_target: { ...x.href_target, target } }));
              }}
            >
              <option value="">As on the shop</option>
              <option value="_self">The same tab</option>
              <option value="_blank">A new tab</option>
            </select>
          </div>
        </Section>
      ) : null}

      <Section title="Style">
        <div className="ve-grid">
          {STYLE_FIELDS.map(([prop, label]) => (
            <div key={prop} className={COLOR_PROPS.has(prop) ? "ve-color" : undefined}>
              <TextField
                label={label}
                value={v.style?.[prop] ?? ""}
                placeholder={shown(
                  selection.styles[prop] ??
                    (prop === "text-decoration"
                      ? selection.styles["text-decoration-line"]
                      : undefined),
                )}
                onChange={(value) => onEdit(`style:${prop}`, setStyle(prop, value))}
              />
              {COLOR_PROPS.has(prop) ? (
                <input
                  type="color"
                  className="ve-color__picker"
                  aria-label={`${label} picker`}
                  value={toHexColor(v.style?.[prop] ?? selection.styles[prop] ?? "") ?? "#000000"}
                  onChange={(e) => onEdit(`style:${prop}`, setStyle(prop, e.target.value))}
                />
              ) : null}
            </div>
          ))}
        </div>
        <div className="ve-check">
          <input
            id={ids.hide}
            type="checkbox"
            checked={isHidden(v)}
            onChange={(e) =>
              onEdit(null, setStyle("display", e.target.checked ? HIDDEN_DISPLAY : ""))
            }
          />
          <label htmlFor={ids.hide}>Hide this element</label>
        </div>
      </Section>

      <Section title="Classes">
        <TextField
          label="Add classes"
          mono
          value={classList(v.cf_classes_add)}
          placeholder="space-separated"
          onChange={(text) =>
            onEdit("classes-add", (x) => ({
              ...x,
              cf_classes_edit_option: "add_remove_classes",
              cf_classes_add: toClassList(text),
              cf_classes_remove: x.cf_classes_remove ?? [],
            }))
          }
        />
        <TextField
          label="Remove classes"
          mono
          value={classList(v.cf_classes_remove)}
          placeholder={selection.attributes.class}
          onChange={(text) =>
            onEdit("classes-remove", (x) => ({
              ...x,
              cf_classes_edit_option: "add_remove_classes",
              cf_classes_add: x.cf_classes_add ?? [],
              cf_classes_remove: toClassList(text),
            }))
          }
        />
      </Section>

      <Section title="Arrange">
        {readOnly ? null : (
          <div className="ve-row">
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={!siblings?.previous}
              onClick={() =>
                siblings?.previous &&
                onEdit(
                  null,
                  setMeta("move_action", { target: siblings.previous, position: "above" }),
                )
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

      <Section title="Insert HTML">
        <div className="ve-field">
          <label className="ve-field__label" htmlFor={ids.insert}>
            Where
          </label>
          <select
            id={ids.insert}
            className="field__input ve-input"
            value={insertKind}
            onChange={(e) => {
              const kind = e.target.value as InsertKind;
              setInsertKind(kind);
              if (m.edit_elem_action)
                onEdit(
                  null,
                  setMeta("edit_elem_action", { ...m.edit_elem_action, action_type: kind }),
                );
            }}
          >
            {INSERT_KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <TextField
          label="HTML to insert"
          multiline
          mono
          value={m.edit_elem_action?.action_txt ?? ""}
          onChange={(html) =>
            onEdit(
              "insert",
              setMeta(
                "edit_elem_action",
                html ? { action_type: insertKind, action_txt: html } : undefined,
              ),
            )
          }
        />
      </Section>

      <Section title="On click">
        <TextField
          label="Count clicks as the goal"
          value={m.onclick_action?.action_txt?.goal_name ?? ""}
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
        <p className="ve-hint">Click actions run in the preview while “Select elements” is off.</p>
      </Section>
    </fieldset>
  );
}
