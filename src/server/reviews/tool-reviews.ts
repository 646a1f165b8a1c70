/**
 * A tool's reviews (issue 42): written once per customer and tool by a customer who received it,
 * listed newest first or by rating, summed up by the database (the tool's rating_count and
 * rating_sum, kept by a trigger: migration 0020), hidden by the console's moderation like the
 * store-wide ones (a hidden review leaves the list and the average).
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { ToolReview, ToolReviewInput, ToolRatingSummary, ToolReviewSort, ReviewEligibility } from "../../contract/review-schemas";
import { RATING_MAX, RATING_MIN } from "../../contract/constants";
import { API_TEXT } from "../../contract/texts/api";
import { TOOL_REVIEW_TEXT } from "../../contract/texts/tool-reviews";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { orderLines, orders, reviews, tools, user } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { ratingOf } from "../catalog/service";

type ReviewRow = typeof reviews.$inferSelect;

export const toToolReviewDto = (row: ReviewRow): ToolReview => ({
  _id: row.id,
  rating: row.rating,
  title: row.title,
  body: row.description,
  name: row.name,
  verified: row.verified,
  createdAt: row.createdAt.toISOString(),
});

const visibleOf = (toolId: string) => and(eq(reviews.toolId, toolId), eq(reviews.hidden, false));

const ORDERS: Record<ToolReviewSort, ReturnType<typeof desc>[]> = {
  newest: [desc(reviews.createdAt), desc(reviews.id)],
  "rating-desc": [desc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
  "rating-asc": [asc(reviews.rating), desc(reviews.createdAt), desc(reviews.id)],
};

/** The tool's row (active ones only), or a 404. */
async function activeTool(db: Db, toolId: string) {
  const [tool] = await db
    .select({ id: tools.id, ratingTenths: tools.ratingTenths, ratingCount: tools.ratingCount })
    .from(tools)
    .where(and(eq(tools.id, toolId), eq(tools.active, true)));
  if (!tool) throw notFound(API_TEXT.toolNotFound);
  return tool;
}

/** A page of the tool's visible reviews; the total is the tool's own count (no counting). */
export async function listToolReviews(
  db: Db,
  toolId: string,
  query: { sort: ToolReviewSort; page: number; limit: number },
): Promise<{ items: ToolReview[]; total: number }> {
  const tool = await activeTool(db, toolId);
  const rows = await db
    .select()
    .from(reviews)
    .where(visibleOf(toolId))
    .orderBy(...ORDERS[query.sort])
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return { items: rows.map(toToolReviewDto), total: tool.ratingCount };
}

/** The average and count (the tool's, kept by the trigger) and the reviews per number of stars. */
export async function toolRatingSummary(db: Db, toolId: string): Promise<ToolRatingSummary> {
  const tool = await activeTool(db, toolId);
  const rows = await db
    .select({ rating: reviews.rating, n: sql<number>`count(*)`.mapWith(Number) })
    .from(reviews)
    .where(visibleOf(toolId))
    .groupBy(reviews.rating);
  const byStars = new Map(rows.map((r) => [r.rating, r.n]));
  const stars = [];
  for (let s = RATING_MAX; s >= RATING_MIN; s--) stars.push({ stars: s, count: byStars.get(s) ?? 0 });
  return { ...ratingOf(tool), stars };
}

/** Whether `userId` received the tool: a delivered order with a line of it. */
async function receivedTool(db: Db, userId: string, toolId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    .where(and(eq(orders.userId, userId), eq(orders.status, "delivered"), eq(orderLines.toolId, toolId)))
    .limit(1);
  return row !== undefined;
}

async function reviewedAlready(db: Db, userId: string, toolId: string): Promise<boolean> {
  return (await db.$count(reviews, and(eq(reviews.toolId, toolId), eq(reviews.userId, userId)))) > 0;
}

export async function reviewEligibility(db: Db, userId: string, toolId: string): Promise<ReviewEligibility> {
  await activeTool(db, toolId);
  if (await reviewedAlready(db, userId, toolId)) return { canReview: false, reason: "ALREADY_REVIEWED" };
  if (!(await receivedTool(db, userId, toolId))) return { canReview: false, reason: "NOT_A_BUYER" };
  return { canReview: true, reason: null };
}

/**
 * A customer's review of a tool they received: 403 NOT_A_BUYER otherwise, 409 ALREADY_REVIEWED
 * for a second one (the unique index decides between racing ones). The name shown is the account's.
 */
export async function addToolReview(db: Db, userId: string, toolId: string, input: ToolReviewInput & { title: string; body: string; rating: number }): Promise<ToolReview> {
  await activeTool(db, toolId);
  if (!(await receivedTool(db, userId, toolId))) throw new ApiError(403, "NOT_A_BUYER", TOOL_REVIEW_TEXT.notABuyer);
  const [author] = await db.select({ name: user.name }).from(user).where(eq(user.id, userId));
  const [row] = await db
    .insert(reviews)
    .values({ toolId, userId, name: author?.name ?? "", rating: input.rating, title: input.title, description: input.body, verified: true })
    .onConflictDoNothing({ target: [reviews.toolId, reviews.userId], where: sql`${reviews.toolId} is not null and ${reviews.userId} is not null` })
    .returning();
  if (!row) throw conflict("ALREADY_REVIEWED", TOOL_REVIEW_TEXT.alreadyReviewed);
  // The tool's rating changed: its page and the catalogue's cards show it.
  announceChange(db, "tools");
  return toToolReviewDto(row);
}
