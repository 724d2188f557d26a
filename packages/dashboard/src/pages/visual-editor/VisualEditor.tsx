// The editor itself, once the experience and the account are loaded. It puts together the
// variations being edited (useEditorVariations), the page in the frame and its bridge
// (useEditorFrame), the keys (useEditorKeys) and the save (useEditorSave), and lays out the bar,
// the page and the side panel. What is shown (the variation, the width) is sent to the bridge as
// one preview whenever it changes or the page's bridge is new.
import { useCallback, useEffect, useMemo, useState } from "react";
import type { AccountView, EditorDevice, ExperienceDetail } from "@storefit/contract";
import { useUnsavedWarning } from "../../components/useUnsavedWarning";
import { useCanEdit } from "../experiences/canEdit";
import { OverlapNotice } from "../experiences/OverlapNotice";
import { ChangesSection } from "./ChangesSection";
import { EditorBar } from "./EditorBar";
import { ElementPanel } from "./ElementPanel";
import type { Edit } from "./ElementPanel";
import type { ChangeScope } from "./model";
import {
  configOnPage,
  deviceEdit,
  deviceView,
  editElement,
  elementConfigIndex,
  pageTargeted,
  previewConfigs,
  variationOf,
} from "./model";
import { PageStage } from "./PageStage";
import { PopupForm } from "./PopupForm";
import { SaveError } from "./SaveError";
import { SelectionSection } from "./SelectionSection";
import { suggestedPages } from "./suggested-pages";
import { useEditorFrame } from "./useEditorFrame";
import { useEditorKeys } from "./useEditorKeys";
import { useEditorSave } from "./useEditorSave";
import { useEditorVariations } from "./useEditorVariations";

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
  const { ready, readyCount, selection, send } = frame;
  // The frame's page with the account's main domain: what applies there is decided as the service does.
  const mainDomain = account.settings.domain;
  const location = useMemo(
    () => frame.location && { ...frame.location, mainDomain },
    [frame.location, mainDomain],
  );
  const [device, setDevice] = useState<EditorDevice>("desktop");
  const [selectMode, setSelectMode] = useState(true);
  const [scope, setScope] = useState<ChangeScope>("page");
  const deviceSpecific = !!context?.deviceSpecific;
  const clickGoals = useMemo(
    () => experience.goals.filter((g) => g.kind === "click"),
    [experience],
  );

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
        <PageStage
          frame={frame}
          suggestions={suggestions}
          initialPage={initialPage}
          domain={domains.domain}
          device={device}
          offTarget={!!location && !pageTargeted(experience.pages, location)}
        />

        <aside className="ve-panel" aria-label="Changes">
          <OverlapNotice experience={experience} />
          <SelectionSection
            frame={frame}
            selectMode={selectMode}
            onSelectMode={setSelectMode}
            deviceSpecific={deviceSpecific}
            device={device}
            scope={scope}
            onScope={setScope}
            canEdit={canEdit}
          />

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
              clickGoals={clickGoals}
            />
          ) : (
            <p className="ve-hint ve-panel__empty">
              {canEdit
                ? "Click an element in the page to change it. Keys: Alt+arrows move the selection, Ctrl+Z undoes, Ctrl+Shift+Z redoes."
                : "Click an element in the page to see its path and this variation's change of it. Keys: Alt+arrows move the selection."}
            </p>
          )}

          <ChangesSection
            onThisPage={onThisPage}
            total={configs.length}
            ready={ready}
            onSelect={(path) => send({ type: "select-path", path })}
            onRemove={
              canEdit ? (id) => edit(null, (all) => all.filter((x) => x.config_id !== id)) : null
            }
          />

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
