import type { CartProblem } from "../../../contract/schemas";
import { CART_TEXT } from "../../../contract/texts/cart";

const problemMessages = CART_TEXT.problem;

interface Problematic {
  problem: CartProblem | null;
  minimumQuantity: number;
  availableQuantity: number;
}

/** What is wrong with a cart line (or a refused checkout's line), in words; null when nothing is. */
export function problemText({ problem, minimumQuantity, availableQuantity }: Problematic): string | null {
  switch (problem) {
    case null:
      return null;
    case "UNAVAILABLE":
      return problemMessages.UNAVAILABLE;
    case "BELOW_MINIMUM":
      return problemMessages.BELOW_MINIMUM(minimumQuantity);
    case "NOT_ENOUGH_STOCK":
      if (availableQuantity <= 0) return problemMessages.OUT_OF_STOCK;
      if (minimumQuantity > availableQuantity) return problemMessages.MINIMUM_ABOVE_STOCK(minimumQuantity, availableQuantity);
      return problemMessages.NOT_ENOUGH_STOCK(availableQuantity);
  }
}

/** The quantity that fixes the line, when one does (otherwise the fix is to remove it). */
export function fixingQuantity({ problem, minimumQuantity, availableQuantity }: Problematic): number | null {
  if (minimumQuantity > availableQuantity) return null;
  if (problem === "BELOW_MINIMUM") return minimumQuantity;
  if (problem === "NOT_ENOUGH_STOCK") return availableQuantity;
  return null;
}
