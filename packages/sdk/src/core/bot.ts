// spec §6: "Bots are excluded: a long list of user-agent patterns for crawlers, monitors,
// link-preview fetchers and headless auditors." One case-insensitive expression keeps it small.

const BOT_PATTERN = new RegExp(
  [
    // Generic words crawlers put in their UA.
    "bot\\b", "bot/", "crawl", "spider", "slurp", "scrap", "fetch", "archiver", "indexer",
    // Search engines and their helpers.
    "googlebot", "google-inspectiontool", "googleother", "adsbot", "mediapartners", "bingpreview",
    "yandex", "baidu", "duckduck", "sogou", "exabot", "seznam", "petalbot", "applebot", "naver",
    // SEO and marketing crawlers.
    "ahrefs", "semrush", "mj12", "dotbot", "rogerbot", "screaming frog", "sitebulb", "serpstat",
    "dataforseo", "blexbot", "megaindex",
    // Monitors and uptime checks.
    "pingdom", "uptimerobot", "statuscake", "site24x7", "newrelicpinger", "datadog", "checkly",
    "gtmetrix", "monitor", "synthetic",
    // Link-preview fetchers.
    "facebookexternalhit", "facebookcatalog", "meta-externalagent", "twitterbot", "slackbot",
    "slack-imgproxy", "discordbot", "telegrambot", "whatsapp", "linkedinbot", "pinterest",
    "skypeuripreview", "embedly", "redditbot", "vkshare", "iframely", "outbrain", "quora link preview",
    // Headless browsers and auditors.
    "headlesschrome", "phantomjs", "lighthouse", "chrome-lighthouse", "pagespeed", "ptst",
    "puppeteer", "playwright", "selenium", "webdriver", "prerender", "rendertron",
    // AI crawlers.
    "gptbot", "chatgpt-user", "claudebot", "anthropic-ai", "ccbot", "perplexity", "bytespider",
    "amazonbot", "cohere-ai", "diffbot",
    // HTTP libraries (never a shopper).
    "curl/", "wget/", "python-requests", "python-urllib", "aiohttp", "go-http-client", "java/",
    "okhttp", "axios/", "node-fetch", "undici", "libwww-perl", "httpclient",
  ].join("|"),
  "i",
);

/** An empty user agent counts as a bot: every browser sends one. */
export function isBot(userAgent: string): boolean {
  return !userAgent || BOT_PATTERN.test(userAgent);
}
