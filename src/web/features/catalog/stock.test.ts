import { describe, expect, it } from "vitest";
import { stockState } from "./stock";

describe("a tool's stock state", () => {
  it("is 'In stock' above the low-stock mark", () => {
    expect(stockState({ availableQuantity: 11, minimumQuantity: 1 })).toEqual({ text: "In stock", orderable: true });
  });
  it("is 'Only N left' from the mark down", () => {
    expect(stockState({ availableQuantity: 10, minimumQuantity: 1 })).toEqual({ text: "Only 10 left", orderable: true });
    expect(stockState({ availableQuantity: 1, minimumQuantity: 1 })).toEqual({ text: "Only 1 left", orderable: true });
  });
  it("is 'Out of stock' at 0 and when the minimum order is above the stock", () => {
    expect(stockState({ availableQuantity: 0, minimumQuantity: 1 })).toEqual({ text: "Out of stock", orderable: false });
    expect(stockState({ availableQuantity: 40, minimumQuantity: 50 })).toEqual({ text: "Out of stock", orderable: false });
  });
});
