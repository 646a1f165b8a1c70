/**
 * The checkout's totals for the address, shipping method and code on the page
 * (`POST /api/cart/estimate`), asked once the typing pauses and kept per set of inputs.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { destinationProblems, normalPostalCode } from "../../../contract/geo";
import { PICKUP, type CartEstimate, type CartEstimateInput } from "../../../contract/money-schemas";
import { api } from "../../lib/api";
import { cartKeys } from "./cart-query";

export interface EstimateFields {
  country?: string | undefined;
  region?: string | undefined;
  postalCode?: string | undefined;
  city?: string | undefined;
  shippingMethod?: string | undefined;
  promoCode?: string | undefined;
}

/** How long the typing must pause before the totals are asked again. */
export const ESTIMATE_DEBOUNCE_MS = 400;

/**
 * The estimate to ask for, or null while the destination is not one the store knows (the
 * estimate needs a country, and its region and postal code checked against it).
 */
export function estimateInput(fields: EstimateFields): CartEstimateInput | null {
  const country = (fields.country ?? "").trim().toUpperCase();
  const region = (fields.region ?? "").trim().toUpperCase();
  const postalCode = normalPostalCode(fields.postalCode ?? "");
  if (country === "" || destinationProblems({ country, region, postalCode }).length > 0) return null;
  const input: CartEstimateInput = { country, region, postalCode, city: (fields.city ?? "").trim(), shippingMethod: fields.shippingMethod || PICKUP };
  const code = fields.promoCode?.trim().toUpperCase();
  if (code) input.promoCode = code;
  return input;
}

/**
 * Keyed by the cart's version and the inputs, under the cart's key: a change to the cart or an
 * invalidation of the cart asks again. The last answer stays on screen while the next one comes.
 */
export const estimateQuery = (cartVersion: string, input: CartEstimateInput | null) =>
  queryOptions({
    queryKey: [...cartKeys.cart, "estimate", cartVersion, input] as const,
    queryFn: () => api.post<CartEstimate>("/api/cart/estimate", input),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: 1,
  });

/** `value` once it has stopped changing for `ms` (compared by content, so a new object with the same fields is no change). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

/** The shipping method to fall back to when the one chosen does not serve the address (or the address is not known yet). */
export function servedMethod(chosen: string, options: ReadonlyArray<{ id: string }>): string {
  return options.some((o) => o.id === chosen) ? chosen : PICKUP;
}
