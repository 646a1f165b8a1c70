/**
 * Decides, in arrival order, which of a batch of orders for one tool fit: each must reach
 * the tool's minimum and fit in what the orders before it left. Pure, so the rule is easy
 * to test; the caller holds the tool's row lock while it applies the result.
 */
export type Decision =
  | { kind: "accept"; quantity: number }
  | { kind: "below-minimum"; minimum: number }
  | { kind: "not-enough-stock"; available: number };

export function allocate(available: number, minimum: number, quantities: number[]): { decisions: Decision[]; remaining: number } {
  let remaining = available;
  const decisions = quantities.map((quantity): Decision => {
    if (quantity < minimum) return { kind: "below-minimum", minimum };
    if (quantity > remaining) return { kind: "not-enough-stock", available: remaining };
    remaining -= quantity;
    return { kind: "accept", quantity };
  });
  return { decisions, remaining };
}
