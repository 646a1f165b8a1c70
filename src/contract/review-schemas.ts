/**
 * A tool's reviews (issue 42, DESIGN `GET/POST /api/tool/:id/reviews`): one schema per payload,
 * used by the review form and the route alike.
 */
import { LIMITS, MAX_PAGE, PAGE_SIZE_MAX, RATING_MAX, RATING_MIN } from "./constants";
import { TOOL_REVIEW_TEXT } from "./texts/tool-reviews";
import { VALIDATION_TEXT } from "./texts/validation";
import { TOOL_REVIEW_SORTS, TOOL_REVIEWS_PAGE_SIZE } from "./review-constants";
import { z } from "./zod";

export { JSON_LD_REVIEWS, TOOL_REVIEW_SORTS, TOOL_REVIEWS_PAGE_SIZE } from "./review-constants";
export type { ToolReviewSort } from "./review-constants";

export const toolReviewInputSchema = z.object({
  rating: z.coerce
    .number({ error: VALIDATION_TEXT.ratingRange })
    .int(VALIDATION_TEXT.ratingRange)
    .min(RATING_MIN, VALIDATION_TEXT.ratingRange)
    .max(RATING_MAX, VALIDATION_TEXT.ratingRange),
  title: z.string().trim().max(LIMITS.reviewTitle, VALIDATION_TEXT.tooLong(LIMITS.reviewTitle)).default(""),
  body: z
    .string({ error: TOOL_REVIEW_TEXT.bodyRequired })
    .trim()
    .min(1, TOOL_REVIEW_TEXT.bodyRequired)
    .max(LIMITS.reviewDescription, VALIDATION_TEXT.tooLong(LIMITS.reviewDescription)),
});
export type ToolReviewInput = z.input<typeof toolReviewInputSchema>;

/** DESIGN "(shapes)": tool review. */
export const toolReviewSchema = z.object({
  _id: z.string(),
  rating: z.number().int(),
  title: z.string(),
  body: z.string(),
  name: z.string(),
  /** The author received the tool ('Verified purchase'). */
  verified: z.boolean(),
  createdAt: z.string(),
});
export type ToolReview = z.infer<typeof toolReviewSchema>;

export const toolReviewListQuerySchema = z.object({
  sort: z.enum(TOOL_REVIEW_SORTS).default("newest"),
  page: z.coerce.number().int().min(1).max(MAX_PAGE, VALIDATION_TEXT.pageTooDeep(MAX_PAGE)).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(TOOL_REVIEWS_PAGE_SIZE),
});
export type ToolReviewListQuery = z.input<typeof toolReviewListQuerySchema>;

/** The average to one decimal and the count of visible reviews, and how many gave each number of stars. */
export const toolRatingSummarySchema = z.object({
  average: z.number(),
  count: z.number().int(),
  /** Five entries, 5 stars first. */
  stars: z.array(z.object({ stars: z.number().int(), count: z.number().int() })),
});
export type ToolRatingSummary = z.infer<typeof toolRatingSummarySchema>;

/** Whether the signed-in customer may review the tool: a delivered order of it, and no review yet. */
export const reviewEligibilitySchema = z.object({
  canReview: z.boolean(),
  reason: z.enum(["NOT_A_BUYER", "ALREADY_REVIEWED"]).nullable(),
});
export type ReviewEligibility = z.infer<typeof reviewEligibilitySchema>;
