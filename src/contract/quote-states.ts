/**
 * A quote's states (DESIGN "Quotes"): the quote requested → sent → accepted | declined |
 * expired | withdrawn; each revision sent → superseded | accepted | declined | expired |
 * withdrawn. Shared by the server, the dashboard and the console.
 */
export const QUOTE_STATUSES = ["requested", "sent", "accepted", "declined", "expired", "withdrawn"] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_REVISION_STATUSES = ["sent", "superseded", "accepted", "declined", "expired", "withdrawn"] as const;
export type QuoteRevisionStatus = (typeof QUOTE_REVISION_STATUSES)[number];
