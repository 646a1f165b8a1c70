/** The caller's trade account (DESIGN "Trade accounts"): null for a customer in none (the API's 404). */
import { queryOptions } from "@tanstack/react-query";
import type { MyAccount } from "../../../contract/trade";
import { api, ApiRequestError } from "../../lib/api";

export const myTradeAccountQuery = () =>
  queryOptions({
    queryKey: ["trade-account"] as const,
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
