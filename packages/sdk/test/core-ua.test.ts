// User-agent parsing (spec §3 derived properties) against real user-agent strings.
import { describe, expect, it } from "vitest";
import { parseUserAgent } from "../src/core/ua.js";
import type { UaInfo } from "../src/core/ua.js";
import { isBot } from "../src/core/bot.js";

const table: [name: string, ua: string, expected: Partial<UaInfo>, touch?: number][] = [
  ["Chrome on Windows 10", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    { browser_name: "Chrome", browser_version: "131.0.0.0", os_name: "Windows", os_version: "10", device_type: "desktop", cpu_architecture: "amd64" }],
  ["Chrome on macOS", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
    { browser_name: "Chrome", os_name: "Mac OS", os_version: "10.15.7", device_type: "desktop", device_vendor: "Apple", device_model: "Macintosh" }],
  ["Safari on macOS", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
    { browser_name: "Safari", browser_version: "17.4.1", os_name: "Mac OS", device_type: "desktop" }],
  ["Safari on iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    { browser_name: "Safari", browser_version: "17.5", os_name: "iOS", os_version: "17.5.1", device_type: "mobile", device_vendor: "Apple", device_model: "iPhone" }],
  ["Safari on iPad (iPadOS 12)", "Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
    { browser_name: "Safari", os_name: "iOS", os_version: "12.5.7", device_type: "tablet", device_model: "iPad" }],
  ["iPadOS 17 asking for the desktop site", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    { browser_name: "Safari", os_name: "iOS", device_type: "tablet", device_model: "iPad", device_vendor: "Apple" }, 5],
  ["Chrome on iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/125.0.6422.80 Mobile/15E148 Safari/604.1",
    { browser_name: "Chrome", browser_version: "125.0.6422.80", os_name: "iOS", os_version: "17.4", device_type: "mobile" }],
  ["Firefox on iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/126.0 Mobile/15E148 Safari/605.1.15",
    { browser_name: "Firefox", browser_version: "126.0", os_name: "iOS", device_type: "mobile" }],
  ["Firefox on Windows", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
    { browser_name: "Firefox", browser_version: "128.0", os_name: "Windows", device_type: "desktop", cpu_architecture: "amd64" }],
  ["Firefox on Linux", "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
    { browser_name: "Firefox", os_name: "Linux", device_type: "desktop", cpu_architecture: "amd64" }],
  ["Edge on Windows", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87",
    { browser_name: "Edge", browser_version: "126.0.2592.87", os_name: "Windows" }],
  ["Opera on Windows", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0",
    { browser_name: "Opera", browser_version: "110.0.0.0" }],
  ["Chrome on a Pixel", "Mozilla/5.0 (Linux; Android 14; Pixel 8 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
    { browser_name: "Chrome", os_name: "Android", os_version: "14", device_type: "mobile", device_vendor: "Google", device_model: "Pixel 8 Pro" }],
  ["Samsung Internet on a Galaxy", "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    { browser_name: "Samsung Internet", browser_version: "25.0", os_name: "Android", os_version: "13", device_type: "mobile", device_vendor: "Samsung", device_model: "SM-S918B" }],
  ["Chrome on a Galaxy Tab", "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    { browser_name: "Chrome", os_name: "Android", device_type: "tablet", device_vendor: "Samsung", device_model: "SM-X710" }],
  ["Chrome on a Redmi (with Build)", "Mozilla/5.0 (Linux; Android 12; Redmi Note 11 Build/SKQ1.211103.001) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.111 Mobile Safari/537.36",
    { os_name: "Android", os_version: "12", device_type: "mobile", device_vendor: "Xiaomi", device_model: "Redmi Note 11" }],
  ["Chrome with a frozen Android UA", "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
    { browser_name: "Chrome", os_name: "Android", os_version: "10", device_type: "mobile", device_model: "" }],
  ["Facebook in-app browser on iPhone", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.40.98;FBBV/123;FBDV/iPhone15,2]",
    { browser_name: "Facebook", os_name: "iOS", device_type: "mobile" }],
  ["Instagram in-app browser on Android", "Mozilla/5.0 (Linux; Android 14; SM-A546B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36 Instagram 337.0.0.35.102 Android",
    { browser_name: "Instagram", os_name: "Android", device_vendor: "Samsung", device_type: "mobile" }],
  ["Chrome OS", "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    { browser_name: "Chrome", os_name: "Chrome OS", os_version: "14541.0.0", device_type: "desktop" }],
  ["Internet Explorer 11", "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko",
    { browser_name: "Internet Explorer", browser_version: "11.0", os_name: "Windows", os_version: "7", cpu_architecture: "amd64" }],
  ["Yandex Browser", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 YaBrowser/24.4.0.0 Safari/537.36",
    { browser_name: "Yandex", browser_version: "24.4.0.0" }],
  ["Kindle Fire Silk", "Mozilla/5.0 (Linux; Android 9; KFMAWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/124.3.1 like Chrome/124.0.6367.219 Safari/537.36",
    { device_type: "tablet", device_vendor: "Amazon" }],
  ["Windows on ARM", "Mozilla/5.0 (Windows NT 10.0; ARM64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
    { os_name: "Windows", cpu_architecture: "arm64" }],
  ["Windows 8.1, 32-bit", "Mozilla/5.0 (Windows NT 6.3) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36",
    { os_name: "Windows", os_version: "8.1", cpu_architecture: "" }],
  ["an empty user agent", "", { browser_name: "", os_name: "", device_type: "desktop" }],
];

describe("parseUserAgent", () => {
  for (const [name, ua, expected, touch] of table) {
    it(name, () => expect(parseUserAgent(ua, null, touch ?? 0)).toMatchObject(expected));
  }

  it("prefers client hints for the brand of a Chromium browser", () => {
    const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const info = parseUserAgent(ua, {
      brands: [{ brand: "Not_A Brand", version: "8" }, { brand: "Chromium", version: "131" }, { brand: "Microsoft Edge", version: "131" }],
      mobile: false,
      platform: "Windows",
    });
    expect(info).toMatchObject({ browser_name: "Edge", browser_version: "131.0.0.0", os_name: "Windows" });
  });

  it("takes mobile from client hints when the UA does not say", () => {
    expect(parseUserAgent("Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", { mobile: true }).device_type).toBe("tablet");
    expect(parseUserAgent("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36", { mobile: true }).device_type).toBe("mobile");
  });
});

describe("isBot (spec §6)", () => {
  const bots = [
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Twitterbot/1.0",
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "WhatsApp/2.23.20.0",
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
    "Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)",
    "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
    "curl/8.4.0",
    "python-requests/2.31.0",
    "",
  ];
  const people = table.map(([, ua]) => ua).filter(Boolean);
  for (const ua of bots) it(`a bot: ${ua.slice(0, 60) || "(empty)"}`, () => expect(isBot(ua)).toBe(true));
  for (const ua of people) it(`a person: ${ua.slice(0, 60)}`, () => expect(isBot(ua)).toBe(false));
});
