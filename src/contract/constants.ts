/** Business constants shared by the web client and the API (spec §9 and DESIGN.md). */

// What the home page's first screen needs lives in ./storefront.ts (see there why); here as everywhere.
export { CATEGORIES, CATEGORY_LABELS, HOME_PHONE_REVIEWS, HOME_PHONE_TOOLS, HOME_REVIEWS_COUNT, HOME_TOOLS_COUNT, PAGE_SIZE_DEFAULT } from "./storefront";
export type { Category } from "./storefront";

/**
 * How a customer pays for a checkout (DESIGN "Orders", "Payments"); `card` only where the store has Stripe set up;
 * `terms` only for a member of a trade account with net terms (issue 43: invoiced now, paid by the due date).
 */
export const PAYMENT_METHODS = ["cash_on_delivery", "bank_transfer", "card", "terms"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 15;

export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** Lists: the largest page size accepted by the API (the default is PAGE_SIZE_DEFAULT). */
export const PAGE_SIZE_MAX = 100;
/**
 * Lists at a merchant's size (docs/decisions/0013): page numbers are served up to MAX_PAGE
 * (deeper, the `cursor` of the `next` link walks on), and a total above COUNT_CAP is reported
 * as COUNT_CAP with `X-Total-Count-Exact: false` ("more than 1,000").
 */
export const MAX_PAGE = 400;
export const COUNT_CAP = 1000;
/** The tool list's orders: `oldest` is the spec's (and the default without a search), `relevance` the default with one. */
export const TOOL_SORTS = ["oldest", "newest", "price-asc", "price-desc", "rating", "relevance"] as const;
export type ToolSort = (typeof TOOL_SORTS)[number];
/** Search-as-you-type: at most this many names. */
export const SUGGESTIONS_MAX = 8;


/** react-toastify settings required by the spec: top-right, 5000 ms, draggable. */
export const TOAST_OPTIONS = {
  position: "top-right",
  autoClose: 5000,
  draggable: true,
} as const;

/** The static statistics block of the home page, in the spec's words (§9): "72 countries". */
export const STATISTICS = [
  { value: "72", label: "countries" },
  { value: "535+", label: "projects" },
  { value: "273+", label: "clients" },
  { value: "433+", label: "feedbacks" },
] as const;

/** Days after delivery a customer may ask to return units (DESIGN "Refunds and returns"; RETURN_DAYS overrides it). */
export const RETURN_DAYS = 30;

/** A tool's page says 'Only N left' from this stock down (and 'In stock' above it). */
export const LOW_STOCK = 10;

/** Free-text limits; long enough for real use, short enough to keep pages sane. */
export const LIMITS = {
  name: 80,
  email: 254,
  reviewDescription: 1000,
  reviewTitle: 120,
  search: 100,
  address: 300,
  phone: 30,
  toolName: 120,
  toolDescription: 2000,
  quantity: 100_000,
  /** Ids are opaque strings; none of ours is longer. */
  id: 100,
  /** The highest price a tool may have, in dollars. */
  priceDollars: 1_000_000,
  /** An opaque paging cursor (the `next` link's). */
  cursor: 200,
  orderNote: 500,
  /** Different tools in one cart (and one order). */
  cartLines: 50,
  idempotencyKey: 200,
} as const;
