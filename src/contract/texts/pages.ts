/**
 * The words of pages that are chunks of their own (About, Q&A, the 404 page), apart from site.ts:
 * the app's chunk holds site.ts whole, so what is here would be in the home page's download.
 */
export const PAGES_TEXT = {
  about: { heading: "About Us" },
  blogs: { heading: "Questions & Answers" },
  notFound: {
    heading: "Page not found",
    body: "The page you are looking for does not exist or has moved.",
    imageAlt: "A lost toolbox next to the number 404",
  },
} as const;
