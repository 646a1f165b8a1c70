import { describe, expect, it } from "vitest";
import { fixingQuantity, problemText } from "./problems";

const line = (problem: Parameters<typeof problemText>[0]["problem"], minimumQuantity: number, availableQuantity: number) => ({
  problem,
  minimumQuantity,
  availableQuantity,
});

describe("a cart line's problem", () => {
  it("says nothing when the line can be ordered", () => {
    expect(problemText(line(null, 2, 10))).toBeNull();
    expect(fixingQuantity(line(null, 2, 10))).toBeNull();
  });

  it("below the minimum: names it and offers the minimum", () => {
    expect(problemText(line("BELOW_MINIMUM", 5, 10))).toBe("The minimum order for this tool is 5.");
    expect(fixingQuantity(line("BELOW_MINIMUM", 5, 10))).toBe(5);
  });

  it("more than the stock: names the stock and offers it", () => {
    expect(problemText(line("NOT_ENOUGH_STOCK", 2, 7))).toBe("Only 7 in stock.");
    expect(fixingQuantity(line("NOT_ENOUGH_STOCK", 2, 7))).toBe(7);
  });

  it("a minimum above the stock or no stock at all can only be removed", () => {
    expect(problemText(line("NOT_ENOUGH_STOCK", 10, 4))).toBe(
      "Only 4 in stock, below the minimum order of 10: it cannot be ordered now. Remove it to check out.",
    );
    expect(fixingQuantity(line("NOT_ENOUGH_STOCK", 10, 4))).toBeNull();
    expect(problemText(line("NOT_ENOUGH_STOCK", 1, 0))).toBe("This tool is out of stock. Remove it to check out.");
    expect(fixingQuantity(line("NOT_ENOUGH_STOCK", 1, 0))).toBeNull();
  });

  it("an archived tool can only be removed", () => {
    expect(problemText(line("UNAVAILABLE", 1, 10))).toBe("This tool is no longer sold. Remove it to check out.");
    expect(fixingQuantity(line("UNAVAILABLE", 1, 10))).toBeNull();
  });
});
