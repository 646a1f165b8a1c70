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
  brand: "Brand",
  breadcrumb: "Breadcrumb",
  home: "Home",
  specifications: "Specifications",
  specName: "Specification",
  specValue: "Value",
  yes: "Yes",
  no: "No",
  /** A product's choice that no tool of it has (with the other options as chosen). */
  unavailable: "unavailable",
  /** A product's choice whose tool is sold out: still a link, to its page. */
  choiceOutOfStock: "out of stock",
  /** The photos of a tool with more than one (a strip to swipe, thumbnails, arrows). */
  photos: (name: string) => `Photos of ${name}`,
  photoAlt: (name: string, n: number, of: number) => `${name}, photo ${n} of ${of}`,
  showPhoto: (n: number, of: number) => `Show photo ${n} of ${of}`,
  previousPhoto: "Previous photo",
  nextPhoto: "Next photo",
} as const;
