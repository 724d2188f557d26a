// HTML helpers: every piece of text that reaches a page goes through escapeHtml (or jsonForScript
// inside a <script>), so catalog text, query parameters and Host headers cannot inject markup.

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for element content and for double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/**
 * JSON that is safe inside an inline <script>: "<" is written as \u003c so that neither
 * "</script>" nor "<!--" can end or confuse the element, and U+2028/U+2029 are escaped for
 * pre-ES2019 parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Escapes text for XML (SVG) content and attributes. */
export const escapeXml = escapeHtml;
