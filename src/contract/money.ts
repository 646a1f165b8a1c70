/** Money is stored as integer cents and sent by the API as dollars. */
export const centsToDollars = (cents: number): number => cents / 100;
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
/** `1234.5` → `$1,234.50` */
export const formatDollars = (dollars: number): string => usd.format(dollars);
