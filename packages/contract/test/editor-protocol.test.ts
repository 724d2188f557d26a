// The visual editor's message guards and origin rules (docs/visual-editor.md): each side acts
// only on well-formed messages of its own protocol version, and the bridge trusts a dashboard
// origin only when the frame's parameter and the shop's api_host agree on it.
import { describe, expect, it } from "vitest";
import {
  EDITOR_PROTOCOL_VERSION,
  editorFrameUrl,
  editorOrigin,
  isBridgeMessage,
  isDashboardMessage,
  originOf,
} from "../src/index.js";
import type { BridgeMessage, Config, DashboardMessage, ElementInfo } from "../src/index.js";

const d = (m: Record<string, unknown>) => ({
  source: "storefit-dashboard",
  v: EDITOR_PROTOCOL_VERSION,
  ...m,
});
const b = (m: Record<string, unknown>) => ({
  source: "storefit-bridge",
  v: EDITOR_PROTOCOL_VERSION,
  ...m,
});

const config: Config = {
  config_customer_id: "c1",
  config_id: "cfg_1",
  variation_id: "var_1",
  variation: { innerHTML: "Hi", style: { color: "red" } },
  variation_data_type: "HTML_ELEMENT",
  properties: { element_path: "#title" },
};

const rect = { x: 1, y: 2, width: 30, height: 4.5 };
const info: ElementInfo = {
  path: "#title",
  matchCount: 1,
  tagName: "h1",
  text: "Hello",
  html: "Hello",
  htmlTruncated: false,
  attributes: { id: "title" },
  rect,
  styles: { color: "rgb(0, 0, 0)" },
  can: { parent: true, child: false, next: true, previous: false },
};

describe("isDashboardMessage", () => {
  // Typed, so a change of the protocol's shapes fails to compile here first.
  const valid: DashboardMessage[] = [
    d({ type: "hello" }) as DashboardMessage,
    d({ type: "hello", id: "42" }) as DashboardMessage,
    d({ type: "select-mode", on: true }) as DashboardMessage,
    d({ type: "hover-path", path: ".card > a" }) as DashboardMessage,
    d({ type: "hover-path", path: null }) as DashboardMessage,
    d({ type: "select-path", path: "#title" }) as DashboardMessage,
    ...(["parent", "child", "next", "previous"] as const).map(
      (direction) => d({ type: "navigate-selection", direction }) as DashboardMessage,
    ),
    d({ type: "clear-selection" }) as DashboardMessage,
    d({ type: "preview", configs: [config] }) as DashboardMessage,
    d({ type: "preview", configs: [], device: "mobile" }) as DashboardMessage,
    d({ type: "clear-preview" }) as DashboardMessage,
    d({ type: "teardown" }) as DashboardMessage,
  ];
  it.each(valid.map((m) => [JSON.stringify(m).slice(0, 80), m] as const))("accepts %s", (_, m) => {
    expect(isDashboardMessage(m)).toBe(true);
    expect(isBridgeMessage(m)).toBe(false);
  });

  const invalid: [string, unknown][] = [
    ["null", null],
    ["a string", "hello"],
    ["an array", [d({ type: "hello" })]],
    ["no source", { v: 1, type: "hello" }],
    ["the bridge's source", b({ type: "hello" })],
    ["another version", { ...d({ type: "hello" }), v: 2 }],
    ["no version", { source: "storefit-dashboard", type: "hello" }],
    ["an unknown type", d({ type: "eval" })],
    ["a type from Object.prototype", d({ type: "toString" })],
    ["a non-string id", d({ type: "hello", id: 7 })],
    ["select-mode without on", d({ type: "select-mode" })],
    ["select-mode with a string", d({ type: "select-mode", on: "yes" })],
    ["hover-path without path", d({ type: "hover-path" })],
    ["select-path with null", d({ type: "select-path", path: null })],
    ["navigate-selection sideways", d({ type: "navigate-selection", direction: "up" })],
    ["preview without configs", d({ type: "preview" })],
    ["preview with an object", d({ type: "preview", configs: { c1: config } })],
    ["preview with a non-config", d({ type: "preview", configs: [config, { config_id: 1 }] })],
    ["preview with a bad device", d({ type: "preview", configs: [], device: "tablet" })],
  ];
  it.each(invalid)("refuses %s", (_, m) => expect(isDashboardMessage(m)).toBe(false));
});

