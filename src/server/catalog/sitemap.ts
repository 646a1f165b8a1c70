/**
 * The sitemap's reads (plugins/crawlers.ts). Tools are listed in the catalogue's own key order,
 * (created_at, id), the order of the shop's active-tools index (`tools_active_created_idx`):
 * a part of the sitemap is one keyset read of that index after the last tool of the part before
 * it, never an OFFSET, so the last part of a large catalogue costs what the first does. New tools
 * come last, so adding tools leaves the earlier parts as they were.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { after, keptCount } from "../db/paging";
import { tools } from "../db/schema";

/** A sitemap file holds at most 50,000 addresses and 50 MB (sitemaps.org). */
export const SITEMAP_URL_LIMIT = 50_000;

export interface SitemapTool {
  id: string;
  updatedAt: Date;
}

/**
 * A tool's place in the key order: its created_at as Postgres writes it (a JavaScript Date keeps
 * milliseconds, the column microseconds) and its id.
 */
export type ToolKey = readonly [created: string, id: string];

/** How many tools are active: the count the database's triggers keep (`list_counts`), one primary-key read. */
export async function countActiveTools(db: Db): Promise<number> {
  return (await keptCount(db, "tools")).total;
}

/**
 * Up to `limit` active tools in key order, after `from` when given (else from the first). The
 * statement itself, awaited for its rows (a test reads its plan).
 */
export function sitemapTools(db: Db, from: ToolKey | undefined, limit: number) {
  const conditions = [eq(tools.active, true)];
  if (from) conditions.push(after([sql`${tools.createdAt}`, sql`${tools.id}`], [sql`${from[0]}::timestamptz`, sql`${from[1]}`], false));
  return db
    .select({ id: tools.id, updatedAt: tools.updatedAt })
    .from(tools)
    .where(and(...conditions))
    .orderBy(asc(tools.createdAt), asc(tools.id))
    .limit(limit);
}

/**
 * The keys of the active tools at ranks `first`, `first + step`, `first + 2·step`… (0-based, in
 * key order): where each part of the sitemap ends. One pass over the index of that order (an
 * index-only scan once the table is vacuumed), whatever the number of parts.
 */
export async function toolKeysEvery(db: Db, first: number, step: number): Promise<ToolKey[]> {
  const rows = await toolKeysEveryQuery(db, first, step);
  return rows.map((row) => [row.created, row.id] as const);
}

/** The statement of `toolKeysEvery` (a test reads its plan). */
export function toolKeysEveryQuery(db: Db, first: number, step: number) {
  const ranked = db
    .select({
      createdAt: tools.createdAt,
      id: tools.id,
      rank: sql<number>`row_number() over (order by ${tools.createdAt}, ${tools.id}) - 1`.as("rank"),
    })
    .from(tools)
    .where(eq(tools.active, true))
    .as("ranked");
  return (
    db
      // Only the keys kept are written as text, not every tool's.
      .select({ created: sql<string>`${ranked.createdAt}::text`, id: ranked.id })
      .from(ranked)
      .where(sql`${ranked.rank} >= ${first}::bigint and (${ranked.rank} - ${first}::bigint) % ${step}::bigint = 0`)
      .orderBy(ranked.rank)
  );
}
