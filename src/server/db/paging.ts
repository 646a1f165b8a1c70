import { eq, sql, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import { COUNT_CAP } from "../../contract/constants";
import type { Db } from "./client";
import { listCounts } from "./schema";

/*
 * Lists at a merchant's size (docs/decisions/0013): a page never counts every matching row
 * and never walks an OFFSET deeper than MAX_PAGE pages.
 *
 * Counts are bigint in Postgres: node-postgres hands them over as text, PGlite as numbers;
 * they are mapped to number here, once.
 */

/** A list's total as the API reports it: exact up to COUNT_CAP, else COUNT_CAP and `exact: false`. */
export interface Total {
  total: number;
  exact: boolean;
}

/** A page of a list: its rows, its total and, when more rows follow, the cursor of the next page. */
export interface Page<Item> extends Total {
  items: Item[];
  next?: string | undefined;
}

/**
 * Counts the rows of `rows` (a select of the list's own filter, any columns) up to
 * COUNT_CAP + 1: reading 1,001 index entries answers "more than 1,000" as well as a count of
 * a million would.
 */
export async function cappedCount(db: Db, rows: PgSelect): Promise<Total> {
  const capped = rows.limit(COUNT_CAP + 1).as("capped");
  const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
  return cappedTotal(row?.n ?? 0);
}

/** A count of at most COUNT_CAP + 1 rows, as the API reports it. */
export const cappedTotal = (n: number): Total => (n > COUNT_CAP ? { total: COUNT_CAP, exact: false } : { total: n, exact: true });

const prepareKeptCount = (db: Db) =>
  db.select({ n: listCounts.n }).from(listCounts).where(eq(listCounts.list, sql.placeholder("list"))).prepare("list_count");
const keptCounts = new WeakMap<Db, ReturnType<typeof prepareKeptCount>>();

/** A total kept by the database's triggers (`list_counts`): one primary-key read (prepared once), always exact. */
export async function keptCount(db: Db, list: string): Promise<Total> {
  let statement = keptCounts.get(db);
  if (!statement) keptCounts.set(db, (statement = prepareKeptCount(db)));
  const [row] = await statement.execute({ list });
  return { total: Number(row?.n ?? 0), exact: true };
}

/** A cursor holds the sort key of the last row served: opaque to clients (base64url JSON). */
export type CursorKey = (string | number)[];

export const encodeCursor = (key: CursorKey): string => Buffer.from(JSON.stringify(key)).toString("base64url");

/**
 * The keyset condition "after this key" for a list ordered by `columns` (all ascending or all
 * descending): a row comparison, which Postgres answers from the index of those columns.
 */
export function after(columns: SQL[], key: SQL[], descending: boolean): SQL {
  const left = sql.join(columns, sql`, `);
  const right = sql.join(key, sql`, `);
  return descending ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
}

/**
 * Rows fetched with one more than the page holds: the extra one says another page follows,
 * and the last served row's key becomes the cursor of the next.
 */
export function splitPage<Row>(rows: Row[], limit: number, keyOf: (row: Row) => CursorKey): { rows: Row[]; next?: string } {
  if (rows.length <= limit) return { rows };
  const served = rows.slice(0, limit);
  return { rows: served, next: encodeCursor(keyOf(served[served.length - 1] as Row)) };
}
