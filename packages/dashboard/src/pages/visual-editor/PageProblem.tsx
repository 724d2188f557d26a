// What the visual editor says when the page in its frame does not answer (docs/visual-editor.md
// "When the page does not answer"): the address tried and the likely cause, from what the
// service saw when it fetched the page (api/page-check.ts) and whether the frame loaded at all.
import { useEffect } from "react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { isApiRequestError } from "../../api/client";
import { usePageCheck } from "../../api/page-check";
import type { PageCheck } from "../../api/page-check";
import { paths } from "../../paths";

function cause(check: PageCheck, dashboard: string): { title: string; advice: ReactNode } {
  if (!check.reachable)
    return {
      title: `The address does not load: ${check.error ?? "no answer"}.`,
      advice: "Check the address (its port too), and that the shop is running.",
    };
  if (check.status !== null && check.status >= 400)
    return { title: `The shop answers this address with an error (${check.status}).`, advice: "Check the address." };
  if (check.frame_refused_by)
    return {
      title: "The shop does not let other sites show this page in a frame.",
      advice: (
        <>
          It sends <span className="mono">{check.frame_refused_by}</span>. Let this dashboard ({dashboard})
          frame the pages you edit: name it in frame-ancestors of the shop's Content-Security-Policy,
          and send no X-Frame-Options there.
        </>
      ),
    };
  if (check.snippet === "missing")
    return {
      title: "The page loads, but the Storefit snippet is not on it.",
      advice: (
        <>
          Put the snippet first in the page's head (see <Link to={paths.install}>Install</Link>), then open the page again.
        </>
      ),
    };
  if (check.snippet === "other_account")
    return {
      title: "The page loads with the snippet of another Storefit account.",
      advice: (
        <>
          Use this account's snippet (see <Link to={paths.install}>Install</Link>).
        </>
      ),
    };
  return {
    title: "The page loads with this account's snippet, but the editor did not start in it.",
    advice: `Check that the snippet's address is this dashboard's (${dashboard}), and that the page does not leave for another site.`,
  };
}

export function PageProblem({ url, frameLoaded }: { url: string; frameLoaded: boolean }) {
  const check = usePageCheck();
  const { mutate } = check;
  useEffect(() => mutate(url), [url, mutate]);
  const dashboard = window.location.origin;
  const found = check.data ? cause(check.data, dashboard) : null;
  return (
    <div className="form__error" role="alert" data-testid="page-problem">
      <p>
        <strong>The page did not answer:</strong> <span className="mono">{url}</span>
      </p>
      {found ? (
        <>
          <p>{found.title}</p>
          <p>{found.advice}</p>
        </>
      ) : check.isError ? (
        <p>
          {frameLoaded
            ? "The frame loaded something, but the editor did not start: the address may not load, the snippet may be missing, or the shop may refuse frames."
            : "Nothing loaded in the frame: check the address and that the shop is running."}{" "}
          (The service could not check the page: {isApiRequestError(check.error) ? check.error.message : String(check.error)}.)
        </p>
      ) : (
        <p role="status">Checking the address…</p>
      )}
    </div>
  );
}
