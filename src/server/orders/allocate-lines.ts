/**
 * Decides, in arrival order, which of a batch of order requests fit: every line must be
 * orderable (tool in the catalogue, at least its minimum, within what the requests before it
 * left), or the whole request is refused with each bad line named. Pure, so the rule is easy to
 * test; the placement (placement.ts) holds the tools' row locks while it applies the result.
 * It is the one stock rule of every path: the cart's checkout, the purchase page, a quote's
 * acceptance.
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

export interface LinesRequest {
  lines: { toolId: string; quantity: number }[];
}

export type LinesDecision<R = never> = { kind: "accept" } | { kind: "refuse"; problems: CheckoutProblem[] } | { kind: "refuse-other"; reason: R };

/**
 * `admit`, asked about each request whose lines fit (in arrival order, before its stock is
 * taken), may refuse it for another reason (its promotion code is used up by the requests before
 * it): a request it refuses takes no stock. A tool that does not exist (or no longer) is
 * UNAVAILABLE.
 */
export function allocateLines<R = never>(
  tools: Map<string, ToolState>,
  requests: LinesRequest[],
  admit?: (index: number) => R | null,
): { decisions: LinesDecision<R>[]; remaining: Map<string, number> } {
  const remaining = new Map([...tools].map(([id, tool]) => [id, tool.availableQuantity]));
  const decisions = requests.map((request, index): LinesDecision<R> => {
    const problems: CheckoutProblem[] = [];
    // A tool named twice in one request is taken twice: its lines are checked against what the earlier ones left.
    const left = new Map<string, number>();
    for (const line of request.lines) {
      const tool = tools.get(line.toolId);
      if (!tool) {
        problems.push({ toolId: line.toolId, name: "", problem: "UNAVAILABLE", minimumQuantity: 1, availableQuantity: 0 });
        continue;
      }
      const available = left.get(tool.id) ?? remaining.get(tool.id) ?? 0;
      const problem = lineProblem({ quantity: line.quantity, minimumQuantity: tool.minimumQuantity, availableQuantity: available, active: tool.active });
      if (problem) {
        problems.push({ toolId: tool.id, name: tool.name, problem, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.active ? available : 0 });
      } else {
        left.set(tool.id, available - line.quantity);
      }
    }
    if (problems.length > 0) return { kind: "refuse", problems };
    const reason = admit ? admit(index) : null;
    if (reason !== null) return { kind: "refuse-other", reason };
    for (const line of request.lines) remaining.set(line.toolId, (remaining.get(line.toolId) ?? 0) - line.quantity);
    return { kind: "accept" };
  });
  return { decisions, remaining };
}
