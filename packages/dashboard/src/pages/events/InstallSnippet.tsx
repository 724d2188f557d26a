import { useEffect, useRef, useState } from "react";
import { useSignedInSession } from "../../components/RequireSession";

const COPIED_NOTICE_MS = 2_000;

/** The one-line embed of product.md §2: the account's configuration, then the script. */
function installSnippet(origin: string, clientKey: string): string {
  return `<script src="${origin}/v1/accounts/${encodeURIComponent(clientKey)}/snippet.js"></script>`;
}

type CopyState = "idle" | "copied" | "failed";

export function InstallSnippet() {
  const { account } = useSignedInSession();
  // The dashboard is served by the service, so its origin is the API origin shops must load.
  const snippet = installSnippet(window.location.origin, account.client_key);
  const codeRef = useRef<HTMLElement>(null);
  const [copyState, setCopyState] = useState<CopyState>("idle");

  useEffect(() => {
    if (copyState === "idle") return;
    const timer = window.setTimeout(() => setCopyState("idle"), COPIED_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [copyState]);

  const copy = async () => {
    try {
      // navigator.clipboard exists only in secure contexts (https, or localhost).
      if (!navigator.clipboard) throw new Error("clipboard unavailable");
      await navigator.clipboard.writeText(snippet);
      setCopyState("copied");
    } catch {
      // Select the text instead, so Ctrl/Cmd+C finishes the job.
      const code = codeRef.current;
      const selection = window.getSelection();
      if (code && selection) {
        const range = document.createRange();
        range.selectNodeContents(code);
        selection.removeAllRanges();
        selection.addRange(range);
      }
      setCopyState("failed");
    }
  };

  return (
    <section className="panel" aria-labelledby="install-snippet-title">
      <div className="panel__header">
        <div>
          <h2 className="panel__title" id="install-snippet-title">
            Install snippet
          </h2>
          <p className="panel__description">
            Paste this into the <code>&lt;head&gt;</code> of every page of{" "}
            <strong>{account.name}</strong>.
          </p>
        </div>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => void copy()}
        >
          Copy snippet
        </button>
      </div>
      <pre className="code-block" tabIndex={0} aria-label="Install snippet">
        <code ref={codeRef} data-testid="install-snippet">
          {snippet}
        </code>
      </pre>
      <p className="copy-status" role="status">
        {copyState === "copied" ? "Copied to the clipboard." : null}
        {copyState === "failed"
          ? "Could not copy: the snippet is selected, press Ctrl+C (⌘C) to copy it."
          : null}
      </p>
    </section>
  );
}
