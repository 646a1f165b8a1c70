/**
 * The cart: on the server for a signed-in customer (`/api/cart`, the same on every device),
 * in this browser for a visitor (guest-cart.ts).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Cart, CheckoutInput, CheckoutResult } from "../../../contract/schemas";
import { api } from "../../lib/api";
import { accountKeys, orderQuery } from "../account";
import { invalidateTools } from "../catalog";
import { cartKeys } from "./cart-query";
import { guestCart } from "./guest-cart-edit";

export { cartKeys, cartQuery, mergeGuestCart } from "./cart-query";

const linePath = (toolId: string) => `/api/cart/lines/${encodeURIComponent(toolId)}`;

interface AddInput {
  toolId: string;
  quantity: number;
  availableQuantity: number;
}

/**
 * 'Add to Cart': a visitor's line goes to the browser, a customer's to the server (a merge of
 * one line: the same tool adds up, capped at the stock, in one transaction).
 */
export function useAddToCart(signedIn: boolean, onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ toolId, quantity, availableQuantity }: AddInput): Promise<Cart | null> => {
      if (!signedIn) {
        guestCart.add(toolId, quantity, availableQuantity);
        return null;
      }
      return api.post<Cart>("/api/cart/merge", { lines: [{ toolId, quantity }] });
    },
    onSuccess: (cart) => {
      if (cart) queryClient.setQueryData(cartKeys.cart, cart);
      onSuccess?.();
    },
  });
}

/** Sets a line's quantity (0 removes it), on the server for a customer. */
export function useSetCartLine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ toolId, quantity }: { toolId: string; quantity: number }) =>
      quantity === 0 ? api.delete<Cart>(linePath(toolId)) : api.put<Cart>(linePath(toolId), { quantity }),
    onSuccess: (cart) => queryClient.setQueryData(cartKeys.cart, cart),
    // A refused quantity may mean the stock moved: show the cart as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: cartKeys.cart }),
  });
}

/** A fresh Idempotency-Key (randomUUID needs a secure context; plain http on a LAN address is not one). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Places the order of the whole cart. The caller keeps one key per attempt, so a double click
 * or a retry after a lost answer returns the first order instead of making a second.
 */
export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CheckoutInput; key: string }) =>
      api.post<CheckoutResult>("/api/checkout", input, { "idempotency-key": key }),
    // Not awaited: the page moves on to the confirmation while the cart (now empty), My Orders,
    // the profile and the catalogue's stock fetch again.
    onSuccess: (result, { input }) => {
      queryClient.setQueryData(orderQuery(result.order._id).queryKey, result.order);
      void queryClient.invalidateQueries({ queryKey: cartKeys.cart });
      void queryClient.invalidateQueries({ queryKey: accountKeys.orders, exact: true });
      if (input.saveToProfile) void queryClient.invalidateQueries({ queryKey: accountKeys.profile });
      void invalidateTools(queryClient);
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: cartKeys.cart }),
  });
}
