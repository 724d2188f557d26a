// User-agent parsing for the derived properties of spec §3 (cf_browser_*, cf_os_*, cf_device_*,
// cf_cpu_architecture). Deliberately small (it counts against the 16 KiB budget): a table of
// patterns for the browsers, systems and devices shops actually see, not a full UA database.
// Where the browser offers User-Agent Client Hints (`navigator.userAgentData`), its low-entropy
// values win over the frozen UA string.

export type UaInfo = {
  browser_name: string;
  browser_version: string;
  os_name: string;
  os_version: string;
  device_type: "desktop" | "mobile" | "tablet";
  device_vendor: string;
  device_model: string;
  cpu_architecture: string;
};

/** The low-entropy part of `navigator.userAgentData`. */
export type UaData = {
  brands?: readonly { brand: string; version: string }[];
  mobile?: boolean;
  platform?: string;
};

// [name, pattern whose group 1 is the version]; first match wins, so forks precede Chrome and
// Chrome precedes Safari (every Chromium UA also says "Safari").
const BROWSERS: [string, RegExp][] = [
  ["Edge", /\b(?:Edg|Edge|EdgA|EdgiOS)\/([\d.]+)/],
  ["Opera", /\b(?:OPR|Opera)\/([\d.]+)/],
  ["Samsung Internet", /SamsungBrowser\/([\d.]+)/],
  ["Yandex", /YaBrowser\/([\d.]+)/],
  ["UC Browser", /UCBrowser\/([\d.]+)/],
  ["Facebook", /\bFBAV\/([\d.]+)/],
  ["Instagram", /Instagram ([\d.]+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ["Chrome", /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ["Safari", /Version\/([\d.]+).*Safari\//],
  ["Internet Explorer", /(?:MSIE |Trident\/.*rv:)([\d.]+)/],
];

const WINDOWS_NT: Record<string, string> = { "10.0": "10", "6.3": "8.1", "6.2": "8", "6.1": "7" };

const OSES: [string, RegExp, ((v: string) => string)?][] = [
  ["Windows", /Windows NT ([\d.]+)/, (v) => WINDOWS_NT[v] ?? v],
  ["iOS", /(?:iPhone|iPad|iPod).*? OS (\d+[_\d]*)/],
  ["Android", /Android ([\d.]+)/],
  ["Chrome OS", /CrOS \S+ ([\d.]+)/],
  ["Mac OS", /Mac OS X (\d+[_.\d]*)/],
  ["Linux", /Linux()/],
];

const VENDORS: [string, RegExp][] = [
  ["Apple", /iPhone|iPad|iPod|Macintosh/],
  ["Samsung", /\b(?:SM-|GT-|SAMSUNG|Galaxy)/i],
  ["Google", /\bPixel/],
  ["Xiaomi", /\b(?:Redmi|Xiaomi|POCO|Mi \d|M2\d{3})/i],
  ["Huawei", /\b(?:HUAWEI|Honor|[A-Z]{3}-L\d{2})/i],
  ["OnePlus", /\b(?:OnePlus|ONEPLUS|[A-Z]{2}\d{4})\b/],
  ["Motorola", /\bmoto/i],
  ["Oppo", /\b(?:OPPO|CPH\d{4})/],
  ["Vivo", /\bvivo/i],
  ["Amazon", /\b(?:Kindle|Silk|KF[A-Z]{2,4})\b/],
];

const first = (re: RegExp, ua: string) => re.exec(ua)?.[1];

export function parseUserAgent(ua: string, data?: UaData | null, touchPoints = 0): UaInfo {
  let browser_name = "";
  let browser_version = "";
  for (const [name, re] of BROWSERS) {
    const v = first(re, ua);
    if (v !== undefined) {
      browser_name = name;
      browser_version = v;
      break;
    }
  }
  // Client hints name the real brand ("Microsoft Edge", "Google Chrome") where the UA is frozen.
  const brand = data?.brands?.find((b) => !/not.?a.?brand|chromium/i.test(b.brand));
  if (brand) {
    browser_name = brand.brand.replace(/^(Google|Microsoft) /, "");
    if (!browser_version.startsWith(brand.version)) browser_version = brand.version;
  }

  let os_name = "";
  let os_version = "";
  for (const [name, re, map] of OSES) {
    const v = first(re, ua);
    if (v !== undefined) {
      os_name = name;
      os_version = (map ? map(v) : v).replace(/_/g, ".");
      break;
    }
  }
  if (data?.platform && !os_name) os_name = data.platform === "macOS" ? "Mac OS" : data.platform;

  // iPadOS 13+ asks for desktop pages and says "Macintosh"; its touch screen gives it away.
  const ipadAsMac = /Macintosh/.test(ua) && touchPoints > 1;
  const device_type: UaInfo["device_type"] =
    ipadAsMac || /iPad|Tablet|Kindle|Silk|PlayBook/i.test(ua) || (/Android/.test(ua) && !/Mobile/.test(ua))
      ? "tablet"
      : data?.mobile || /Mobi|iPhone|iPod|Windows Phone|Android.*Mobile/i.test(ua)
        ? "mobile"
        : "desktop";
  if (ipadAsMac) os_name = "iOS";

  let device_vendor = "";
  for (const [name, re] of VENDORS) {
    if (re.test(ua)) {
      device_vendor = name;
      break;
    }
  }
  const device_model = ipadAsMac
    ? "iPad"
    : (first(/(iPhone|iPad|iPod|Macintosh)/, ua) ??
      first(/Android [\d.]+; (?:[a-z]{2}-[a-z]{2}; )?([^;)]+?)(?: Build\/|[;)])/i, ua) ??
      "").replace(/^K$/, "");

  const cpu_architecture = /\b(?:x86_64|x64|Win64|WOW64|amd64)\b/i.test(ua)
    ? "amd64"
    : /\b(?:arm64|aarch64)\b/i.test(ua)
      ? "arm64"
      : /\barm/i.test(ua)
        ? "arm"
        : /\b(?:i[3-6]86|x86)\b/i.test(ua)
          ? "ia32"
          : "";

  return {
    browser_name,
    browser_version,
    os_name,
    os_version,
    device_type,
    device_vendor,
    device_model,
    cpu_architecture,
  };
}

/** `GA1.1.123456789.1690000000` → `123456789.1690000000`: the GA client id (spec §3 ga_device_id). */
export function gaDeviceId(cookie: string | null): string | undefined {
  const m = cookie && /^GA\d\.\d+\.(\d+\.\d+)$/.exec(cookie);
  return m ? m[1] : undefined;
}
