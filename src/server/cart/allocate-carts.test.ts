import { describe, expect, it } from "vitest";
import { allocateCarts, type ToolState } from "./allocate-carts";

const tool = (id: string, availableQuantity: number, minimumQuantity = 1, active = true): [string, ToolState] => [
  id,
  { id, name: id.toUpperCase(), active, minimumQuantity, availableQuantity },
];

describe("allocateCarts", () => {
  it("serves carts in arrival order; a cart that no longer fits is refused whole, with each bad line", () => {
    const tools = new Map([tool("a", 5), tool("b", 3)]);
    const { decisions, remaining } = allocateCarts(tools, [
      { lines: [{ toolId: "a", quantity: 2 }, { toolId: "b", quantity: 2 }] },
      { lines: [{ toolId: "a", quantity: 2 }, { toolId: "b", quantity: 2 }] },
      { lines: [{ toolId: "a", quantity: 3 }] },
    ]);
    expect(decisions).toEqual([
      { kind: "accept" },
      { kind: "refuse", problems: [{ toolId: "b", name: "B", problem: "NOT_ENOUGH_STOCK", minimumQuantity: 1, availableQuantity: 1 }] },
      { kind: "accept" },
    ]);
    // The refused cart took nothing.
    expect(Object.fromEntries(remaining)).toEqual({ a: 0, b: 1 });
  });

  it("names lines below the minimum and tools no longer sold", () => {
    const tools = new Map([tool("a", 10, 3), tool("b", 10, 1, false)]);
    const { decisions } = allocateCarts(tools, [{ lines: [{ toolId: "a", quantity: 2 }, { toolId: "b", quantity: 1 }] }]);
    expect(decisions).toEqual([
      {
        kind: "refuse",
        problems: [
          { toolId: "a", name: "A", problem: "BELOW_MINIMUM", minimumQuantity: 3, availableQuantity: 10 },
          { toolId: "b", name: "B", problem: "UNAVAILABLE", minimumQuantity: 1, availableQuantity: 0 },
        ],
      },
    ]);
  });
});
