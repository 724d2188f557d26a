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

/** The answer: the decision's config members, comma-separated, then the visitor's id, the page paths and the page's URL. */
export function answerBytes(
  members: readonly Buffer[],
  rest: { userId: string; pagePaths: readonly string[]; longUrl: string; cache?: AnswerCache | null },
): Buffer {
  const cache = rest.cache ? `,"cache":${JSON.stringify(rest.cache)}` : "";
  const tail = `},"user_id":${JSON.stringify(rest.userId)},"page_paths":${JSON.stringify(rest.pagePaths)},"long_url":${JSON.stringify(rest.longUrl)}${cache}}`;
  const tailLength = Buffer.byteLength(tail);
  let length = CONFIGS_OPEN.length + tailLength + Math.max(0, members.length - 1);
  for (let i = 0; i < members.length; i++) length += members[i]!.length;
  const out = Buffer.allocUnsafe(length);
  let at = CONFIGS_OPEN.copy(out, 0);
  for (let i = 0; i < members.length; i++) {
    if (i > 0) out[at++] = COMMA_BYTE;
    at += members[i]!.copy(out, at);
  }
  out.write(tail, at, tailLength, "utf8");
  return out;
}
