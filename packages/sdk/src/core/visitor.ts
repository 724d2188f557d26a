// The visitor (spec §3 User), walking-skeleton version: a generated customer id kept in local
// storage, the session id and page-view sequence in session storage (spec §9). Derived
// properties, URL parameters and the cookie copy arrive with issue 3.

import type { User } from "@storefit/contract";
import { randomId, storageGet, storageSet, win } from "../env/globals.js";

export type Visitor = { user: User; sessionId: string; pageviewSeq: number };

export function loadVisitor(prefix: string): Visitor {
  const idKey = prefix + "ucid";
  let customerId = storageGet("localStorage", idKey);
  const generated = !customerId;
  if (!customerId) {
    customerId = randomId();
    storageSet("localStorage", idKey, customerId);
  }
  const sidKey = prefix + "sid";
  let sessionId = storageGet("sessionStorage", sidKey);
  if (!sessionId) {
    sessionId = randomId();
    storageSet("sessionStorage", sidKey, sessionId);
  }
  const seqKey = prefix + "pvseq";
  const pageviewSeq = (Number(storageGet("sessionStorage", seqKey)) || 0) + 1;
  storageSet("sessionStorage", seqKey, String(pageviewSeq));
  return {
    user: {
      user_customer_id: customerId,
      anonymous: true,
      sdk_generated_user_customer_id: generated,
      latest_session_id: sessionId,
      properties: { cf_current_page_url: win.location.href },
    },
    sessionId,
    pageviewSeq,
  };
}
