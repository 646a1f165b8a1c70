/** Money is stored as integer cents and sent by the API as dollars. */
export const centsToDollars = (cents: number): number => cents / 100;
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

/*
 * Formatted by hand, not with Intl.NumberFormat: a page's first Intl number format took Chromium
 * 33-79 ms to make (bench/intl-format.mjs), four times that at Lighthouse's CPU slowdown, in the
 * task that evaluates the app's code (decision 0011). The output is Intl's en-US format for
 * every amount of whole cents (money.test.ts compares them up to $20,000).
 */

/** `1234567` → `1,234,567` */
export const formatWhole = (n: number): string => String(Math.trunc(n)).replace(/\B(?=(\d{3})+$)/g, ",");

// formatDollars is ./dollars.ts's (the home page's cards need it alone, see there).
export { formatDollars } from "./dollars";
