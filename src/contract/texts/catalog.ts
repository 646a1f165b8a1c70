/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** The catalogue page (`/tools`). */
export const CATALOG_TEXT = {
  heading: "All Tools",
  searchLabel: "Search tools",
  searchPlaceholder: "Search by name or description",
  search: "Search",
  categoryLabel: "Category",
  allCategories: "All categories",
  empty: "No tools match your search.",
  previous: "Previous",
  next: "Next",
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  price: "Price",
  available: "Available",
  minimum: "Minimum order",
  results: (count: number) => `${count} ${count === 1 ? "tool" : "tools"}`,
} as const;
