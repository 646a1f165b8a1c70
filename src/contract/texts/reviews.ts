/** A review as the home page and a tool's page show it (features/reviews). */
export const REVIEW_TEXT = {
  empty: "No reviews yet. Be the first to write one.",
  rating: (rating: number) => `Rated ${rating} out of 5`,
  verifiedBuyer: "Verified buyer",
  // A tool's rating on the catalogue's cards (issue 42); the tool page's words are in ./tool-reviews.ts.
  cardRating: (average: number, count: number) => `Rated ${average.toFixed(1)} out of 5, ${count} ${count === 1 ? "review" : "reviews"}`,
  noRatingYet: "No reviews yet",
} as const;
