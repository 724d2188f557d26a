// The shop page being edited: the "Page address" field with the experience's pages suggested, why
// an address was refused, the notices about the page (not targeted, did not answer, changes that
// found no element), and the editor frame at the width previewed.
import { useId, useState } from "react";
import type { FormEvent } from "react";
import type { EditorDevice } from "@storefit/contract";
import { PageProblem } from "./PageProblem";
import type { EditorFrame } from "./useEditorFrame";

/** The frame's width for the mobile preview (CSS pixels), a common phone. */
export const MOBILE_WIDTH_PX = 390;

export function PageStage({
  frame,
  suggestions,
  initialPage,
  domain,
  device,
  offTarget,
}: {
  frame: EditorFrame;
  /** The pages the address field suggests, the first one filled in unless `initialPage` is. */
  suggestions: string[];
  initialPage: string | null;
  /** The account's main domain, named while no page is open. */
  domain: string;
  device: EditorDevice;
  /** The page in the frame is none of the experience's target pages. */
  offTarget: boolean;
}) {
  const [address, setAddress] = useState(initialPage ?? suggestions[0] ?? "");
  const ids = { address: useId(), pages: useId() };
  const { opened, addressError, timedOut, frameLoaded, ready, preview } = frame;
  const onOpen = (e: FormEvent) => {
    e.preventDefault();
    frame.open(address.trim());
  };

  return (
    <section className="ve-stage" aria-label="Shop page">
      <form className="ve-address" onSubmit={onOpen}>
        <label className="ve-field__label" htmlFor={ids.address}>
          Page address
        </label>
        <input
          id={ids.address}
          className="field__input ve-input mono"
          list={ids.pages}
          value={address}
          placeholder="https://your-shop.example/products/…"
          onChange={(e) => setAddress(e.target.value)}
          aria-invalid={addressError ? true : undefined}
          aria-describedby={addressError ? `${ids.address}-error` : undefined}
        />
        <datalist id={ids.pages}>
          {suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <button type="submit" className="button button--secondary">
          Open
        </button>
      </form>
      {addressError ? (
        <p className="form__error" role="alert" id={`${ids.address}-error`}>
          {addressError}
        </p>
      ) : null}
      {offTarget ? (
        <p className="notice notice--warning">
          This page is not one of the experience's target pages: the shop will not show changes made
          here until the experience targets it.
        </p>
      ) : null}
      {timedOut && opened ? (
        <PageProblem key={opened.n} url={opened.page} frameLoaded={frameLoaded} />
      ) : null}
      {preview && preview.missing.length > 0 ? (
        <p className="notice notice--warning" role="status">
          {preview.missing.length} change{preview.missing.length === 1 ? "" : "s"} found no element
          on this page.
        </p>
      ) : null}
      <div className="ve-frame-wrap">
        {opened ? (
          <>
            {!ready && !timedOut ? (
              <div className="ve-frame-loading" role="status">
                <span className="spinner" aria-hidden="true" /> Loading the page…
              </div>
            ) : null}
            <iframe
              ref={frame.frameRef}
              key={opened.n}
              name="storefit-editor"
              title="Shop page being edited"
              className={`ve-frame ve-frame--${device}`}
              style={device === "mobile" ? { width: MOBILE_WIDTH_PX } : undefined}
              src={opened.url}
              onLoad={frame.onLoad}
            />
          </>
        ) : (
          <div className="ve-frame-empty">
            <p>
              Choose a page of the shop to edit: one the experience targets, or any address on{" "}
              {domain}.
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
