// Live events: the names people read instead of `domain|name` and type codes (labels.ts), and
// the counts with separators (format.ts).
import { describe, expect, it } from "vitest";
import type { StoredEventView } from "@storefit/contract";
import { formatAmount, formatCount } from "../src/format";
import { eventLabel, eventTypeLabel, humanizeName, isoOf } from "../src/pages/events/labels";

const ev = (event_type: string, name: string, properties: StoredEventView["properties"] = {}) => ({ event_type, name, properties });

describe("live event labels", () => {
  it("names each type for people, with the event's own name where it says something", () => {
    expect(eventLabel(ev("PAGE", "page_view", { page_path: "/" }))).toBe("Page view");
    expect(eventLabel(ev("CLICK", "Add_To_Cart"))).toBe("Click: Add to cart");
    expect(eventLabel(ev("TRACK", "add_to_cart"))).toBe("Add to cart");
    expect(eventLabel(ev("TRACK", "checkoutStarted"))).toBe("Checkout started");
    expect(eventLabel(ev("FORM", "form_submit"))).toBe("Form submit");
    expect(eventLabel(ev("FORM", "newsletter-signup"))).toBe("Form submit: Newsletter signup");
    expect(eventLabel(ev("REVENUE", "revenue", { revenue_amount: 24 }))).toBe("Revenue: 24.00");
    expect(eventLabel(ev("REVENUE", "revenue", { revenue_amount: 1234.5, currency: "gbp" }))).toBe("Revenue: 1,234.50 GBP");
    expect(eventLabel(ev("REVENUE", "order", { revenue_amount: "lots" }))).toBe("Revenue: Order");
    expect(eventLabel(ev("SCROLL", "scroll", { scroll_depth: 75 }))).toBe("Scroll: 75 %");
    expect(eventLabel(ev("TEMPLATE_BUTTON_CLICK", "template_button_click_t1", { button_text: "Get 10 % off" }))).toBe("Popup button: Get 10 % off");
    expect(eventLabel(ev("TEMPLATE_VIEW", "template_view_t1"))).toBe("Popup shown");
    expect(eventLabel(ev("SOMETHING_NEW", ""))).toBe("SOMETHING_NEW");
  });

  it("keeps names written for people, and acronyms", () => {
    expect(humanizeName("Add to Cart")).toBe("Add to Cart");
    expect(humanizeName("open_FAQ")).toBe("Open FAQ");
    expect(eventTypeLabel("PAGE")).toBe("Page view");
    expect(eventTypeLabel("CUSTOM")).toBe("CUSTOM");
  });

  it("formats counts with thousand separators, and a clock out of range without throwing", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatAmount(24)).toBe("24.00");
    expect(isoOf(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(isoOf(1e20)).toBe("100000000000000000000");
  });
});
