/** Changes a signed-out visitor's cart (see guest-cart.ts); only the cart's own pages and buttons load this. */
import { LIMITS } from "../../../contract/constants";
import { mergedQuantity } from "../../../contract/cart";
import { guestLines, saveGuestLines as save } from "./guest-cart";

export const guestCart = {
  /** Adds `quantity` of a tool; the same tool adds up, capped at the stock. */
  add(toolId: string, quantity: number, availableQuantity: number): void {
    const lines = guestLines();
    const current = lines.find((l) => l.toolId === toolId)?.quantity ?? 0;
    const next = mergedQuantity(current, quantity, availableQuantity);
    if (next < 1) return;
    if (current > 0) save(lines.map((l) => (l.toolId === toolId ? { toolId, quantity: next } : l)));
    else if (lines.length < LIMITS.cartLines) save([...lines, { toolId, quantity: next }]);
  },
  /** Sets a line's quantity; below 1 removes it. */
  set(toolId: string, quantity: number): void {
    const lines = guestLines();
    save(quantity < 1 ? lines.filter((l) => l.toolId !== toolId) : lines.map((l) => (l.toolId === toolId ? { toolId, quantity } : l)));
  },
};
