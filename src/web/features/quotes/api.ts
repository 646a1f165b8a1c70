/** The customer's quotes (DESIGN "Quotes"): one fetcher, `queryOptions` and hook per endpoint. Keys start with PERSONAL_KEY so signing out forgets them. */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { PAGE_SIZE_MAX, type PaymentMethod } from "../../../contract/constants";
import type { Quote, QuoteAcceptResult, QuoteRequestInput } from "../../../contract/quote-schemas";
import type { Tool } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { accountKeys } from "../account";
import { invalidateTools } from "../catalog";

export const quoteKeys = {
  all: [PERSONAL_KEY, "quotes"] as const,
  one: (id: string) => [PERSONAL_KEY, "quotes", id] as const,
};

export const quotesQuery = () =>
  queryOptions({ queryKey: quoteKeys.all, queryFn: ({ signal }) => api.get<Quote[]>(withQuery("/api/quotes", { limit: PAGE_SIZE_MAX }), signal) });

export const quoteQuery = (id: string) => queryOptions({ queryKey: quoteKeys.one(id), queryFn: ({ signal }) => api.get<Quote>(`/api/quotes/${encodeURIComponent(id)}`, signal) });

/** The tools the request form offers: the catalogue's first page of the largest size. */
export const quoteToolsQuery = () =>
  queryOptions({ queryKey: ["quote-tools"] as const, queryFn: ({ signal }) => api.get<Tool[]>(withQuery("/api/tool", { limit: PAGE_SIZE_MAX }), signal), staleTime: 60_000 });

/** A revision's PDF (the quote's customer may download it). */
export const quotePdfUrl = (id: string, revision: number) => `/api/quotes/${encodeURIComponent(id)}/pdf?revision=${revision}`;

export function useRequestQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: QuoteRequestInput) => api.post<Quote>("/api/quotes", input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: quoteKeys.all }),
  });
}

/** Accepts a revision with the attempt's Idempotency-Key: a retry of one attempt makes no second order. */
export function useAcceptQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, revision, paymentMethod, key }: { id: string; revision: number; paymentMethod: PaymentMethod; key: string }) =>
      api.post<QuoteAcceptResult>(`/api/quotes/${encodeURIComponent(id)}/accept`, { revision, paymentMethod }, { "idempotency-key": key }),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: quoteKeys.all }), queryClient.invalidateQueries({ queryKey: accountKeys.orders }), invalidateTools(queryClient)]),
  });
}

export function useDeclineQuote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Quote>(`/api/quotes/${encodeURIComponent(id)}/decline`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: quoteKeys.all }),
  });
}
