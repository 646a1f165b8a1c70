/**
 * The store's calendar (DESIGN "Money": dates on documents are the store's, `America/New_York`):
 * a trade invoice's due date, the month a member's spending limit counts, an exemption's expiry
 * and the statement's ageing are days in this time zone.
 */
export const STORE_TIME_ZONE = "America/New_York";

// Made on first use: a page that never shows a date pays nothing for it (decision 0011).
let dayFormat: Intl.DateTimeFormat | undefined;

/** The store's calendar day at `at`, `YYYY-MM-DD`. */
export function storeDate(at: Date): string {
  dayFormat ??= new Intl.DateTimeFormat("en-CA", { timeZone: STORE_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });
  return dayFormat.format(at);
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (both `YYYY-MM-DD`); negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
