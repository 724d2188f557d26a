// Client-side checks mirroring packages/server/src/schemas/settings.ts, so a mistake is shown
// beside its field before anything is sent (the service checks again and its message is shown).

// spec §5, §6: host names; a subdomain entry may start with "*.".
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function hostProblem(value: string, { wildcard = false, required = true } = {}): string | true {
  const v = value.trim();
  if (v === "") return required ? "Enter a domain, such as shop.example.com." : true;
  if (v.length > 253) return "At most 253 characters.";
  const host = wildcard && v.startsWith("*.") ? v.slice(2) : v;
  return HOST.test(host) ? true : `“${v}” is not a host name (letters, digits, hyphens and dots${wildcard ? ", optionally *. first" : ""}; no scheme or path).`;
}

export function regexProblem(pattern: string): string | true {
  try {
    new RegExp(pattern);
    return true;
  } catch (e) {
    return `Not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`;
  }
}

export const lines = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

export function linesProblem(text: string, max: number, each: (line: string) => string | true): string | true {
  const all = lines(text);
  if (all.length > max) return `At most ${max} entries.`;
  for (const line of all) {
    const problem = each(line);
    if (problem !== true) return problem;
  }
  return true;
}

export function integerProblem(value: unknown, min: number, max: number): string | true {
  const n = typeof value === "number" ? value : Number(value);
  if (value === "" || !Number.isInteger(n)) return "Enter a whole number.";
  if (n < min || n > max) return `Between ${min} and ${max}.`;
  return true;
}

export const required = (label: string) => (v: string) => (v.trim() === "" ? `Enter ${label}.` : true);
