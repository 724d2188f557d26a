// The demo account (product.md §4, spec §1–§2): "Little Sprouts" on two domains, with the
// deployed configuration's flags and one page configuration per product, an owner operator, and
// running experiences so a new user sees personalization within a minute — one of each kind of
// change: an A/B test of the price text, a personalized tax line on the second domain, a welcome
// popup (template) for first-time visitors, and a gallery image per device.

import type { Config, GoalDefinition, PageConfiguration, Template } from "@storefit/contract";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { hashPassword } from "../auth/password.js";
import type { AccountSettings, ConfigDefinition, NewAudience, NewExperience, Store } from "../store/types.js";
import { DEMO_DOMAIN, DEMO_PAGES, DEMO_SUBDOMAINS, demoSiteOrigins, isDemoSiteOrigin } from "./demo-pages.js";

export const DEMO_CLIENT_KEY = "ck_demo_littlesprouts";
export const DEMO_ACCOUNT_ID = "acc_littlesprouts";
export const DEFAULT_ADMIN_EMAIL = "owner@littlesprouts.test";
export const DEFAULT_ADMIN_PASSWORD = "sprouts-demo-2026";

/** spec §1 "Account flags in the generated configuration", §2 "Configured pages". */
export const DEMO_SETTINGS: AccountSettings = {
  ...SETTINGS_DEFAULTS,
  domain: DEMO_DOMAIN,
  subdomains: [...DEMO_SUBDOMAINS],
  intelligent_code: true,
  page_update: false,
  personalized_users_limit_exceeded: false,
  shop_platform_integration: true,
  integrations: { google_analytics: true },
  personalize_after_timeout: true,
  error_reporting: false,
  spa_mode: false,
  auto_url_change_detection: false,
  sdk_timeout_ms: 5000,
  pages: DEMO_PAGES.map(
    ({ domain, page_path, element_path, element_hint, page_match, config_id }): PageConfiguration => ({
      domain,
      page_path,
      element_path,
      element_hint,
      page_match,
      config_id,
    }),
  ),
  goal_pages: [],
  rule_pages: [],
  revenue_pages: [],
  event_merge: [],
  page_blacklist: [],
  referrer_blacklist: [],
};

const handleOf = (path: string) => path.split("/").pop() ?? path;

/** Media-hint products of the demo shop with three gallery images. */
const GALLERY_HANDLES = [
  "kids-mineral-sunscreen-spf50",
  "oatmeal-eczema-cream",
  "newborn-essentials-gift-set",
  "kids-sun-cream-spf50",
];

function pageConfig(
  id: string,
  page: (typeof DEMO_PAGES)[number],
  elementPath: string,
  variation: Config["variation"],
): ConfigDefinition {
  return {
    config_customer_id: `${id}_${handleOf(page.page_path)}`,
    config_id: `cfg_${id}_${handleOf(page.page_path)}`,
    variation_data_type: "HTML_ELEMENT",
    variation,
    properties: {
      page_path: page.page_path,
      page_match: "exact_match",
      element_path: elementPath,
      domain: page.domain,
    },
  };
}

