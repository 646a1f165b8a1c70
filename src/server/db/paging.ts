import { sql } from "drizzle-orm";

/**
 * Counts are bigint in Postgres: node-postgres hands them over as text, PGlite as numbers.
 * Call sites never convert them: a page's total comes from `totalOver()`, a plain count from
 * Drizzle's `db.$count(table, where)`, and both map to number here, once.
 */

/** `count(*) over()`: the total of the filtered rows, carried on every row of the page. */
export const totalOver = () => sql<number>`count(*) over()`.mapWith(Number);

/**
 * One round trip for a page and its total. Only a page past the end (no rows to carry
 * the total) costs a second query.
 */
export async function pageWithTotal<Row>(
  rows: Promise<{ row: Row; total: number }[]>,
  page: number,
  /** `() => db.$count(table, where)` with the page's own filter. */
  countFallback: () => Promise<number>,
): Promise<{ items: Row[]; total: number }> {
  const result = await rows;
  const first = result[0];
  if (first) return { items: result.map((r) => r.row), total: first.total };
  return { items: [], total: page > 1 ? await countFallback() : 0 };
}

