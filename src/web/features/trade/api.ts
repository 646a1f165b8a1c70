/**
 * The caller's trade account (DESIGN "Trade accounts"): null for a customer in none (the API's
 * 404). The key starts with PERSONAL_KEY: signing out, or in as someone else, forgets it.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { dollarsToCents } from "../../../contract/money";
import type { MyAccount } from "../../../contract/trade";
import { api, ApiRequestError } from "../../lib/api";
import { PERSONAL_KEY, useSession } from "../../lib/session";
import { cartQuery } from "../cart";

/** The account's keys: `all` also covers its orders and statement. */
export const tradeKeys = {
  all: [PERSONAL_KEY, "trade-account"] as const,
  orders: [PERSONAL_KEY, "trade-account", "orders"] as const,
  statement: [PERSONAL_KEY, "trade-account", "statement"] as const,
  invoices: [PERSONAL_KEY, "trade-account", "invoices"] as const,
};

export const myTradeAccountQuery = () =>
  queryOptions({
    queryKey: tradeKeys.all,
    queryFn: async ({ signal }): Promise<MyAccount | null> => {
      try {
        return await api.get<MyAccount>("/api/account", signal);
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });

/**
 * The signed-in customer's trade discount in basis points (0 outside an account, or signed out):
 * the pages show the price the server will charge (contract/price-tiers.ts `unitPriceFor`).
 * Read from the cart the navigation bar's badge fetches anyway on every page (GET /api/cart
 * carries `tradeDiscountPercent`, priced by the same context), so a tool page asks nothing more:
 * no GET /api/account, and no second read of the cart when this mounts after the badge.
 */
export function useTradeDiscount(): number {
  const { user } = useSession();
  const cart = useQuery({ ...cartQuery(), enabled: user !== null, refetchOnMount: false, select: (c) => c.tradeDiscountPercent });
  return user && cart.data ? dollarsToCents(cart.data) : 0;
}
