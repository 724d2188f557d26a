// "Preview and QA": the shop page to preview on and one preview link per saved variation. It sits
// outside the editor's fieldset, which is disabled for viewers: previewing changes nothing, and
// checking a draft or paused variation is what viewers and QA come here for. Each link carries
// the operator's preview token (api/preview.ts), without which the shop shows no draft.
import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { usePreviewToken } from "../../api/preview";
import { FormError, StateInput } from "../../components/form";
import type { ExperienceForm } from "./model";
import { previewUrl } from "./preview";

function PreviewLink({ url, label }: { url: string; label: string }) {
  const id = useId();
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <li className="ed-preview" data-testid="variation-preview">
      <label className="field__label ed-preview__label" htmlFor={id}>
        Preview link of {label}
      </label>
      <input
        id={id}
        className="field__input mono ed-preview__url"
        readOnly
        value={url}
        onFocus={(e) => e.target.select()}
      />
      <a
        className="button button--secondary button--small"
        href={url}
        target="_blank"
        rel="noreferrer"
        aria-label={`Open a preview of ${label}`}
      >
        Open preview
      </a>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => void copy()}
        aria-label={`Copy the preview link of ${label}`}
      >
        Copy link
      </button>
      <span className="ed-hint" role="status">
        {copied === "copied"
          ? "Copied."
          : copied === "failed"
            ? "Copy failed: select the link and copy it."
            : ""}
      </span>
    </li>
  );
}

export function PreviewPanel({
  experienceId,
  pageUrl,
  onChange,
}: {
  /** The saved experience, or null for a new one (no links yet). */
  experienceId: string | null;
  pageUrl: string;
  onChange: (url: string) => void;
}) {
  const rules = useWatch<ExperienceForm, "rules">({ name: "rules" });
  const token = usePreviewToken(!!experienceId);
  const variations = rules.flatMap((rule, r) =>
    rule.behaviour.variations.map((v, i) => {
      const name = v.name || `Variation ${i + 1}`;
      return { id: v.id, label: rules.length > 1 ? `Rule ${r + 1}: ${name}` : name };
    }),
  );
  const links =
    experienceId && token.data
      ? variations.flatMap((v) => {
          const url = v.id ? previewUrl(pageUrl, experienceId, v.id, token.data.token) : null;
          return url ? [{ ...v, url }] : [];
        })
      : [];
  const until = token.data
    ? new Date(token.data.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : "";
  return (
    <section className="panel ed-panel" aria-labelledby="preview-title">
      <h2 className="panel__title" id="preview-title">
        Preview and QA
      </h2>
      <p className="panel__description">
        Each variation has a preview link: it opens this shop page with that variation forced, as a
        fresh visitor, without tracking — whatever the status (draft and paused too), audience or
        traffic. Previews show the saved version. A link works for an hour; this page renews them.
      </p>
      <StateInput
        label="Shop page to preview on"
        type="url"
        mono
        value={pageUrl}
        onChange={onChange}
      />
      {!experienceId ? (
        <p className="ed-hint">Save the experience to get preview links.</p>
      ) : previewUrl(pageUrl, experienceId, "x") === null ? (
        <p className="ed-hint">Enter the full address of a shop page to get preview links.</p>
      ) : token.isError ? (
        <FormError>Could not make preview links: {token.error.message}</FormError>
      ) : !token.data ? (
        <p className="ed-hint" role="status">
          Making preview links…
        </p>
      ) : (
        <>
          <ul className="ed-previews">
            {links.map((l) => (
              <PreviewLink key={l.id} url={l.url} label={l.label} />
            ))}
          </ul>
          <p className="ed-hint" data-testid="preview-expiry">
            These links work until {until}.
          </p>
          {links.length < variations.length ? (
            <p className="ed-hint">Save the experience to get links for its new variations.</p>
          ) : null}
        </>
      )}
    </section>
  );
}
