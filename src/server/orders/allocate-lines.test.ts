import { describe, expect, it } from "vitest";
import { ApiError } from "../http/errors";
import { allocateLines, type ToolState } from "./allocate-lines";
import { purchaseRefusal } from "./desk";

const tool = (id: string, availableQuantity: number, minimumQuantity = 1, active = true): [string, ToolState] => [
  id,
  { id, name: id.toUpperCase(), active, minimumQuantity, availableQuantity },
];

describe("allocateLines", () => {
  it("serves carts in arrival order; a cart that no longer fits is refused whole, with each bad line", () => {
    const tools = new Map([tool("a", 5), tool("b", 3)]);
    const { decisions, remaining } = allocateLines(tools, [
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
    const { decisions } = allocateLines(tools, [{ lines: [{ toolId: "a", quantity: 2 }, { toolId: "b", quantity: 1 }] }]);
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

describe("one-line requests (the purchase page) through allocateLines and the purchase page's answers", () => {
  it("fills orders in arrival order, answering below-minimum before short stock", () => {
    const tools = new Map([tool("a", 10, 2)]);
    const quantities = [4, 1, 5, 3, 1, 1];
    const { decisions, remaining } = allocateLines(
      tools,
      quantities.map((quantity) => ({ lines: [{ toolId: "a", quantity }] })),
    );
    const answers = decisions.map((d, i) => (d.kind === "accept" ? "placed" : d.kind === "refuse" ? purchaseRefusal({ kind: "lines", problems: d.problems }, quantities[i] as number) : d));
    expect(answers.map((a) => (a instanceof ApiError ? [a.statusCode, a.code, a.extra] : a))).toEqual([
      "placed",
      [400, "BELOW_MINIMUM", expect.anything()],
      "placed",
      [409, "NOT_ENOUGH_STOCK", { available: 1 }],
      [400, "BELOW_MINIMUM", expect.anything()],
      [400, "BELOW_MINIMUM", expect.anything()],
    ]);
    expect(Object.fromEntries(remaining)).toEqual({ a: 1 });
  });

  it("keeps stock + accepted = initial for any batch", () => {
    for (let trial = 0; trial < 200; trial++) {
      const initial = Math.floor(Math.random() * 50);
      const quantities = Array.from({ length: 1 + Math.floor(Math.random() * 30) }, () => 1 + Math.floor(Math.random() * 6));
      const { decisions, remaining } = allocateLines(
        new Map([tool("a", initial)]),
        quantities.map((quantity) => ({ lines: [{ toolId: "a", quantity }] })),
      );
      const taken = decisions.reduce((sum, d, i) => sum + (d.kind === "accept" ? (quantities[i] as number) : 0), 0);
      expect(remaining.get("a")).toBeGreaterThanOrEqual(0);
      expect((remaining.get("a") as number) + taken).toBe(initial);
    }
  });

  it("a tool that does not exist is unavailable: not found on the purchase page", () => {
    const { decisions } = allocateLines(new Map(), [{ lines: [{ toolId: "gone", quantity: 1 }] }]);
    expect(decisions[0]).toMatchObject({ kind: "refuse", problems: [{ toolId: "gone", problem: "UNAVAILABLE" }] });
    const [decision] = decisions;
    if (decision?.kind !== "refuse") throw new Error("refused expected");
    const answer = purchaseRefusal({ kind: "lines", problems: decision.problems }, 1);
    expect([answer.statusCode, answer.code]).toEqual([404, "NOT_FOUND"]);
  });
});
