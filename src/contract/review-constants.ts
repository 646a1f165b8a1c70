/**
 * A tool's reviews' plain constants (issue 42), apart from review-schemas.ts (which re-exports
 * them): the tool page reads these as it loads, and importing the schemas' module would evaluate
 * zod and every schema there on the page's critical path (Total Blocking Time).
 */

/** How many of a tool's reviews a page shows (the tool page, and the API's default). */
export const TOOL_REVIEWS_PAGE_SIZE = 5;
/** How many reviews the tool page's JSON-LD carries. */
export const JSON_LD_REVIEWS = 3;
export const TOOL_REVIEW_SORTS = ["newest", "rating-desc", "rating-asc"] as const;
export type ToolReviewSort = (typeof TOOL_REVIEW_SORTS)[number];
