/**
 * The business constants the home page's first screen needs (the categories and the home page's
 * counts), apart from constants.ts, which re-exports them. The app's own chunk (vite.config.ts)
 * holds every module the app imports whole, the exports only lazy pages use included: importing
 * constants.ts there put its limits, sorts, payment methods and statistics in the home page's
 * download (bench:page).
 */

export const CATEGORIES = ["hand-tools", "lawn-mowers", "power-tools", "chainsaws"] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_LABELS: Record<Category, string> = {
  "hand-tools": "Hand Tools",
  "lawn-mowers": "Lawn Mowers",
  "power-tools": "Power Tools",
  chainsaws: "Chainsaws",
};

/** Lists: the default page size of the API. */
export const PAGE_SIZE_DEFAULT = 12;

/** The home page shows the API's first page of tools and of reviews, as GET /api/tool and /api/review give them. */
export const HOME_TOOLS_COUNT = PAGE_SIZE_DEFAULT;
export const HOME_REVIEWS_COUNT = PAGE_SIZE_DEFAULT;
/** What a phone shows of those (the rest is a tap away: 'See all tools'), so the home page stays a short scroll. */
export const HOME_PHONE_TOOLS = 4;
export const HOME_PHONE_REVIEWS = 3;
