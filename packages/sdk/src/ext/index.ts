// Entry point of storefit-ext.js, loaded by storefit.js after the page is shown (core/ext.ts).
// Each initialization calls the extension with its context; everything started here registers
// in that context's scope, so single-page teardown stops it.

import { CLIENT_PATHS, PAGE_UPDATE_INTERVAL_MS, matchDomain, matchPathCheck } from "@storefit/contract";
import type { DevicesRequest } from "@storefit/contract";
import type { ExtContext } from "../core/ext.js";
import { STORAGE_KEYS } from "../core/storage-keys.js";
import { doc, now, safe, win } from "../env/globals.js";
import { captureFields, fieldsOf } from "../track/forms.js";
import { pageDurationProperty, scrollDepth, scrollWorthSending } from "../track/measures.js";
import { templates } from "./templates.js";
import { forward } from "../forward/index.js";

function forms(ctx: ExtContext): void {
  ctx.scope.listen(
    doc,
    "submit",
    (e) =>
      safe(() => {
        const form = e.target as HTMLFormElement;
        if (!form || form.tagName !== "FORM") return;
        const user = ctx.visitor.user;
        const got = captureFields(fieldsOf(form), user.hs_fields?.email);
        for (const [k, v] of Object.entries(got.properties)) ctx.visitor.setProperty("user", k, v);
        if (got.email) ctx.visitor.setProperty("crm", "email", got.email);
        if (got.phone) ctx.visitor.setProperty("crm", "phone", got.phone);
        user.form_update_detected = true;
        ctx.tracker.track(
          "FORM",
          form.getAttribute("name") || form.id || "form_submit",
          {
            form_type: form.getAttribute("name") || form.id || "form",
            form_action: form.getAttribute("action") || "",
            ...got.properties,
            ...(got.email ? { email: got.email } : {}),
            ...(got.phone ? { phone: got.phone } : {}),
          },
          { configs: ctx.configs.map((c) => c.config_id) },
        );
        // The submit usually leaves the page: send now, as a beacon.
        ctx.tracker.flush(true);
      }),
    { capture: true },
  );
}

function scroll(ctx: ExtContext): void {
  let last: number | null = null;
  let pending = false;
  const measure = () => {
    pending = false;
    const depth = scrollDepth(win.scrollY, win.innerHeight, doc.documentElement.scrollHeight);
    if (scrollWorthSending(last, depth)) {
      last = depth;
      ctx.tracker.track("SCROLL", "scroll", { scroll_depth: depth });
    }
  };
  // At most one measurement per 250 ms while the visitor scrolls.
  ctx.scope.listen(win, "scroll", () => {
    if (!pending) {
      pending = true;
      ctx.scope.timeout(measure, 250);
    }
  }, { passive: true });
}

function pageUpdates(ctx: ExtContext): void {
  if (!ctx.settings.page_update) return;
  const started = now();
  ctx.scope.interval(
    () =>
      ctx.tracker.track("PAGE_UPDATE", "page_update", pageDurationProperty(now() - started), {
        configs: ctx.configs.map((c) => c.config_id),
      }),
    PAGE_UPDATE_INTERVAL_MS,
  );
}

/** spec §3 "Revenue page rule": a REVENUE event when this page matches a rule. */
function revenueRules(ctx: ExtContext): void {
  const path = win.location.pathname;
  for (const r of ctx.settings.revenue_pages ?? []) {
    if ((!r.domain || matchDomain(ctx.domain, r.domain)) && matchPathCheck(r.path_check_type, r.pattern_value, path)) {
      ctx.tracker.track("REVENUE", r.revenue_event_customer_id, { revenue_amount: Number(r.revenue_amount) || 0 });
    }
  }
}

/** spec §7: the devices call, once per device; its id is kept in local storage on success. */
function registerDevice(ctx: ExtContext): void {
  const user = ctx.visitor.user;
  const key = ctx.prefix + STORAGE_KEYS.deviceRegistered;
  if (!user.user_id || !user.device_id || ctx.storageGet("localStorage", key) === user.device_id) return;
  const body: DevicesRequest = {
    add_devices: [{ device_customer_id: user.device_id, device_type: "WEB", user_id: user.user_id }],
    anonymous: user.anonymous,
  };
  void ctx.post(ctx.ep, CLIENT_PATHS.devices(user.user_id), body).then((r) => {
    if (r.ok) ctx.storageSet("localStorage", key, user.device_id!);
  });
}

win.storefitExt = (ctx) =>
  safe(() => {
    // Templates show in preview too (the operator checks them); their events are not sent.
    templates(ctx);
    if (!ctx.tracking) return;
    // Third-party tools see nothing before consent, when the account requires it.
    ctx.whenConsented(() => forward(ctx));
    forms(ctx);
    scroll(ctx);
    pageUpdates(ctx);
    revenueRules(ctx);
    registerDevice(ctx);
  });
