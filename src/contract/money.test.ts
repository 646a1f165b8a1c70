import { describe, expect, it } from "vitest";
import { centsToDollars, dollarsToCents, formatDollars } from "./money";

describe("money", () => {
  it("round-trips cents and dollars without float drift", () => {
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(centsToDollars(123450)).toBe(1234.5);
  });
  it("formats dollars as the UI shows them", () => {
    expect(formatDollars(1234.5)).toBe("$1,234.50");
    expect(formatDollars(7)).toBe("$7.00");
  });
});
