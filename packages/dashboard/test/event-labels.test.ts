// Live events: the names people read instead of `domain|name` and type codes (labels.ts), and
// the counts with separators (format.ts).
import { describe, expect, it } from "vitest";
import type { StoredEventView } from "@storefit/contract";
import { formatAmount, formatCount } from "../src/format";
import { eventLabel, eventTypeLabel, humanizeName, isoOf, popupName } from "../src/pages/events/labels";

const ev = (
  event_type: string,
  name: string,
  properties: StoredEventView["properties"] = {},
  template_experience: StoredEventView["template_experience"] = null,
) => ({ event_type, name, properties, template_experience });

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

  it("names the popup by the experience and variation that show it, when the service found them", () => {
    const welcome = { experience_id: "exp_w", experience_name: "Welcome popup", variation_id: "var_b", variation_name: "Variation B" };
    const view = { config_id: "cfg_w", template_id: "tpl_ve_popup_x1y2" };
    expect(eventLabel(ev("TEMPLATE_VIEW", "template_view_tpl_ve_popup_x1y2", view, welcome))).toBe("Popup shown: Welcome popup (Variation B)");
    expect(eventLabel(ev("TEMPLATE_BUTTON_CLICK", "template_button_click_t1", { ...view, button_text: "Shop now" }, welcome))).toBe(
      "Popup button: Shop now — Welcome popup (Variation B)",
    );
    expect(eventLabel(ev("TEMPLATE_BUTTON_CLICK", "template_button_click_t1", view, welcome))).toBe("Popup button click: Welcome popup (Variation B)");
    // Several variations hold the config: the experience alone.
    const ambiguous = { ...welcome, variation_id: null, variation_name: null };
    expect(eventLabel(ev("TEMPLATE_VIEW", "template_view_t1", view, ambiguous))).toBe("Popup shown: Welcome popup");
    // No experience holds it (deleted since): as before.
    expect(eventLabel(ev("TEMPLATE_VIEW", "template_view_t1", view, null))).toBe("Popup shown");
    expect(eventLabel(ev("TEMPLATE_BUTTON_CLICK", "template_button_click_t1", { button_text: "Shop now" }, null))).toBe("Popup button: Shop now");
    expect(popupName({ ...welcome, experience_name: "  " })).toBeNull();
    expect(popupName({ ...welcome, variation_name: " " })).toBe("Welcome popup");
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
