import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Review, ReviewInput } from "../../contract/schemas";
import type { AdminReview } from "../../contract/admin-schemas";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { after, cappedCount, keptCount, splitPage, type Page } from "../db/paging";
import { decodeCursor } from "../http/paging";
import { badQuery } from "../http/errors";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import { orders, reviews, tools, user } from "../db/schema";

type ReviewRow = typeof reviews.$inferSelect;

const toReviewDto = (row: ReviewRow, verifiedBuyer: boolean): Review => ({
  _id: row.id,
  name: row.name,
  rating: row.rating,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
  ...(verifiedBuyer ? { verifiedBuyer: true as const } : {}),
});

/** The review's author has an order of the store that was delivered. */
const verifiedBuyer = () =>
  // Spelled out with aliases: Drizzle writes a one-table select's columns unqualified, and
  // "user_id" inside the subquery would then be the order's own.
  sql<boolean>`exists (select 1 from ${orders} as delivered where delivered.user_id = "reviews"."user_id" and delivered.status = 'delivered')`.mapWith(
    // Drivers hand a boolean over as true/false or as 't'/'f' (a plain Boolean() would read 'f' as true).
    (v: unknown) => v === true || v === "t" || v === "true",
  );

/**
 * The public list, newest first, from the index of visible reviews: a page number up to
 * MAX_PAGE, or the cursor of the page before (any depth at the cost of one page). The total is
 * kept by a trigger (list_counts).
 */
/**
 * The authors among `userIds` who have a delivered order: one probe of the delivered orders'
 * index per author of the page. (As a subquery of the list, Postgres hashed every delivered
 * order of the store first: 870 ms at a million orders.)
 */
async function verifiedAuthors(db: Db, userIds: (string | null)[]): Promise<Set<string>> {
  const ids = [...new Set(userIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ userId: orders.userId })
    .from(orders)
    .where(and(inArray(orders.userId, ids), eq(orders.status, "delivered")));
  return new Set(rows.flatMap((row) => (row.userId === null ? [] : [row.userId])));
}

export async function listReviews(db: Db, query: { page: number; limit: number; cursor?: string | undefined }): Promise<Page<Review>> {
  // The spec's store-wide reviews: a tool's own reviews are on its page (issue 42).
  const conditions = [eq(reviews.hidden, false), isNull(reviews.toolId)];
  if (query.cursor) {
    const [created, id] = decodeCursor(query.cursor, ["string", "string"]);
    if (Number.isNaN(Date.parse(String(created)))) throw badQuery("cursor", VALIDATION_TEXT.cursorInvalid);
    conditions.push(after([sql`${reviews.createdAt}`, sql`${reviews.id}`], [sql`${created}::timestamptz`, sql`${id}`], true));
  }
  const select = db
    .select({ review: reviews, created: sql<string>`${reviews.createdAt}::text` })
    .from(reviews)
    .where(and(...conditions))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(query.limit + 1);
  const [rows, total] = await Promise.all([query.cursor ? select : select.offset((query.page - 1) * query.limit), keptCount(db, "reviews")]);
  const page = splitPage(rows, query.limit, (row) => [row.created, row.review.id]);
  const verified = await verifiedAuthors(db, page.rows.map((r) => r.review.userId));
  return { items: page.rows.map((r) => toReviewDto(r.review, r.review.userId !== null && verified.has(r.review.userId))), ...total, next: page.next };
}

export async function addReview(db: Db, userId: string, input: ReviewInput): Promise<Review> {
  const [row] = await db
    .insert(reviews)
    .values({ ...input, userId })
    .returning();
  if (!row) throw new Error("insert returned no row");
  announceChange(db, "reviews");
  const [verified] = await db.select({ verified: verifiedBuyer() }).from(reviews).where(eq(reviews.id, row.id));
  return toReviewDto(row, verified?.verified ?? false);
}

/** A tool review's tool and title for the console (issue 42); nothing for a store-wide review. */
const toolOf = (review: ReviewRow, toolName: string | null) =>
  review.toolId === null ? {} : { toolId: review.toolId, toolName: toolName ?? "", title: review.title };

/** Every review, hidden ones too, newest first, for the console. */
export async function listAdminReviews(
  db: Db,
  query: { hidden?: boolean | undefined; page: number; limit: number },
): Promise<Page<AdminReview>> {
  const where = query.hidden === undefined ? undefined : eq(reviews.hidden, query.hidden);
  const [rows, total] = await Promise.all([
    db
      .select({ review: reviews, email: user.email, toolName: tools.name })
      .from(reviews)
      .leftJoin(user, eq(user.id, reviews.userId))
      .leftJoin(tools, eq(tools.id, reviews.toolId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(reviews).where(where).$dynamic()),
  ]);
  const verified = await verifiedAuthors(db, rows.map((r) => r.review.userId));
  return {
    items: rows.map(({ review, email, toolName }) => ({
      ...toReviewDto(review, review.userId !== null && verified.has(review.userId)),
      hidden: review.hidden,
      authorEmail: email,
      ...toolOf(review, toolName),
    })),
    ...total,
  };
}

export async function getAdminReview(db: Db | Tx, id: string): Promise<AdminReview | undefined> {
  const [row] = await db
    .select({ review: reviews, verified: verifiedBuyer(), email: user.email, toolName: tools.name })
    .from(reviews)
    .leftJoin(user, eq(user.id, reviews.userId))
    .leftJoin(tools, eq(tools.id, reviews.toolId))
    .where(eq(reviews.id, id));
  return row ? { ...toReviewDto(row.review, row.verified), hidden: row.review.hidden, authorEmail: row.email, ...toolOf(row.review, row.toolName) } : undefined;
}

/** Hides or restores a review; returns it as it was and as it is, or undefined for an unknown id. */
export async function setReviewHidden(tx: Tx, id: string, hidden: boolean): Promise<{ before: AdminReview; after: AdminReview } | undefined> {
  const before = await getAdminReview(tx, id);
  if (!before) return undefined;
  await tx.update(reviews).set({ hidden }).where(and(eq(reviews.id, id)));
  const after = (await getAdminReview(tx, id)) as AdminReview;
  return { before, after };
}

/** The key of a review list page in `app.lists.reviews` (plugins/caches.ts): the API route and the page renderer share it. */
export const reviewListKey = (q: { page: number; limit: number; cursor?: string | undefined }) => JSON.stringify([q.page, q.limit, q.cursor ?? ""]);