export function demoExperiences(now = new Date()): NewExperience[] {
  const usPages = DEMO_PAGES.filter((p) => p.domain === DEMO_DOMAIN);
  const ukPages = DEMO_PAGES.filter((p) => p.domain !== DEMO_DOMAIN);
  // The gallery pages (element hint "media", spec §2) whose product has three images in the demo
  // shop (apps/demo-shop catalog: /images/{handle}-{1..3}.svg).
  const galleryPages = DEMO_PAGES.filter((p) => GALLERY_HANDLES.includes(handleOf(p.page_path)));
  void now;
  // Every experience counts orders; the A/B test also watches its add-to-cart step and checkout.
  const revenue: GoalDefinition = { id: "goal_revenue", name: "Revenue", kind: "revenue", revenue_cap: 500 };
  return [
    {
      id: "exp_price_message",
      account_id: DEMO_ACCOUNT_ID,
      name: "Price message: free shipping",
      status: "running",
      kind: "ab_test",
      priority: 10,
      pages: [{ domain: DEMO_DOMAIN, page_path: "/products/", page_match: "contains" }],
      goals: [
        { id: "goal_add_to_cart", name: "Add to cart", kind: "track", event_name: "add_to_cart" },
        { id: "goal_checkout", name: "Reached checkout", kind: "page_view", page: { page_path: "/checkout", page_match: "exact_match" } },
        revenue,
      ],
      rules: [
        {
          id: "rule_price_everyone",
          audience_id: null,
          audience_name: "Everyone",
          behaviour: {
            id: "beh_price_message",
            name: "Free shipping message",
            traffic_allocation: 1,
            variations: [
              {
                id: "var_price_control",
                name: "Control",
                weight: 50,
                // The control changes nothing but is still a config, so its exposure is counted.
                configs: usPages.map((p) =>
                  pageConfig("price_message", p, "#product-price", { customfit_meta: { is_default: true } }),
                ),
              },
              {
                id: "var_price_free_shipping",
                name: "Free shipping",
                weight: 50,
                configs: usPages.map((p) =>
                  pageConfig("price_message", p, "#product-price", {
                    innerHTML: `${p.price_text} · <strong class="sf-free-shipping">Free shipping today</strong>`,
                  }),
                ),
              },
            ],
          },
        },
      ],
    },
    {
      id: "exp_uk_tax_line",
      account_id: DEMO_ACCOUNT_ID,
      name: "UK tax line: VAT and delivery",
      status: "running",
      kind: "personalization",
      priority: 5,
      pages: DEMO_SUBDOMAINS.map((domain) => ({ domain, page_path: "/products/", page_match: "contains" as const })),
      goals: [revenue],
      rules: [
        {
          id: "rule_uk_everyone",
          audience_id: null,
          audience_name: "UK visitors",
          behaviour: {
            id: "beh_uk_tax",
            name: "VAT and free delivery",
            traffic_allocation: 1,
            variations: [
              {
                id: "var_uk_tax_line",
                name: "VAT included, free delivery",
                weight: 1,
                configs: ukPages.map((p) =>
                  pageConfig("uk_tax_line", p, "#product-tax", {
                    innerHTML: "VAT included · Free UK delivery on orders over £30",
                  }),
                ),
              },
            ],
          },
        },
      ],
    },
    {
      id: "exp_welcome_popup",
      account_id: DEMO_ACCOUNT_ID,
      name: "Welcome popup for first-time visitors",
      status: "running",
      kind: "personalization",
      priority: 1,
      pages: [DEMO_DOMAIN, ...DEMO_SUBDOMAINS].map((domain) => ({ domain, page_path: "/", page_match: "exact_match" as const })),
      goals: [revenue],
      rules: [
        {
          id: "rule_welcome_first_visit",
          audience_id: FIRST_TIME_AUDIENCE_ID,
          behaviour: {
            id: "beh_welcome_popup",
            name: "Welcome popup with a first-order code",
            traffic_allocation: 1,
            variations: [
              {
                id: "var_welcome_popup",
                name: "Welcome popup",
                weight: 1,
                configs: [DEMO_DOMAIN, ...DEMO_SUBDOMAINS].map((domain) => welcomePopupConfig(domain)),
              },
            ],
          },
        },
      ],
    },
    {
      id: "exp_gallery_device",
      account_id: DEMO_ACCOUNT_ID,
      name: "Gallery image by device",
      status: "running",
      kind: "personalization",
      priority: 1,
      pages: galleryPages.map((p) => ({ domain: p.domain, page_path: p.page_path, page_match: "exact_match" as const })),
      goals: [revenue],
      rules: [
        {
          id: "rule_gallery_everyone",
          audience_id: null,
          audience_name: "Everyone",
          behaviour: {
            id: "beh_gallery_device",
            name: "Texture close-up on phones, product in use on desktops",
            traffic_allocation: 1,
            // spec §3 config_modifications.device_specific: the script applies `mobile` or
            // `desktop` of the variation (Appendix A), by the visitor's device type.
            config_modifications: { device_specific: true },
            variations: [
              {
                id: "var_gallery_device",
                name: "Image per device",
                weight: 1,
                configs: galleryPages.map((p) =>
                  pageConfig("gallery_device", p, "#product-media-main", {
                    mobile: { src: `/images/${handleOf(p.page_path)}-2.svg` },
                    desktop: { src: `/images/${handleOf(p.page_path)}-3.svg` },
                  }),
                ),
              },
            ],
          },
        },
      ],
    },
  ];
}

/**
 * The welcome popup (product.md Appendix A custom_template): shown on entry, remembered as
 * closed until the next session. The template is in the variation's customfit_meta and mirrored
 * in the config's properties, as Appendix A asks.
 */
