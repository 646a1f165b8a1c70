/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */

/** A tool's public page (`/tools/:id`). */
export const TOOL_TEXT = {
  inStock: "In stock",
  onlyLeft: (count: number) => `Only ${count} left`,
  outOfStock: "Out of stock",
  minimum: "Minimum order quantity",
  category: "Category",
  bookNow: "Book Now",
  notFoundTitle: "Tool not found",
  notFound: "We could not find this tool. It may have been removed from the catalogue.",
  backToTools: "Browse all tools",
  related: "Related tools",
} as const;
