// cf_preview_token (docs/dashboard.md "Preview links"): read with the preview flag and taken out
// of the address bar, so a copied address or a Referer does not carry the operator's token on.
import { describe, expect, it } from "vitest";
import { parseUrlParams, withoutParams } from "../src/core/params.js";

describe("cf_preview_token", () => {
  it("is read and listed for removal from the address; absent or empty, it is nothing", () => {
    const p = parseUrlParams("?customfit_preview=1&customfit_desired_experiences=e1:v1&cf_preview_token=mabc.XYZ-_1");
    expect(p.preview).toBe(true);
    expect(p.previewToken).toBe("mabc.XYZ-_1");
    expect(withoutParams("?customfit_preview=1&cf_preview_token=mabc.XYZ&x=1", p.strip)).toBe("?customfit_preview=1&x=1");
    expect(parseUrlParams("?customfit_preview=1").previewToken).toBeUndefined();
    expect(parseUrlParams("?customfit_preview=1&cf_preview_token=").previewToken).toBeUndefined();
    expect(parseUrlParams("?customfit_preview=1&cf_preview_token=").strip).toEqual([]);
  });
});
