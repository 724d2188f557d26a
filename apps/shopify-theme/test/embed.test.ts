// The theme app embed renders the account's snippet tag (product.md §2), with a real Liquid
// engine (LiquidJS) standing in for Shopify's; `{% schema %}` is Shopify's own tag, registered
// here as Shopify treats it: parsed for the theme editor, rendering nothing.
import { readFileSync } from "node:fs";
import { Liquid, Tag } from "liquidjs";
import type { TagToken, TopLevelToken } from "liquidjs";
import { describe, expect, it } from "vitest";

const source = readFileSync(new URL("../blocks/storefit-embed.liquid", import.meta.url), "utf8");

function engine(): Liquid {
  const liquid = new Liquid();
  liquid.registerTag(
    "schema",
    class extends Tag {
      constructor(token: TagToken, remain: TopLevelToken[], l: Liquid) {
        super(token, remain, l);
        // Skip everything up to {% endschema %}.
        while (remain.length) {
          const t = remain.shift() as TagToken;
          if ((t as { name?: string }).name === "endschema") return;
        }
        throw new Error("schema is not closed");
      }
      *render(): Generator<unknown, void, unknown> {}
    },
  );
  return liquid;
}

const render = (settings: Record<string, string>, designMode = false) =>
  engine().parseAndRender(source, { block: { settings }, request: { design_mode: designMode } });

describe("theme app embed (blocks/storefit-embed.liquid)", () => {
  it("renders one synchronous snippet tag for the account", async () => {
    const html = (await render({ client_key: " ck_demo_littlesprouts ", api_host: "https://storefit.shop.example/" })).trim();
    expect(html).toBe('<script src="https://storefit.shop.example/v1/accounts/ck_demo_littlesprouts/snippet.js"></script>');
  });

  it("escapes the host and encodes the key", async () => {
    const html = await render({ client_key: "ck a&b", api_host: 'https://x.example/"><script>' });
    expect(html).toContain("/v1/accounts/ck+a%26b/snippet.js");
    expect(html).not.toContain('"><script>');
  });

  it("renders nothing without a key or a host, or in the theme editor", async () => {
    expect((await render({ client_key: "", api_host: "https://x.example" })).trim()).toBe("");
    expect((await render({ client_key: "ck_1", api_host: " " })).trim()).toBe("");
    expect((await render({ client_key: "ck_1", api_host: "https://x.example" }, true)).trim()).toBe("");
  });

  it("declares its settings for the theme editor, targeting the head", () => {
    const schema = JSON.parse(/\{% schema %\}([\s\S]*)\{% endschema %\}/.exec(source)![1]!);
    expect(schema.target).toBe("head");
    expect(schema.settings.map((s: { id: string }) => s.id)).toEqual(["client_key", "api_host"]);
  });
});
