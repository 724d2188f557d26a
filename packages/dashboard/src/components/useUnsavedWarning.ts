import { useEffect } from "react";

/**
 * Asks before the tab is closed or reloaded while a form holds unsaved changes. (In-app
 * navigation is not guarded: react-router's useBlocker needs a data router, and App.tsx uses
 * <Routes>.)
 */
export function useUnsavedWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);
}
