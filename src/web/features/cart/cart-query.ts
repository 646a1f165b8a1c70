/** The signed-in customer's cart on the server. Kept apart from the mutations: the navigation bar's badge reads it on every page. */
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { Cart } from "../../../contract/schemas";
import { api } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { guestLines, saveGuestLines } from "./guest-cart";

/** Starts with PERSONAL_KEY, so signing out forgets the account's cart at once. */
export const cartKeys = { cart: [PERSONAL_KEY, "cart"] as const };

export const cartQuery = () =>
  queryOptions({
    queryKey: cartKeys.cart,
    queryFn: ({ signal }) => api.get<Cart>("/api/cart", signal),
  });

/**
 * Joins a visitor's cart (the browser's) to the signed-in account's, once: the browser's is
 * emptied first, so another tab does not send it again. If the merge does not reach the server
 * the lines go back; if the server refuses them (tools that are gone) they are dropped.
 */
export async function mergeGuestCart(queryClient: QueryClient): Promise<void> {
  const lines = guestLines();
  if (lines.length === 0) return;
  saveGuestLines([]);
  try {
    const merged = await api.post<Cart>("/api/cart/merge", { lines });
    // A read of the cart that started before the merge must not land after it.
    await queryClient.cancelQueries({ queryKey: cartKeys.cart });
    queryClient.setQueryData(cartKeys.cart, merged);
  } catch (error) {
    const status = (error as { status?: number }).status ?? 0;
    if (status === 0 || status === 401 || status >= 500) saveGuestLines(lines);
  }
}
