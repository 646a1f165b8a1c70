/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */
import { formatWhole } from "../money";

/** The catalogue page (`/tools`). */
export const CATALOG_TEXT = {
  heading: "All Tools",
  searchLabel: "Search tools",
  searchPlaceholder: "Search by name or description",
  search: "Search",
  categoryLabel: "Category",
  allCategories: "All categories",
  brandLabel: "Brand",
  /** A product's card (issue 50): how many tools it has, and its lowest price when that is not the one shown. */
  variants: (count: number, from: string | null) => `${count} options${from ? ` · from ${from}` : ""}`,
  empty: "No tools match your search.",
  previous: "Previous",
  next: "Next",
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  price: "Price",
  available: "Available",
  minimum: "Minimum order",
  /** `exact` is false when the API only says "more than" (`X-Total-Count-Exact: false`). */
  results: (count: number, exact = true) =>
    exact ? `${formatWhole(count)} ${count === 1 ? "tool" : "tools"}` : `${formatWhole(count)}+ tools`,
  pageOfMany: (page: number, pages: number) => `Page ${page} of more than ${formatWhole(pages)}`,
  sortLabel: "Sort by",
  sorts: {
    oldest: "Oldest first",
    newest: "Newest first",
    "price-asc": "Price: low to high",
    "price-desc": "Price: high to low",
    rating: "Best rated",
    relevance: "Best match",
  },
  priceRange: "Price range",
  minPrice: "Min price ($)",
  maxPrice: "Max price ($)",
  applyPrice: "Apply",
  /** Without JavaScript the category and sort are sent with this button (a plain GET form). */
  applyFilters: "Show",
  clearPrice: "Clear",
  suggestions: "Suggestions",
  suggestionsCount: (count: number) =>
    count === 0 ? "No suggestions" : `${count} ${count === 1 ? "suggestion" : "suggestions"}: use the up and down arrows to choose`,
} as const;
