/**
 * Gapless document numbers per kind and year (`INV-2026-000001`, `CN-2026-000001`; DESIGN "Money"),
 * and quotes' (`Q-2026-000001`; DESIGN "Quotes").
 *
 * A number comes from the `document_counters` row of its kind and year, bumped by ONE upsert in the
 * caller's transaction. The upsert locks the row until that transaction ends, so:
 * - two transactions never get the same number: the second waits for the first to commit, then
 *   sees its `last` (Postgres re-reads the row an ON CONFLICT update waits for);
 * - a transaction that rolls back takes its bump with it, and the next one gets the same numbers
 *   again: no gap. A Postgres sequence would leave one (nextval is never rolled back), which is why
 *   there is none here.
 * The price is that every transaction taking a number of a kind waits for the one before it to
 * finish: take numbers as late as possible in the transaction (after the stock and the code are
 * locked and checked), so the counter is held only for the last statements and the commit.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "../db/client";
import { documentCounters } from "../db/schema";
import { DEFAULT_STORE_TIME_ZONE } from "../../contract/money-schemas";

export type DocumentKind = "INV" | "CN" | "Q" | "SH";

const DIGITS = 6;

/** The store's time zone when it has saved none (DESIGN "Money"). */
export const DEFAULT_TIME_ZONE = DEFAULT_STORE_TIME_ZONE;

/** The year of `at` in `timeZone` (an IANA name), as the store's documents read it. */
export const yearIn = (at: Date, timeZone: string): number => Number(new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }).format(at));

/** The date of `at` in `timeZone`, YYYY-MM-DD, as the store's documents print it. */
export const dateIn = (at: Date, timeZone: string): string => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

/** The year, in SQL, that a document issued at `at` is numbered in: the store's (`store_settings.time_zone`), read in the same statement. */
const storeYearSql = (at: Date): SQL =>
  sql`extract(year from (${at.toISOString()}::timestamptz at time zone coalesce((select time_zone from store_settings where id = 1), ${DEFAULT_TIME_ZONE})))::int`;

/** A document issued now: its year is the store's, read by the statement that numbers it. */
export const documentYear = (at: Date = new Date()): Date => at;

/** `INV`, 2026, 1 → `INV-2026-000001`. */
export const formatDocumentNumber = (kind: DocumentKind, year: number, n: number): string => `${kind}-${year}-${String(n).padStart(DIGITS, "0")}`;

/**
 * The upsert that reserves `count` numbers and returns the counter's new `last` (one row, column
 * `last`): for a caller that writes its documents in one statement and runs this as a CTE of it.
 * The numbers are last − count + 1 … last; `documentNumberSql` writes each in SQL.
 */
export function reserveDocumentNumbersSql(kind: DocumentKind, year: number | Date, count: number): SQL {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a positive integer, got ${count}`);
  const y = typeof year === "number" ? sql`${year}` : storeYearSql(year);
  return sql`
    insert into ${documentCounters} (kind, year, last) values (${kind}, ${y}, ${count})
    on conflict (kind, year) do update set last = ${documentCounters}.last + excluded.last
    returning year, last`;
}

/** The number `n` (an SQL integer expression) formatted in SQL exactly as `formatDocumentNumber` does. */
export const documentNumberSql = (kind: DocumentKind, year: number, n: SQL): SQL => sql`(${`${kind}-${year}-`} || lpad((${n})::text, ${DIGITS}, '0'))`;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Takes `count` consecutive numbers of `kind` for `year` (or for the store's year at a moment:
 * its time zone read in the same statement, no round trip of its own) in `tx`, in order. The counter row stays
 * locked until `tx` ends (see above): call it late in the transaction. A transaction, not the
 * database: outside one the number would be kept even when what it numbers fails.
 */
export async function takeDocumentNumbers(tx: Tx, kind: DocumentKind, year: number | Date, count: number): Promise<string[]> {
  const [row] = rowsOf<{ year: number | string; last: number | string }>(await tx.execute(reserveDocumentNumbersSql(kind, year, count)));
  if (!row) throw new Error("document counter upsert returned no row");
  const last = Number(row.last);
  return Array.from({ length: count }, (_, i) => formatDocumentNumber(kind, Number(row.year), last - count + 1 + i));
}
