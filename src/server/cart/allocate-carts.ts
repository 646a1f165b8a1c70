/**
 * Decides, in arrival order, which of a batch of checkouts fit: every line of a cart must be
 * orderable (tool in the catalogue, at least its minimum, within what the checkouts before
 * it left), or the whole cart is refused with each bad line named. Pure, so the rule is easy
 * to test; the caller holds the tools' row locks while it applies the result.
 */
import { lineProblem } from "../../contract/cart";
import type { CheckoutProblem } from "../../contract/schemas";

export interface ToolState {
  id: string;
  name: string;
  active: boolean;
  minimumQuantity: number;
  availableQuantity: number;
}

export interface CartRequest {
  lines: { toolId: string; quantity: number }[];
}

export type CartDecision<R = never> = { kind: "accept" } | { kind: "refuse"; problems: CheckoutProblem[] } | { kind: "refuse-other"; reason: R };

/**
 * `admit`, asked about each cart whose lines fit (in arrival order, before its stock is taken),
 * may refuse it for another reason (its promotion code is used up by the carts before it): a
 * cart it refuses takes no stock.
 */
export function allocateCarts<R = never>(
  tools: Map<string, ToolState>,
  carts: CartRequest[],
  admit?: (index: number) => R | null,
): { decisions: CartDecision<R>[]; remaining: Map<string, number> } {
  const remaining = new Map([...tools].map(([id, tool]) => [id, tool.availableQuantity]));
  const decisions = carts.map((cart, index): CartDecision<R> => {
    const problems: CheckoutProblem[] = [];
    for (const line of cart.lines) {
      const tool = tools.get(line.toolId);
      if (!tool) continue;
      const available = remaining.get(tool.id) ?? 0;
      const problem = lineProblem({ quantity: line.quantity, minimumQuantity: tool.minimumQuantity, availableQuantity: available, active: tool.active });
      if (problem) {
        problems.push({ toolId: tool.id, name: tool.name, problem, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.active ? available : 0 });
      }
    }
    if (problems.length > 0) return { kind: "refuse", problems };
    const reason = admit ? admit(index) : null;
    if (reason !== null) return { kind: "refuse-other", reason };
    for (const line of cart.lines) remaining.set(line.toolId, (remaining.get(line.toolId) ?? 0) - line.quantity);
    return { kind: "accept" };
  });
  return { decisions, remaining };
}
