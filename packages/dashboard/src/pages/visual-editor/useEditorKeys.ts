// The dashboard's keys in the visual editor (docs/visual-editor.md "Selection", "Undo and redo"):
// Ctrl+Z undoes, Ctrl+Shift+Z or Ctrl+Y redoes (⌘ too), Alt+arrows move the selection, Escape
// clears it. None of them act inside inputs, which keep their own undo and arrows; a viewer's
// undo keys do nothing.
import { useEffect } from "react";
import type { DashboardRequest, SelectionDirection } from "@storefit/contract";

/** Alt+these arrows move the selection: the key, its arrow, the direction, the button's label. */
export const SELECTION_KEYS: readonly (readonly [
  key: string,
  arrow: string,
  direction: SelectionDirection,
  label: string,
])[] = [
  ["ArrowUp", "↑", "parent", "Parent"],
  ["ArrowDown", "↓", "child", "First child"],
  ["ArrowLeft", "←", "previous", "Previous sibling"],
  ["ArrowRight", "→", "next", "Next sibling"],
];

const DIRECTIONS: Record<string, SelectionDirection> = Object.fromEntries(
  SELECTION_KEYS.map(([key, , direction]) => [key, direction]),
);

function inEditable(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || /^(?:INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
}

export function useEditorKeys({
  canEdit,
  hasSelection,
  undo,
  redo,
  send,
}: {
  canEdit: boolean;
  hasSelection: boolean;
  undo: () => void;
  redo: () => void;
  /** The bridge's requests (useBridge): the selection's moves and clearing. */
  send: (request: DashboardRequest) => void;
}): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (inEditable(e.target)) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && (key === "z" || key === "y") && !canEdit) return;
      const direction = DIRECTIONS[e.key];
      if (mod && key === "z") {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
      } else if (mod && key === "y") {
        e.preventDefault();
        redo();
      } else if (e.altKey && direction && hasSelection) {
        e.preventDefault();
        send({ type: "navigate-selection", direction });
      } else if (e.key === "Escape" && hasSelection) {
        send({ type: "clear-selection" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [undo, redo, send, hasSelection, canEdit]);
}
