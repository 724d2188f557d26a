/**
 * The insert id of an order's REVENUE event (the service stores an event once per insert_id): the
 * same order of the same visitor always gives the same id, so a reloaded confirmation page, a
 * repeated `trackRevenue` or a repeated Shopify `checkout_completed` is stored once. The visitor
 * is in it because order ids are often sequential and the client key is public: an id made of the
 * order alone could be stored first by anyone, and the real order would then be answered as a
 * duplicate and never counted. Cut to the service's 128 characters for insert_id, the order id to
 * 64 so a long one cannot push the visitor out. No imports: the Shopify pixel bundles it too.
 */
export const orderInsertId = (kind: string, orderId: string, visitor: string): string => `${kind}_${orderId.slice(0, 64)}_${visitor}`.slice(0, 128);
