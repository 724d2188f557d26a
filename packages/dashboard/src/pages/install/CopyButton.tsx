import { useEffect, useState } from "react";

const NOTICE_MS = 2_000;

/** Copies a short value; says so (or that copying failed) in a live region beside it. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      // navigator.clipboard exists only in secure contexts (https, or localhost).
      if (!navigator.clipboard) throw new Error("clipboard unavailable");
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <button type="button" className="button button--secondary button--small" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="copy-inline-status">
        {state === "copied" ? "Copied." : state === "failed" ? "Could not copy: select it and press Ctrl+C (⌘C)." : null}
      </span>
    </>
  );
}
