/**
 * A tool's reviews on its page and the order page (issue 42): apart from REVIEW_TEXT, which the
 * home page's chunk carries, so these words download with the pages that show them.
 */
import { REVIEW_TEXT } from "./reviews";

export const TOOL_REVIEW_TEXT = {
  rating: REVIEW_TEXT.rating,
  verifiedPurchase: "Verified purchase",
  bodyRequired: "Please write your review",
  heading: "Customer reviews",
  toolEmpty: "No reviews of this tool yet.",
  average: (average: number, count: number) => `${average.toFixed(1)} out of 5 from ${count} ${count === 1 ? "review" : "reviews"}`,
  starsRow: (stars: number) => `${stars} ${stars === 1 ? "star" : "stars"}`,
  starsCount: (stars: number, count: number) => `${stars} ${stars === 1 ? "star" : "stars"}: ${count} ${count === 1 ? "review" : "reviews"}`,
  sortLabel: "Sort reviews",
  sorts: { newest: "Newest first", "rating-desc": "Highest rated", "rating-asc": "Lowest rated" },
  show: "Show",
  previous: "Previous reviews",
  next: "More reviews",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  byOn: (name: string, date: string) => `${name}, ${date}`,
  // Writing one.
  write: "Write a review",
  writeFor: (tool: string) => `Review ${tool}`,
  ratingLabel: "Your rating",
  titleLabel: "Title (optional)",
  bodyLabel: "Your review",
  submit: "Post review",
  posted: "Thank you! Your review is posted.",
  signInToReview: "Log in to review this tool",
  notABuyer: "Only customers who received this tool can review it.",
  alreadyReviewed: "You have reviewed this tool already.",
  reviewFromOrder: "Review this tool",
} as const;
