// The demo account (product.md §4, spec §1–§2): "Little Sprouts" on two domains, with the
// deployed configuration's flags and one page configuration per product, an owner operator, and
// running experiences so a new user sees personalization within a minute.

import type { Config, PageConfiguration } from "@storefit/contract";
import { SETTINGS_DEFAULTS } from "@storefit/contract";
import { hashPassword } from "../auth/password.js";
import type { AccountSettings, ConfigDefinition, NewExperience, Store } from "../store/types.js";
import { DEMO_DOMAIN, DEMO_PAGES, DEMO_SUBDOMAINS } from "./demo-pages.js";

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
  void now;
  return [
    {
      id: "exp_price_message",
      account_id: DEMO_ACCOUNT_ID,
      name: "Price message: free shipping",
      status: "running",
      kind: "ab_test",
      priority: 10,
      pages: [{ domain: DEMO_DOMAIN, page_path: "/products/", page_match: "contains" }],
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
  ];
}

/**
 * Creates the demo account, its owner and experiences when they are missing. Idempotent: a
 * restart keeps what the operator changed.
 */
export async function seedDemo(
  store: Store,
  owner: { email: string; password: string },
): Promise<{ created: boolean }> {
  if (store.getAccountByClientKey(DEMO_CLIENT_KEY)) return { created: false };
  store.createAccount({
    id: DEMO_ACCOUNT_ID,
    name: "Little Sprouts",
    client_key: DEMO_CLIENT_KEY,
    settings: DEMO_SETTINGS,
  });
  store.createOperator({
    id: "op_owner",
    account_id: DEMO_ACCOUNT_ID,
    email: owner.email,
    password_hash: await hashPassword(owner.password),
    role: "owner",
  });
  for (const e of demoExperiences()) store.saveExperience(e);
  return { created: true };
}
