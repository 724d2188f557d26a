// Pure rules of tracking (spec §5, §9): form capture, scroll growth, page-update durations,
// viewed products.
import { describe, expect, it } from "vitest";
import { EMAIL_PATTERN, captureFields } from "../src/track/forms.js";
import { addViewedProduct, pageDurationProperty, scrollDepth, scrollWorthSending } from "../src/track/measures.js";

const f = (name: string, value: string, type = "text", tag = "input", autocomplete = "") => ({ name, value, type, tag, autocomplete });

describe("captureFields (spec §5 auto form capture)", () => {
  it("keeps text-like fields, spaces in names to underscores, ignores hidden and empty ones", () => {
    expect(captureFields([f("first name", " Ada "), f("source", "x", "hidden"), f("note", "", "text"), f("msg", "hi", "", "textarea"), f("age", "7", "number")]))
      .toEqual({ properties: { first_name: "Ada", msg: "hi", age: "7" } });
  });

  it("never takes passwords, card data, checkboxes, buttons, files or selects", () => {
    const got = captureFields([
      f("password", "p", "password"), f("pin", "1", "text", "input", "cc-number"), f("card_no", "4111", "text"),
      f("agree", "on", "checkbox"), f("go", "Go", "submit"), f("file", "a.png", "file"), f("country", "UK", "select-one", "select"),
    ]);
    expect(got).toEqual({ properties: {} });
  });

  const emails: [string, string, string | undefined, string | undefined][] = [
    ["a valid email", "ada@example.com", undefined, "ada@example.com"],
    ["a subdomain address", "a.b+c@mail.example.co.uk", undefined, "a.b+c@mail.example.co.uk"],
    ["no @", "ada.example.com", undefined, undefined],
    ["no top-level domain", "ada@example", undefined, undefined],
    ["spaces", "ada @example.com", undefined, undefined],
    ["the stored one (case-insensitive)", "Ada@Example.com", "ada@example.com", undefined],
    ["a different one than stored", "bob@example.com", "ada@example.com", "bob@example.com"],
  ];
  for (const [name, value, stored, expected] of emails) {
    it(`email: ${name}`, () => expect(captureFields([f("Email", value, "email")], stored).email).toBe(expected));
  }

  it("a phone when non-empty, by type or by name", () => {
    expect(captureFields([f("contact", "0123", "tel")]).phone).toBe("0123");
    expect(captureFields([f("mobile number", "0777")]).phone).toBe("0777");
    expect(captureFields([f("phone", "  ", "tel")]).phone).toBeUndefined();
  });

  it("caps a very long value", () => {
    expect((captureFields([f("bio", "x".repeat(2000))]).properties.bio as string).length).toBe(500);
  });

  it("the email pattern", () => {
    expect(EMAIL_PATTERN.test("x@y.io")).toBe(true);
    expect(EMAIL_PATTERN.test("x@y.i")).toBe(false);
  });
});

describe("scroll depth (spec §5)", () => {
  it("measures the share of the page seen", () => {
    expect(scrollDepth(0, 800, 8000)).toBe(10);
    expect(scrollDepth(7200, 800, 8000)).toBe(100);
    expect(scrollDepth(9000, 800, 8000)).toBe(100);
    expect(scrollDepth(0, 800, 0)).toBe(100);
  });
  const growth: [number | null, number, boolean][] = [
    [null, 10, true], [null, 0, false], [10, 14, false], [10, 15, true], [10, 9, false], [95, 100, true], [96, 100, false],
  ];
  for (const [last, depth, send] of growth) {
    it(`last ${last}, now ${depth}: ${send ? "send" : "wait"}`, () => expect(scrollWorthSending(last, depth)).toBe(send));
  }
});

describe("page-update duration (spec §9)", () => {
  it("is added up to 30 minutes, not past", () => {
    expect(pageDurationProperty(20_000)).toEqual({ current_page_duration: 20_000 });
    expect(pageDurationProperty(1_800_000)).toEqual({ current_page_duration: 1_800_000 });
    expect(pageDurationProperty(1_800_001)).toEqual({});
    expect(pageDurationProperty(-5)).toEqual({});
  });
});

describe("viewed products (spec §3, §9)", () => {
  it("most recent first, 10 at most, repeat views counted and moved up, variants apart", () => {
    let list = addViewedProduct([], "a", undefined, 1);
    list = addViewedProduct(list, "b", "v1", 2);
    list = addViewedProduct(list, "b", "v2", 3);
    list = addViewedProduct(list, "a", undefined, 4);
    expect(list).toEqual([
      { product_id: "a", time_stamp: 4, viewed_count: 2 },
      { product_id: "b", variant_id: "v2", time_stamp: 3, viewed_count: 1 },
      { product_id: "b", variant_id: "v1", time_stamp: 2, viewed_count: 1 },
    ]);
    for (let i = 0; i < 20; i++) list = addViewedProduct(list, `p${i}`, undefined, 10 + i);
    expect(list).toHaveLength(10);
    expect(list[0]!.product_id).toBe("p19");
  });
});
