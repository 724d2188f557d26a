// "Few visitors" (docs/results.md) on both backends, for what a mutually exclusive group and a
// past date range change: a member of a group is measured against its share of the group (9 of
// 24 visitors is what a 50 % member gets, not "few let in"), and a range that ends before the
// experience's last change gets no diagnosis (it once read as "the shop sent no page views").
import { describe, expect, it } from "vitest";
import type { TrackedEvent, User } from "@storefit/contract";
import { diagnoseFewVisitors } from "../src/results/diagnostics.js";
import type { Account, Experience, NewExperience, ResultsRange, Store } from "../src/store/types.js";
import { SHOP } from "./support/results-data.js";
import { BACKENDS, openBackend } from "./support/stores.js";

const DOMAIN = "shop.example";
const visitor = (id: string): User => ({ user_customer_id: id, anonymous: true });

function member(group: Experience["exclusion_group"]): NewExperience {
  return {
    id: "exp_k1",
    account_id: SHOP.id,
    name: "K1 sanitizer A",
    status: "running",
    kind: "ab_test",
    priority: 0,
    exclusion_group: group,
    pages: [{ domain: DOMAIN, page_path: "/sanitizer", page_match: "exact_match" }],
    goals: [],
    rules: [
      {
        id: "rule_k1",
        audience_id: null,
        audience_name: "Everyone",
        behaviour: {
          id: "beh_k1",
          name: "B",
          traffic_allocation: 1,
          variations: ["v_a", "v_b"].map((id) => ({
            id,
            name: id,
            weight: 1,
            configs: [
              {
                config_customer_id: "title",
                config_id: "cfg_k1",
                variation_data_type: "HTML_ELEMENT" as const,
                variation: { innerHTML: id },
                properties: { element_path: "#title", domain: DOMAIN, page_path: "/sanitizer" },
              },
            ],
          })),
        },
      },
    ],
  };
}

/** `visitors` visitors view the target page after the experience's last change; the first `exposed` of them see it. */
async function traffic(store: Store, e: Experience, visitors: number, exposed: number): Promise<void> {
  const at = Date.parse(e.updated_at) + 60_000;
  const now = new Date(at).toISOString();
  for (let i = 0; i < visitors; i++) {
    const id = `v${i}`;
    const view: TrackedEvent = {
      event_type: "PAGE",
      event_customer_id: `${DOMAIN}|PAGE`,
      domain: DOMAIN,
      insert_id: `pv_${i}`,
      event_timestamp: at + i,
      properties: { page_path: "/sanitizer" },
    };
    await store.commitClientWrites([
      { kind: "events", accountId: SHOP.id, userId: id, user: visitor(id), touch: false, events: [view], now },
      ...(i < exposed
        ? [
            {
              kind: "exposures" as const,
              accountId: SHOP.id,
              userId: id,
              user: visitor(id),
              touch: false,
              exposures: [
                {
                  config_id: "cfg_k1",
                  user_customer_id: id,
                  user_id: id,
                  session_id: `s${i}`,
                  requested_time: at + i,
                  variation_id: "v_a",
                  experience_id: e.id,
                  rule_id: "rule_k1",
                  probability: 0.5,
                },
              ],
              now,
            },
          ]
        : []),
    ]);
  }
}

async function diagnose(store: Store, account: Account, e: Experience, totalVisitors: number, range: ResultsRange = {}) {
  return diagnoseFewVisitors({ store, account, experience: e, range, totalVisitors });
}

describe.each(BACKENDS)("few visitors on %s", (name) => {
  it("a member of a group is expected to reach its share of the group's visitors, not all of them", async () => {
    const { store } = await openBackend(name);
    const account = await store.createAccount(SHOP);
    // 50 % of the group; 24 visitors of its page, 9 exposed: above half of the 12 its share allows.
    const half = await store.saveExperience(member({ name: "sanitizer", start: 0, end: 0.5 }));
    await traffic(store, half, 24, 9);
    expect(await diagnose(store, account, half, 9)).toMatchObject({ cause: "few_shoppers", target_visitors: 24, exposed_visitors: 9 });
  });

  it("a member of a group that reaches less than half of its share is still few let in", async () => {
    const { store } = await openBackend(name);
    const account = await store.createAccount(SHOP);
    const half = await store.saveExperience(member({ name: "sanitizer", start: 0.5, end: 1 }));
    await traffic(store, half, 24, 3); // half of its 12 would be 6
    expect(await diagnose(store, account, half, 3)).toMatchObject({ cause: "audience_or_allocation", target_visitors: 24, exposed_visitors: 3 });
  });

  it("outside a group, the same 9 of 24 are few let in", async () => {
    const { store } = await openBackend(name);
    const account = await store.createAccount(SHOP);
    const alone = await store.saveExperience(member(null));
    await traffic(store, alone, 24, 9);
    expect(await diagnose(store, account, alone, 9)).toMatchObject({ cause: "audience_or_allocation", target_visitors: 24, exposed_visitors: 9 });
  });

  it("a range that ends before the experience's last change gets no diagnosis; one that ends after, does", async () => {
    const { store } = await openBackend(name);
    const account = await store.createAccount(SHOP);
    const e = await store.saveExperience(member(null));
    const changed = Date.parse(e.updated_at);
    expect(await diagnose(store, account, e, 0, { from_ms: changed - 7 * 86_400_000, to_ms: changed - 86_400_000 })).toBeNull();
    // Ending exactly at the change: an empty window too.
    expect(await diagnose(store, account, e, 0, { to_ms: changed })).toBeNull();
    await traffic(store, e, 3, 0);
    expect(await diagnose(store, account, e, 0, { from_ms: changed - 86_400_000, to_ms: changed + 86_400_000 })).toMatchObject({
      cause: "audience_or_allocation",
      since: e.updated_at,
      target_visitors: 3,
    });
  });
});
