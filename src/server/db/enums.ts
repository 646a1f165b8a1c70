// drizzle-kit loads the schema with its own resolver; keep these re-exports so it
// sees the same tuples the contract defines.
export { CATEGORIES } from "../../contract/constants";
export { ORDER_STATUSES as ORDER_STATUSES_DB } from "../../contract/order-lifecycle";
export { PAYMENT_METHODS } from "../../contract/constants";
export { STOCK_REASONS } from "../../contract/stock";
export { QUOTE_REVISION_STATUSES, QUOTE_STATUSES } from "../../contract/quote-states";
