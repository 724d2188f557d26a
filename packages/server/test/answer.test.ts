import { describe, expect, it } from "vitest";
import type { Config } from "@storefit/contract";
import { answerBytes, configMember } from "../src/decide/answer.js";

const config = (id: string, text: string): Config =>
  ({ config_customer_id: id, config_id: id, version: 1, variation_id: `v_${id}`, variation: { innerHTML: text }, variation_data_type: "HTML_ELEMENT", properties: {} }) as unknown as Config;

describe("answerBytes", () => {
  // The page plan's page_paths and cache attributes are the same arrays call after call
  // (their JSON is kept per array): each answer must still be JSON.stringify's, byte for byte.
  it("is JSON.stringify of the answer, with the same lists answered again under other visitors and revisions", () => {
    const configs = { a: config("a", "Prix réduit — 10 €"), b: config("b", '"quoted" \\ <b>') };
    const members = Object.entries(configs).map(([k, c]) => configMember(k, c));
    const pagePaths = ["/products/", "/products/ünïcode", '/q"uote'];
    const attributes = ["cf_device_type", "utm_campaign"];
    for (const [userId, revision, longUrl] of [
      ["u_1", 3, "https://shop.example/products/x?y=1"],
      ["u_2", 4, "https://shop.example/products/ünïcode"],
    ] as const) {
      const bytes = answerBytes(members, { userId, pagePaths, longUrl, cache: { revision, attributes } });
      expect(bytes.toString("utf8")).toBe(JSON.stringify({ configs, user_id: userId, page_paths: pagePaths, long_url: longUrl, cache: { revision, attributes } }));
    }
    const noCache = answerBytes([], { userId: "u_3", pagePaths, longUrl: "https://shop.example/", cache: null });
    expect(noCache.toString("utf8")).toBe(JSON.stringify({ configs: {}, user_id: "u_3", page_paths: pagePaths, long_url: "https://shop.example/" }));
  });
});
