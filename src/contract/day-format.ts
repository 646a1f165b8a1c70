/**
 * A day as en-US's medium date in UTC ("Nov 28, 2026"), formatted by hand rather than with
 * Intl.DateTimeFormat: a page's first Intl format costs Chromium tens of milliseconds to make, four
 * times that at Lighthouse's CPU slowdown (src/contract/money.ts, decision 0011), and the tool page
 * made one as its code loaded, for its reviews' days. Intl's own output for every day of a decade
 * (day-format.test.ts).
 */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export const formatDay = (date: Date): string => `${MONTHS[date.getUTCMonth()] ?? ""} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
