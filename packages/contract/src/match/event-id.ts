// Event ids (spec §3 Event `event_customer_id (domain|name)`, spec §5 validation rules).

/**
 * spec §5: an event name holding a pipe is already a full id and is used as is; otherwise the
 * event domain (see `resolveEventDomain`) is prefixed: `shop.example|add_to_cart`.
 */
export const eventCustomerId = (name: string, domain: string): string => {
  const n = `${name ?? ""}`;
  return n.includes("|") ? n : `${domain ?? ""}|${n}`;
};
