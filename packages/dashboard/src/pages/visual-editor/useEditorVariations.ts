// The variations the visual editor edits (docs/visual-editor.md "Variations", "Undo and redo"):
// the switcher's choices, which one is shown (`?variation=` follows it), each one's working copy
// of its configs with its own undo history (model.ts `editorReducer`), and which are unsaved.
import { useCallback, useMemo, useReducer, useState } from "react";
import { useSearchParams } from "react-router";
import type { ConfigDefinition, ExperienceDetail } from "@storefit/contract";
import type { EditorState, VariationContext } from "./model";
import { editorReducer, historyOf, isDirty } from "./model";

export type VariationOption = { id: string; label: string; context: VariationContext };

function variationOptions(experience: ExperienceDetail): VariationOption[] {
  const many = experience.rules.length > 1;
  return experience.rules.flatMap((rule) =>
    rule.behaviour.variations.map((v) => ({
      id: v.id,
      label: many ? `${rule.audience_name ?? rule.behaviour.name} · ${v.name}` : v.name,
      context: {
        experienceId: experience.id,
        behaviourId: rule.behaviour.id,
        deviceSpecific: !!rule.behaviour.config_modifications?.device_specific,
      },
    })),
  );
}

/**
 * Each variation's configs as the experience has them, in an object without a prototype: a
 * variation id may be `__proto__` or `toString` (stored before the service refused them), and on
 * `{}` writing the one sets the prototype and reading the other finds Object.prototype's function.
 */
export function loadedConfigs(experience: ExperienceDetail): Record<string, ConfigDefinition[]> {
  const variations = Object.create(null) as Record<string, ConfigDefinition[]>;
  for (const rule of experience.rules)
    for (const v of rule.behaviour.variations) variations[v.id] = v.configs;
  return variations;
}

function initialState(experience: ExperienceDetail): EditorState {
  return editorReducer(
    { histories: {}, saved: {} },
    { type: "load", variations: loadedConfigs(experience) },
  );
}

export function useEditorVariations(
  experience: ExperienceDetail,
  requestedVariationId: string | null,
  /** A viewer's edits, undos and redos do nothing. */
  canEdit: boolean,
) {
  const [, setSearchParams] = useSearchParams();
  const variations = useMemo(() => variationOptions(experience), [experience]);
  const [state, dispatch] = useReducer(editorReducer, experience, initialState);
  const [variationId, setVariationId] = useState(
    variations.some((v) => v.id === requestedVariationId)
      ? requestedVariationId!
      : (variations[0]?.id ?? ""),
  );

  const switchVariation = (id: string) => {
    setVariationId(id);
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set("variation", id);
        return next;
      },
      { replace: true },
    );
  };

  const history = historyOf(state, variationId);
  const configs = useMemo(() => history?.present ?? [], [history]);
  const edit = useCallback(
    (key: string | null, change: (c: ConfigDefinition[]) => ConfigDefinition[]) => {
      if (canEdit) dispatch({ type: "edit", variationId, key, change });
    },
    [variationId, canEdit],
  );
  const undo = useCallback(() => dispatch({ type: "undo", variationId }), [variationId]);
  const redo = useCallback(() => dispatch({ type: "redo", variationId }), [variationId]);

  return {
    variations,
    variationId,
    switchVariation,
    /** The shown variation's working copy. */
    configs,
    context: variations.find((v) => v.id === variationId)?.context,
    /** `key` names the field: edits with the same key in a row are one undo step. */
    edit,
    undo,
    redo,
    canUndo: !!history && history.past.length > 0,
    canRedo: !!history && history.future.length > 0,
    /** The shown variation differs from what was loaded or last saved. */
    dirty: isDirty(state, variationId),
    unsaved: (id: string) => isDirty(state, id),
    anyUnsaved: variations.some((v) => isDirty(state, v.id)),
    /** For the save: "saved" and "reload" (model.ts EditorAction). */
    dispatch,
  };
}

export type EditorVariations = ReturnType<typeof useEditorVariations>;
