import { desc, eq } from "drizzle-orm";
import type { Review, ReviewInput } from "../../contract/schemas";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { pageWithTotal, totalOver } from "../db/paging";
import { reviews } from "../db/schema";

type ReviewRow = typeof reviews.$inferSelect;

const toReviewDto = (row: ReviewRow): Review => ({
  _id: row.id,
  name: row.name,
  rating: row.rating,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
});

export async function listReviews(db: Db, page: number, limit: number): Promise<{ items: Review[]; total: number }> {
  const visible = eq(reviews.hidden, false);
  const result = await pageWithTotal(
    db
      .select({ row: reviews, total: totalOver() })
      .from(reviews)
      .where(visible)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(limit)
      .offset((page - 1) * limit),
    page,
    () => db.$count(reviews, visible),
  );
  return { items: result.items.map(toReviewDto), total: result.total };
}

export async function addReview(db: Db, userId: string, input: ReviewInput): Promise<Review> {
  const [row] = await db
    .insert(reviews)
    .values({ ...input, userId })
    .returning();
  if (!row) throw new Error("insert returned no row");
  announceChange(db, "reviews");
  return toReviewDto(row);
}
