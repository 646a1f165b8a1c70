import { describe, expect, it } from "vitest";
import { tradePriceCents, unitPriceFor } from "./price-tiers";

const TIERS = [
  { minQuantity: 10, priceCents: 11_900 },
  { minQuantity: 50, priceCents: 10_900 },
];

describe("unitPriceFor", () => {
  it("the list price below the first tier, the last tier reached above it", () => {
    expect([1, 9, 10, 49, 50, 500].map((q) => unitPriceFor(12_900, TIERS, q))).toEqual([12_900, 12_900, 11_900, 11_900, 10_900, 10_900]);
  });

  it("a trade discount comes off the price the quantity reaches, the tier's included (DESIGN: the lowest of list and tier price less discountPercent)", () => {
    // 12.5 %: $129 → $112.875 → $112.88 (half up); the 10+ tier's $119 → $104.125 → $104.13; the 50+ tier's $109 → $95.375 → $95.38.
    expect([1, 10, 50].map((q) => unitPriceFor(12_900, TIERS, q, 1_250))).toEqual([11_288, 10_413, 9_538]);
  });

  it("rounds half up to the cent in integers, and no discount is the price itself", () => {
    expect(tradePriceCents(1_001, 5_000)).toBe(501); // 500.5 → 501
    expect(tradePriceCents(999, 5_000)).toBe(500); // 499.5 → 500
    expect(tradePriceCents(12_345, 0)).toBe(12_345);
    expect(tradePriceCents(12_345, 10_000)).toBe(0);
  });
});