describe("isBridgeMessage", () => {
  const valid: BridgeMessage[] = [
    b({
      type: "ready",
      url: "http://shop.localhost/p",
      title: "P",
      viewport: { width: 1000, height: 700 },
    }) as BridgeMessage,
    b({ type: "hover", path: "#title", matchCount: 1, tagName: "h1", rect }) as BridgeMessage,
    b({ type: "hover", path: null, matchCount: 0, tagName: null, rect: null }) as BridgeMessage,
    b({ type: "selected", selection: info, re: "7" }) as BridgeMessage,
    b({ type: "selected", selection: null }) as BridgeMessage,
    b({
      type: "selected",
      selection: { ...info, original: { text: "$12", html: "<b>$12</b>" } },
    }) as BridgeMessage,
    b({
      type: "preview-applied",
      applied: ["cfg_1"],
      missing: [],
      pending: [],
      skipped: [],
    }) as BridgeMessage,
    b({ type: "preview-cleared" }) as BridgeMessage,
    b({ type: "error", code: "no-match", message: "nothing matches" }) as BridgeMessage,
  ];
  it.each(valid.map((m) => [JSON.stringify(m).slice(0, 80), m] as const))("accepts %s", (_, m) => {
    expect(isBridgeMessage(m)).toBe(true);
    expect(isDashboardMessage(m)).toBe(false);
  });

  const invalid: [string, unknown][] = [
    [
      "the dashboard's source",
      d({ type: "ready", url: "u", title: "t", viewport: { width: 1, height: 1 } }),
    ],
    ["another version", { ...b({ type: "preview-cleared" }), v: 0 }],
    ["a non-string re", b({ type: "preview-cleared", re: 1 })],
    ["ready without viewport", b({ type: "ready", url: "u", title: "t" })],
    [
      "hover with a bad rect",
      b({ type: "hover", path: "a", matchCount: 1, tagName: "a", rect: { x: 1 } }),
    ],
    [
      "hover with a NaN count",
      b({ type: "hover", path: "a", matchCount: NaN, tagName: "a", rect }),
    ],
    ["selected without can", b({ type: "selected", selection: { ...info, can: undefined } })],
    [
      "selected with a numeric attribute",
      b({ type: "selected", selection: { ...info, attributes: { id: 1 } } }),
    ],
    [
      "selected with an original without html",
      b({ type: "selected", selection: { ...info, original: { text: "$12" } } }),
    ],
    [
      "preview-applied without skipped",
      b({ type: "preview-applied", applied: [], missing: [], pending: [] }),
    ],
    ["an unknown error code", b({ type: "error", code: "boom", message: "" })],
  ];
  it.each(invalid)("refuses %s", (_, m) => expect(isBridgeMessage(m)).toBe(false));
});

describe("originOf", () => {
  it.each([
    ["http://localhost:4100", "http://localhost:4100"],
    ["http://localhost:4100/", "http://localhost:4100"],
    ["HTTPS://App.Storefit.IO/api/v1?x=1#y", "https://app.storefit.io"],
    ["https://app.storefit.io:443", "https://app.storefit.io"],
    ["http://app.storefit.io:80/", "http://app.storefit.io"],
    ["http://app.storefit.io:443", "http://app.storefit.io:443"],
    ["http://[::1]:8080/x", "http://[::1]:8080"],
    ["  http://api.localhost:5173  ", "http://api.localhost:5173"],
  ])("%s → %s", (url, origin) => expect(originOf(url)).toBe(origin));

  it.each([
    "",
    "localhost:4100",
    "ftp://x.example",
    "javascript:alert(1)",
    "http://user@evil.example",
    "http://x.example:99999",
    "http://",
    "//x.example",
  ])("refuses %j", (url) => expect(originOf(url)).toBeNull());
});

describe("editorOrigin: the parameter's origin, only when it is api_host's", () => {
  const api = "http://localhost:4100";
  it.each([
    ["http://localhost:4100", api, "http://localhost:4100"],
    ["http://localhost:4100/", api, "http://localhost:4100"],
    ["http://LOCALHOST:4100", "http://localhost:4100/v1/", "http://localhost:4100"],
    ["https://app.storefit.io", "https://app.storefit.io:443", "https://app.storefit.io"],
  ])("%s with api_host %s → %s", (param, apiHost, origin) =>
    expect(editorOrigin(param, apiHost)).toBe(origin),
  );

  it.each([
    ["absent", null, api],
    ["the old flag value", "1", api],
    ["another port", "http://localhost:4101", api],
    ["another host", "http://evil.localhost:4100", api],
    ["another scheme", "https://localhost:4100", api],
    ["a path after the origin", "http://localhost:4100/editor", api],
    ["a query after the origin", "http://localhost:4100?x", api],
    ["user info", "http://localhost:4100@evil.example", api],
    ["a wildcard", "*", api],
    ["an api_host that is no URL", "http://localhost:4100", "localhost:4100"],
  ])("refuses %s", (_, param, apiHost) => expect(editorOrigin(param, apiHost)).toBeNull());
});

describe("editorFrameUrl", () => {
  const o = "http://localhost:4100";
  it.each([
    [
      "http://shop.example/p",
      "http://shop.example/p?utm_customfit_edit=http%3A%2F%2Flocalhost%3A4100",
    ],
    [
      "http://shop.example/p?a=1",
      "http://shop.example/p?a=1&utm_customfit_edit=http%3A%2F%2Flocalhost%3A4100",
    ],
    [
      "http://shop.example/p?",
      "http://shop.example/p?utm_customfit_edit=http%3A%2F%2Flocalhost%3A4100",
    ],
    [
      "http://shop.example/p?a=1#top",
      "http://shop.example/p?a=1&utm_customfit_edit=http%3A%2F%2Flocalhost%3A4100#top",
    ],
  ])("%s", (page, url) => {
    expect(editorFrameUrl(page, o)).toBe(url);
    // The round trip the bridge makes (contract has no URL API: decode the parameter by hand).
    const param = /[?&]utm_customfit_edit=([^&#]*)/.exec(url)![1]!;
    expect(editorOrigin(decodeURIComponent(param), o)).toBe(o);
  });
});
