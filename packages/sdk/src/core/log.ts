// Logging (conventions, habit 3): the debug build prints the message of each code; the shipped
// build prints the code alone, so the messages cost no bytes in storefit.js.

import type { ErrorCode } from "@storefit/contract";
import { ERROR_MESSAGES } from "@storefit/contract";

declare const __DEBUG__: boolean;

export function log(code: ErrorCode, ...data: unknown[]): void {
  try {
    if (__DEBUG__) console.warn(`[storefit] ${code}: ${ERROR_MESSAGES[code]}`, ...data);
    else console.debug("storefit", code);
  } catch {
    // console may be missing or replaced by the page.
  }
}
