/** A review as the home page and a tool's page show it (features/reviews). */
export const REVIEW_TEXT = {
  empty: "No reviews yet. Be the first to write one.",
  rating: (rating: number) => `Rated ${rating} out of 5`,
  verifiedBuyer: "Verified buyer",
  // A tool card's rating line is in ./site.ts (TEXT.card), the tool page's words in ./tool-reviews.ts.
} as const;
