// The editor itself, once the experience and the account are loaded. It puts together the
// variations being edited (useEditorVariations), the page in the frame and its bridge
// (useEditorFrame), the keys (useEditorKeys) and the save (useEditorSave), and lays out the bar,
// the page and the side panel. What is shown (the variation, the width) is sent to the bridge as
// one preview whenever it changes or the page's bridge is new.
import { useCallback, useEffect, useId, useMemo, useState } from "react";
import type { FormEvent } from "react";
import type { AccountView, EditorDevice, ExperienceDetail } from "@storefit/contract";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";
import { useCanEdit } from "../experiences/canEdit";
import { OverlapNotice } from "../experiences/OverlapNotice";
import { EditorBar } from "./EditorBar";
import { ElementPanel } from "./ElementPanel";
import type { Edit } from "./ElementPanel";
import type { ChangeScope } from "./model";
import {
  configOnPage,
  describeConfig,
  deviceEdit,
  deviceView,
  editElement,
  elementConfigIndex,
  pageTargeted,
  previewConfigs,
  templateOf,
  variationOf,
} from "./model";
import { PageProblem } from "./PageProblem";
import { PopupForm } from "./PopupForm";
import { SaveError } from "./SaveError";
import { suggestedPages } from "./suggested-pages";
import { useEditorFrame } from "./useEditorFrame";
import { SELECTION_KEYS, useEditorKeys } from "./useEditorKeys";
import { useEditorSave } from "./useEditorSave";
import { useEditorVariations } from "./useEditorVariations";

/** The frame's width for the mobile preview (CSS pixels), a common phone. */
export const MOBILE_WIDTH_PX = 390;

const matches = (n: number) => `${n} ${n === 1 ? "element matches" : "elements match"}`;

