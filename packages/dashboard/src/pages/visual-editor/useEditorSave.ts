// Saving the shown variation and reloading it after a conflict (docs/visual-editor.md "Save",
// "Conflicts"). The save sends the configs as they were last loaded or saved, so the service can
// refuse it when someone changed the variation meanwhile; reloading replaces the variation's edits
// and history with what is stored.
import { useRef } from "react";
import type { Dispatch } from "react";
import type { ConfigDefinition, ExperienceDetail } from "@storefit/contract";
import {
  useReloadExperience,
  useSaveVariationConfigs,
  variationConfigs,
} from "../../api/visual-editor";
import type { EditorAction } from "./model";
import { loadedConfigs } from "./useEditorVariations";

export function useEditorSave({
  experience,
  variationId,
  configs,
  dispatch,
}: {
  experience: ExperienceDetail;
  /** The variation shown, and its working copy: what Save saves. */
  variationId: string;
  configs: ConfigDefinition[];
  dispatch: Dispatch<EditorAction>;
}) {
  const save = useSaveVariationConfigs();
  const reload = useReloadExperience();
  /** Each variation's configs as stored when last loaded or saved: a save checks them first. */
  const stored = useRef(loadedConfigs(experience));

  const onSave = () => {
    const saving = configs;
    const savingId = variationId;
    save.mutate(
      {
        experienceId: experience.id,
        variationId: savingId,
        configs: saving,
        loaded: stored.current[savingId] ?? [],
      },
      {
        onSuccess: (saved) => {
          stored.current[savingId] = variationConfigs(saved.experience, savingId) ?? saving;
          dispatch({ type: "saved", variationId: savingId, configs: saving });
        },
      },
    );
  };

  const onReload = () => {
    const reloadId = variationId;
    reload.mutate(experience.id, {
      onSuccess: (latest) => {
        const configs = variationConfigs(latest.experience, reloadId) ?? [];
        stored.current[reloadId] = configs;
        dispatch({ type: "reload", variationId: reloadId, configs });
        save.reset();
      },
    });
  };

  // What the bar and the error say concern the variation shown, not one saved before a switch.
  const current = save.variables?.variationId === variationId;
  return {
    save: onSave,
    reload: onReload,
    saving: save.isPending,
    reloading: reload.isPending,
    /** The shown variation was just saved. */
    saved: save.isSuccess && current,
    /** The service refused the shown variation's last save. */
    error: save.isError && current ? save.error : null,
  };
}

export type EditorSave = ReturnType<typeof useEditorSave>;
