// Page targeting (spec §2 "Page matching"): page paths with their match kind and domain, and a
// "test a URL" checker that runs the storefront script's own matcher (@storefit/contract).
import { useId, useState } from "react";
import type { PageTarget } from "@storefit/contract";
import { PAGE_MATCH_OPTIONS } from "./model";
import type { PageForm } from "./model";
import {
  FieldError,
  Select,
  StateInput,
  TextInput,
  useFieldList,
  useFieldValue,
} from "../../components/form";
import { matchTargets } from "./preview";

function UrlTester({ mainDomain }: { mainDomain: string | undefined }) {
  const resultId = useId();
  const [url, setUrl] = useState("");
  const pages = useFieldValue<PageTarget[]>("pages") ?? [];
  const result = url.trim() ? matchTargets(pages, url, mainDomain) : null;
  const any = result?.ok ? result.matches.some(Boolean) : false;
  return (
    <div className="ed-tester">
      <StateInput
        label="Test a URL"
        describedBy={resultId}
        type="url"
        mono
        value={url}
        placeholder={`https://${mainDomain ?? "shop.example"}/products/…`}
        onChange={setUrl}
      />
      <div id={resultId} role="status" data-testid="url-test-result">
        {result === null ? (
          <span className="ed-hint">
            Paste a shop address to see whether this experience runs there.
          </span>
        ) : !result.ok ? (
          <FieldError>{result.message}</FieldError>
        ) : pages.length === 0 ? (
          <span className="ed-hint">Add a page target first.</span>
        ) : (
          <>
            <strong className={any ? "ed-match" : "ed-nomatch"}>
              {any ? "Runs on this page" : "Does not run on this page"}
            </strong>
            <ul className="ed-tester__list">
              {pages.map((p, i) => (
                <li key={i}>
                  {result.matches[i] ? "✓ matches" : "✗ no match"}:{" "}
                  {p.domain || mainDomain || "any domain"}{" "}
                  {PAGE_MATCH_OPTIONS.find((o) => o.value === p.page_match)?.label.toLowerCase()}{" "}
                  <code>{p.page_path}</code>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

export function TargetingSection({
  mainDomain,
  domains,
}: {
  mainDomain: string | undefined;
  domains: readonly string[];
}) {
  const pages = useFieldList<PageForm>("pages");
  const listId = useId();
  return (
    <section className="panel ed-panel" aria-labelledby="targeting-title">
      <h2 className="panel__title" id="targeting-title">
        Page targeting
      </h2>
      <p className="panel__description">
        The experience runs on any page that matches one of these. Exact ignores the query string
        unless you add parameters that must be present; contains and regex also see the query.
      </p>
      <datalist id={listId}>
        {domains.map((d) => (
          <option key={d} value={d} />
        ))}
      </datalist>
      {pages.fields.length === 0 ? (
        <p className="muted">No pages yet: an experience needs one to start.</p>
      ) : null}
      {pages.fields.map((field, i) => (
        <div className="ed-item" key={field.id} data-testid="page-target">
          <div className="ed-row">
            <Select name={`pages.${i}.page_match`} label="Match" options={PAGE_MATCH_OPTIONS} />
            <TextInput
              name={`pages.${i}.page_path`}
              label="Page path or pattern"
              mono
              placeholder="/products/gentle-baby-wash"
              className="ed-grow"
            />
            <TextInput
              name={`pages.${i}.domain`}
              label="Domain"
              mono
              list={listId}
              hint={mainDomain ? `Empty: ${mainDomain}` : undefined}
            />
            <button
              type="button"
              className="button button--secondary button--small ed-row__end"
              onClick={() => pages.remove(i)}
              aria-label={`Remove page ${i + 1}`}
            >
              Remove page
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() =>
          pages.append({ domain: mainDomain ?? "", page_path: "", page_match: "exact_match" })
        }
      >
        Add page
      </button>
      <UrlTester mainDomain={mainDomain} />
    </section>
  );
}
