import { describe, expect, it } from "vitest";
import { centsToDollars, dollarsToCents, formatDollars, formatWhole } from "./money";

// What the formatting must match: the browsers' and Node's own en-US formats.
const intlDollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const intlWhole = new Intl.NumberFormat("en-US");

describe("money", () => {
  it("round-trips cents and dollars without float drift", () => {
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(centsToDollars(123450)).toBe(1234.5);
  });
  it("formats dollars as the UI shows them", () => {
    expect(formatDollars(1234.5)).toBe("$1,234.50");
    expect(formatDollars(7)).toBe("$7.00");
    expect(formatDollars(0)).toBe("$0.00");
    expect(formatDollars(-12.5)).toBe("-$12.50");
    expect(formatDollars(1_000_000)).toBe("$1,000,000.00");
  });
  it("formats every amount of cents up to $20,000, and larger ones, as Intl's en-US currency format does", () => {
    const wrong: string[] = [];
    const check = (dollars: number) => {
      if (formatDollars(dollars) !== intlDollars.format(dollars)) wrong.push(`${dollars}: ${formatDollars(dollars)} vs ${intlDollars.format(dollars)}`);
    };
    for (let cents = 0; cents <= 2_000_000; cents += 1) check(centsToDollars(cents));
    for (const cents of [-1, -99, -100, -123456, 99_999_999, 1_234_567_891, 900_719_925_474]) check(centsToDollars(cents));
    // Sums of prices (a cart's total, an order's) are computed in cents, then shown in dollars.
    for (const cents of [1999 * 3, 4999 + 1999, 12345 * 7]) check(centsToDollars(cents));
    expect(wrong.slice(0, 5)).toEqual([]);
  });
  it("formats whole numbers with thousands separators, as Intl's en-US format does", () => {
    for (const n of [0, 1, 12, 999, 1000, 1001, 12_345, 100_016, 999_999, 1_000_100, 123_456_789, -1234]) {
      expect(formatWhole(n)).toBe(intlWhole.format(n));
    }
  });
});