export function VisualEditor({
  experience,
  account,
  requestedVariationId,
  initialPage,
}: {
  experience: ExperienceDetail;
  account: AccountView;
  requestedVariationId: string | null;
  initialPage: string | null;
}) {
  // A viewer browses pages, selects elements and switches variations, and changes nothing (the
  // service would refuse the save: 403).
  const canEdit = useCanEdit();
  const domains = useMemo(
    () => ({ domain: account.settings.domain, subdomains: account.settings.subdomains ?? [] }),
    [account],
  );
  const suggestions = useMemo(
    () => suggestedPages(experience, account.settings),
    [experience, account],
  );
  const variations = useEditorVariations(experience, requestedVariationId, canEdit);
  const { variationId, configs, context, edit, undo, redo } = variations;
  const frame = useEditorFrame(domains, initialPage);
  const { ready, readyCount, location, selection, send, open, frameRef, onLoad, typePath } = frame;
  const { opened, addressError, timedOut, frameLoaded, preview, hover, pathText, bridgeError } =
    frame;
  const [device, setDevice] = useState<EditorDevice>("desktop");
  const [selectMode, setSelectMode] = useState(true);
  const [scope, setScope] = useState<ChangeScope>("page");
  const deviceSpecific = !!context?.deviceSpecific;

  // ---- the chosen variation, previewed live ----
  const shown = useMemo(
    () => (location && context ? previewConfigs(configs, variationId, context, location) : []),
    [configs, variationId, context, location],
  );
  const shownKey = JSON.stringify(shown);
  useEffect(() => {
    if (!ready) return;
    send({ type: "preview", configs: JSON.parse(shownKey) as typeof shown, device });
  }, [ready, readyCount, shownKey, device, send]);
  useEffect(() => {
    if (ready) send({ type: "select-mode", on: selectMode });
  }, [ready, readyCount, selectMode, send]);

  const editSelected = useCallback(
    (key: string | null, e: Edit) => {
      if (!selection || !location) return;
      // A device-specific behaviour: element fields edited in this width are this device's.
      const change = deviceSpecific ? deviceEdit(device, e) : e;
      edit(key && `${device}:${selection.path}:${key}`, (c) =>
        editElement(c, selection.path, location, scope, change),
      );
    },
    [edit, selection, location, scope, deviceSpecific, device],
  );

  useEditorKeys({ canEdit, hasSelection: !!selection, undo, redo, send });
  useUnsavedWarning(variations.anyUnsaved);
  const save = useEditorSave({ experience, variationId, configs, dispatch: variations.dispatch });

  const selectedConfig =
    selection && location
      ? configs[elementConfigIndex(configs, selection.path, location)]
      : undefined;
  const onThisPage = location ? configs.filter((c) => configOnPage(c, location)) : [];
  const elsewhere = configs.length - onThisPage.length;
  const offTarget = !!location && !pageTargeted(experience.pages, location);

  const [address, setAddress] = useState(initialPage ?? suggestions[0] ?? "");
  const ids = { address: useId(), pages: useId(), path: useId(), scope: useId() };
  const typed = pathText.trim();
  const onOpen = (e: FormEvent) => {
    e.preventDefault();
    open(address.trim());
  };
  const onPath = (e: FormEvent) => {
    e.preventDefault();
    if (typed) send({ type: "select-path", path: typed });
  };

  return (
    <div className="ve">
      <EditorBar
        experience={experience}
        variations={variations}
        save={save}
        device={device}
        onDevice={setDevice}
        canEdit={canEdit}
      />
      {canEdit && save.error ? (
        <SaveError error={save.error} onReload={save.reload} reloading={save.reloading} />
      ) : null}

      <div className="ve-body">
        <section className="ve-stage" aria-label="Shop page">
          <form className="ve-address" onSubmit={onOpen}>
            <label className="ve-field__label" htmlFor={ids.address}>
              Page address
            </label>
            <input
              id={ids.address}
              className="field__input ve-input mono"
              list={ids.pages}
              value={address}
              placeholder="https://your-shop.example/products/…"
              onChange={(e) => setAddress(e.target.value)}
              aria-invalid={addressError ? true : undefined}
              aria-describedby={addressError ? `${ids.address}-error` : undefined}
            />
            <datalist id={ids.pages}>
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
            <button type="submit" className="button button--secondary">
              Open
            </button>
          </form>
          {addressError ? (
            <p className="form__error" role="alert" id={`${ids.address}-error`}>
              {addressError}
            </p>
          ) : null}
          {offTarget ? (
            <p className="notice notice--warning">
              This page is not one of the experience's target pages: the shop will not show changes
              made here until the experience targets it.
            </p>
          ) : null}
          {timedOut && opened ? (
            <PageProblem key={opened.n} url={opened.page} frameLoaded={frameLoaded} />
          ) : null}
          {preview && preview.missing.length > 0 ? (
            <p className="notice notice--warning" role="status">
              {preview.missing.length} change{preview.missing.length === 1 ? "" : "s"} found no
              element on this page.
            </p>
          ) : null}
          <div className="ve-frame-wrap">
            {opened ? (
              <>
                {!ready && !timedOut ? (
                  <div className="ve-frame-loading" role="status">
                    <span className="spinner" aria-hidden="true" /> Loading the page…
                  </div>
                ) : null}
                <iframe
                  ref={frameRef}
                  key={opened.n}
                  name="storefit-editor"
                  title="Shop page being edited"
                  className={`ve-frame ve-frame--${device}`}
                  style={device === "mobile" ? { width: MOBILE_WIDTH_PX } : undefined}
                  src={opened.url}
                  onLoad={onLoad}
                />
              </>
            ) : (
              <div className="ve-frame-empty">
                <p>
                  Choose a page of the shop to edit: one the experience targets, or any address on{" "}
                  {domains.domain}.
                </p>
              </div>
            )}
          </div>
        </section>

        <aside className="ve-panel" aria-label="Changes">
          <OverlapNotice experience={experience} />
          <section className="ve-selection" aria-label="Selected element">
            <div className="ve-check">
              <input
                id={`${ids.path}-mode`}
                type="checkbox"
                checked={selectMode}
                onChange={(e) => setSelectMode(e.target.checked)}
              />
              <label htmlFor={`${ids.path}-mode`}>Select elements by clicking in the page</label>
            </div>
            <form className="ve-path" onSubmit={onPath}>
              <label className="ve-field__label" htmlFor={ids.path}>
                CSS path
              </label>
              <div className="ve-row">
                <input
                  id={ids.path}
                  className="field__input ve-input mono"
                  value={pathText}
                  placeholder={hover?.path ?? "Click an element in the page"}
                  onChange={(e) => {
                    typePath(e.target.value);
                    // Highlight what the typed path matches, and count it (the bridge's `hover`).
                    if (ready) send({ type: "hover-path", path: e.target.value.trim() || null });
                  }}
                  onBlur={() => ready && send({ type: "hover-path", path: null })}
                  data-testid="selected-path"
                />
                <button
                  type="submit"
                  className="button button--secondary button--small"
                  disabled={!ready}
                >
                  Select
                </button>
              </div>
            </form>
            <p className="ve-hint" data-testid="match-count" aria-live="polite">
              {typed && typed !== selection?.path && hover?.path === typed
                ? `${matches(hover.matchCount)} the typed path`
                : selection
                  ? `<${selection.tagName}> · ${matches(selection.matchCount)}`
                  : hover
                    ? `Pointer on ${hover.path}`
                    : "Nothing selected"}
            </p>
            {selection && selection.matchCount > 1 ? (
              <p className="notice notice--warning">
                This path matches {selection.matchCount} elements: a change applies to every one of
                them.
              </p>
            ) : null}
            {bridgeError ? (
              <p className="form__error" role="alert">
                {bridgeError}
              </p>
            ) : null}
            <div className="ve-row" role="group" aria-label="Move the selection">
              {SELECTION_KEYS.map(([key, arrow, direction, label]) => (
                <button
                  key={direction}
                  type="button"
                  className="button button--secondary button--small"
                  disabled={!selection?.can[direction]}
                  onClick={() => send({ type: "navigate-selection", direction })}
                  title={`Alt+${arrow}`}
                  aria-keyshortcuts={`Alt+${key}`}
                >
                  {label}
                </button>
              ))}
            </div>
            {deviceSpecific ? (
              <p className="notice" data-testid="device-note">
                This variation changes elements per device: content, image, link, style and class
                edits apply to the {device} width shown; other changes apply to both.
              </p>
            ) : null}
            {canEdit ? (
              <div className="ve-field ve-field--inline">
                <label className="ve-field__label" htmlFor={ids.scope}>
                  New changes apply on
                </label>
                <select
                  id={ids.scope}
                  className="field__input ve-input"
                  value={scope}
                  onChange={(e) => setScope(e.target.value as ChangeScope)}
                >
                  <option value="page">This page only</option>
                  <option value="experience">Every page the experience targets</option>
                </select>
              </div>
            ) : null}
          </section>

          {selection ? (
            <ElementPanel
              key={`${variationId} ${selection.path} ${deviceSpecific ? device : ""}`}
              selection={selection}
              variation={
                deviceSpecific
                  ? deviceView(variationOf(selectedConfig), device)
                  : variationOf(selectedConfig)
              }
              onEdit={editSelected}
              readOnly={!canEdit}
            />
          ) : (
            <p className="ve-hint ve-panel__empty">
              {canEdit
                ? "Click an element in the page to change it. Keys: Alt+arrows move the selection, Ctrl+Z undoes, Ctrl+Shift+Z redoes."
                : "Click an element in the page to see its path and this variation's change of it. Keys: Alt+arrows move the selection."}
            </p>
          )}

          <section className="ve-section ve-changes" aria-label="Changes on this page">
            <h2 className="ve-section__title">Changes on this page</h2>
            {onThisPage.length === 0 ? (
              <p className="ve-hint">This variation changes nothing on this page.</p>
            ) : (
              <ul className="ve-changes__list">
                {onThisPage.map((c) => {
                  const path = c.properties?.element_path;
                  return (
                    <li key={c.config_id} className="ve-changes__item" data-testid="change-row">
                      <button
                        type="button"
                        className="ve-changes__path mono"
                        disabled={!path || !ready}
                        onClick={() => path && send({ type: "select-path", path })}
                      >
                        {path ?? templateOf(c)?.id ?? c.config_id}
                      </button>
                      <span className="ve-hint">{describeConfig(c)}</span>
                      {canEdit ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          onClick={() =>
                            edit(null, (all) => all.filter((x) => x.config_id !== c.config_id))
                          }
                          aria-label={`Remove the change of ${path ?? c.config_id}`}
                        >
                          Remove
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </section>

          {elsewhere > 0 ? (
            <p className="ve-hint" data-testid="other-pages">
              {elsewhere} more {elsewhere === 1 ? "change" : "changes"} of this variation on other
              pages.
            </p>
          ) : null}

          {canEdit ? (
            <PopupForm
              disabled={!location}
              onInsert={(make) => location && edit(null, (all) => [...all, make(location, scope)])}
            />
          ) : null}
        </aside>
      </div>
    </div>
  );
}
