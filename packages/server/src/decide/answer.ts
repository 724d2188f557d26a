// The config call's answer (spec §7, ConfigsResponse) as the bytes the route sends:
//   {"configs":{"<key>":{…},…},"user_id":"…","page_paths":[…],"long_url":"…","cache":{…}}
//
// Assembled by hand rather than by JSON.stringify of the answer, because a config's JSON depends
// only on its page plan (experience, rule, variation, config; never the visitor): each config's
// member is serialized and UTF-8 encoded once per plan (`configMember`, kept in decide.ts's page
// plans), and an answer copies its members together.
//
// The bytes parse to the same ConfigsResponse as JSON.stringify's, and are its output byte for byte
// (client-api.test.ts compares) unless a config key looks like an array index ("42"):
// JSON.stringify would put it first, the answer keeps the decision's order.

import type { AnswerCache, Config } from "@storefit/contract";

/** `"key":{…}`: a config's member of the answer's configs object, as UTF-8 JSON. */
export function configMember(key: string, config: Config): Buffer {
  return Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(config)}`);
}

const CONFIGS_OPEN = Buffer.from('{"configs":{');
const COMMA_BYTE = 0x2c;

/**
 * Lists of strings as JSON, by the array: page_paths and the cache's attributes are the page
 * plan's own arrays (decide.ts), the same for every visitor on the page until the plan is dropped,
 * and page_paths lists every path the account personalizes there. With the cache's JSON made from
 * it: 85 against 92 µs of node CPU per config call (0.92×) in one A/B run of
 * bench/service.bench.mjs against the code before this session's changes (load 3.6).
 */
const listJson = new WeakMap<readonly string[], string>();

function listJsonOf(list: readonly string[]): string {
  let json = listJson.get(list);
  if (json === undefined) listJson.set(list, (json = JSON.stringify(list)));
  return json;
}

/** The answer: the decision's config members, comma-separated, then the visitor's id, the page paths and the page's URL. */
export function answerBytes(
  members: readonly Buffer[],
  rest: { userId: string; pagePaths: readonly string[]; longUrl: string; cache?: AnswerCache | null },
): Buffer {
  // AnswerCache's two members, in its order.
  const cache = rest.cache ? `,"cache":{"revision":${JSON.stringify(rest.cache.revision)},"attributes":${listJsonOf(rest.cache.attributes)}}` : "";
  const tail = `},"user_id":${JSON.stringify(rest.userId)},"page_paths":${listJsonOf(rest.pagePaths)},"long_url":${JSON.stringify(rest.longUrl)}${cache}}`;
  const tailLength = Buffer.byteLength(tail);
  let length = CONFIGS_OPEN.length + tailLength + Math.max(0, members.length - 1);
  for (let i = 0; i < members.length; i++) length += members[i]!.length;
  const out = Buffer.allocUnsafe(length);
  // Uint8Array's set, not Buffer's copy: copy checks and converts its arguments in JavaScript on
  // every call, and an answer copies a dozen members. With page_paths' JSON kept (above): 3.2–3.6
  // against 5.1–6.0 µs per answer in a micro-benchmark (10 members of 750 bytes, 30 paths);
  // with attributesOf's (conditions.ts), 96 against 98 µs of node CPU per config call in one
  // A/B run of bench/service.bench.mjs (load 2.0).
  out.set(CONFIGS_OPEN, 0);
  let at = CONFIGS_OPEN.length;
  for (let i = 0; i < members.length; i++) {
    if (i > 0) out[at++] = COMMA_BYTE;
    const member = members[i]!;
    out.set(member, at);
    at += member.length;
  }
  out.write(tail, at, tailLength, "utf8");
  return out;
}
