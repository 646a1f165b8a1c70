/**
 * The stock ledger's vocabulary (admin only: kept out of constants.ts, which every shopper's
 * page downloads).
 */

/** Why a tool's stock changed: each change is one movement in the stock ledger. */
export const STOCK_REASONS = ["initial", "order", "cancel", "restock", "correction", "quote_hold", "quote_release", "return", "import"] as const;
export type StockReason = (typeof STOCK_REASONS)[number];
/** The reasons an admin may give for a movement of their own. */
export const ADMIN_STOCK_REASONS = ["restock", "correction"] as const;
/** An admin's words for a stock movement. */
export const STOCK_NOTE_MAX = 200;