function welcomePopupConfig(domain: string): ConfigDefinition {
  const suffix = domain === DEMO_DOMAIN ? "us" : "uk";
  const template: Template = {
    id: `tpl_welcome_${suffix}`,
    parentElement: "body",
    // The script wraps `html` in a div styled by root_style (the overlay); the card and its
    // buttons carry inline styles, so the popup needs no stylesheet of the shop's.
    html:
      '<div class="sf-welcome" role="dialog" aria-modal="true" aria-labelledby="sf-welcome-title" style="position:relative;max-width:22rem;margin:1rem;padding:1.5rem;border-radius:12px;background:#fff;text-align:center;box-shadow:0 10px 30px rgba(0,0,0,.2)">' +
      '<button type="button" class="sf-welcome-close" data-storefit-close aria-label="Close" style="position:absolute;top:.5rem;right:.75rem;border:0;background:none;font-size:1.5rem;cursor:pointer">×</button>' +
      '<h2 id="sf-welcome-title" style="margin:0 0 .5rem">Welcome to Little Sprouts</h2>' +
      "<p>Gentle skincare for little ones. Take 10% off your first order with code <strong>SPROUT10</strong>.</p>" +
      '<a class="sf-welcome-cta" href="/#product-grid" data-storefit-close style="display:inline-block;margin-top:.5rem;padding:.6rem 1.2rem;border-radius:999px;background:#2f6b4f;color:#fff;text-decoration:none">Shop the range</a>' +
      "</div>",
    properties: {
      template_properties: {
        root_style:
          "position:fixed;inset:0;display:flex;align-items:center;justify-content:center;background:rgba(32,40,36,.45);z-index:2147483000",
        js_script: "",
      },
      settings: {
        config_selected: "on_entry",
        visibility_selected: "",
        close_settings: { close_config_selected: "next_session", expiry: 0 },
      },
    },
  };
  return {
    config_customer_id: `welcome_popup_${suffix}`,
    config_id: `cfg_welcome_popup_${suffix}`,
    variation_data_type: "HTML_ELEMENT",
    variation: { customfit_meta: { custom_template: template } },
    properties: { page_path: "/", page_match: "exact_match", domain, custom_template: template },
  };
}

/** Audiences of the demo account (product.md §3 conditions over the visitor's attributes). */
export const FIRST_TIME_AUDIENCE_ID = "aud_first_time_visitors";

export function demoAudiences(): NewAudience[] {
  return [
    {
      id: FIRST_TIME_AUDIENCE_ID,
      account_id: DEMO_ACCOUNT_ID,
      name: "First-time visitors",
      description: "Visitors during their first visit to the shop",
      condition: { is_first_time_visitor: true },
    },
  ];
}

export type SeedOptions = {
  /**
   * Where the demo shop serves its domains, port included (settings.site_origins): the
   * dashboard's visual editor, preview links and install check open these. Default: port 4200.
   */
  siteOrigins?: string[];
};

/**
 * Creates the demo account, its owner and experiences when they are missing. Idempotent: a
 * restart keeps what the operator changed. The shop's addresses are brought up to date when the
 * stored ones are the demo shop's own (the shop moved to another port), never when the operator
 * set others.
 */
export async function seedDemo(
  store: Store,
  owner: { email: string; password: string },
  options: SeedOptions = {},
): Promise<{ created: boolean }> {
  const siteOrigins = options.siteOrigins ?? demoSiteOrigins();
  const existing = await store.getAccountByClientKey(DEMO_CLIENT_KEY);
  if (existing) {
    const stored = existing.settings.site_origins;
    const moved = !!options.siteOrigins && !!stored && stored.every(isDemoSiteOrigin) && stored.join() !== siteOrigins.join();
    if (!stored || moved) {
      await store.updateAccount(existing.id, (current) => ({ settings: { ...current.settings, site_origins: siteOrigins } }));
    }
    return { created: false };
  }
  const passwordHash = await hashPassword(owner.password);
  try {
    await store.createAccount({
      id: DEMO_ACCOUNT_ID,
      name: "Little Sprouts",
      client_key: DEMO_CLIENT_KEY,
      settings: { ...DEMO_SETTINGS, site_origins: siteOrigins },
    });
  } catch (error) {
    // Nodes starting together on one new database: another one created it first, and seeds it.
    if (await store.getAccountByClientKey(DEMO_CLIENT_KEY)) return { created: false };
    throw error;
  }
  await store.createOperator({
    id: "op_owner",
    account_id: DEMO_ACCOUNT_ID,
    email: owner.email,
    password_hash: passwordHash,
    role: "owner",
  });
  for (const a of demoAudiences()) await store.saveAudience(a);
  for (const e of demoExperiences()) await store.saveExperience(e);
  return { created: true };
}
