/**
 * The cart's rules, shared by the server (the signed-in cart) and the browser (a signed-out
 * visitor's cart): what is wrong with a line, and how merging two carts adds up.
 */
import type { CartProblem } from "./schemas";

export interface LineState {
  quantity: number;
  minimumQuantity: number;
  availableQuantity: number;
  /** The tool is still in the catalogue. */
  active: boolean;
}

/**
 * What stops a line from being ordered as it is, or null. A minimum above the stock is
 * "not enough stock": no quantity can be ordered.
 */
export function lineProblem(line: LineState): CartProblem | null {
  if (!line.active) return "UNAVAILABLE";
  if (line.quantity > line.availableQuantity || line.minimumQuantity > line.availableQuantity) return "NOT_ENOUGH_STOCK";
  if (line.quantity < line.minimumQuantity) return "BELOW_MINIMUM";
  return null;
}

/** Quantities of the same tool add up, capped at the stock. */
export const mergedQuantity = (mine: number, theirs: number, availableQuantity: number): number =>
  Math.min(mine + theirs, availableQuantity);
