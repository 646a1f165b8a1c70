import { describe, expect, it } from "vitest";
import { allocate } from "./allocate";

describe("allocate", () => {
  it("fills orders in arrival order and never goes below zero", () => {
    const { decisions, remaining } = allocate(10, 2, [4, 1, 5, 3, 1, 1]);
    expect(decisions).toEqual([
      { kind: "accept", quantity: 4 },
      { kind: "below-minimum", minimum: 2 },
      { kind: "accept", quantity: 5 },
      { kind: "not-enough-stock", available: 1 },
      { kind: "below-minimum", minimum: 2 },
      { kind: "below-minimum", minimum: 2 },
    ]);
    expect(remaining).toBe(1);
  });

  it("keeps stock + accepted = initial for any batch", () => {
    for (let trial = 0; trial < 200; trial++) {
      const initial = Math.floor(Math.random() * 50);
      const quantities = Array.from({ length: 1 + Math.floor(Math.random() * 30) }, () => 1 + Math.floor(Math.random() * 6));
      const { decisions, remaining } = allocate(initial, 1, quantities);
      const taken = decisions.reduce((sum, d) => sum + (d.kind === "accept" ? d.quantity : 0), 0);
      expect(remaining).toBeGreaterThanOrEqual(0);
      expect(remaining + taken).toBe(initial);
    }
  });
});
