/**
 * The console's calls for money (issue 31): tax rates and their CSV file, promotions, delivery
 * methods, the store's settings and a customer's tax exemption. Only the money pages import
 * this file, so it travels in their chunks, not in the console's first one.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  Promotion,
  PromotionInput,
  PromotionPatch,
  ShippingMethod,
  ShippingMethodInput,
  ShippingMethodPatch,
  StoreSettings,
  TaxRate,
  TaxRateInput,
  TaxRatePatch,
} from "../../../contract/money-schemas";
import type { ApiErrorBody } from "../../../contract/schemas";
import { TEXT } from "../../../contract/texts/site";
import { api, ApiRequestError } from "../../lib/api";
import { adminKeys } from "./api";

const key = (...parts: unknown[]) => [...adminKeys.all, "money", ...parts] as const;
const id = (value: string) => encodeURIComponent(value);

export const TAX_RATES_CSV_URL = "/api/admin/tax-rates.csv";

export const taxRatesQuery = () => queryOptions({ queryKey: key("tax-rates"), queryFn: ({ signal }) => api.get<TaxRate[]>("/api/admin/tax-rates", signal) });
export const promotionsQuery = () => queryOptions({ queryKey: key("promotions"), queryFn: ({ signal }) => api.get<Promotion[]>("/api/admin/promotions", signal) });
export const shippingQuery = () => queryOptions({ queryKey: key("shipping"), queryFn: ({ signal }) => api.get<ShippingMethod[]>("/api/admin/shipping", signal) });
export const settingsQuery = () => queryOptions({ queryKey: key("settings"), queryFn: ({ signal }) => api.get<StoreSettings>("/api/admin/settings", signal) });

/** Failures go to the console's one toast handler (app/providers.tsx); forms also show them at their fields. */
const toastError = { toastError: true } as const;

/** After a change, every console list asks again (orders show names and rates these pages edit). */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminKeys.all });
}

export function useSaveTaxRate() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ rateId, input }: { rateId: string | null; input: TaxRateInput | TaxRatePatch }) =>
      rateId ? api.patch<TaxRate>(`/api/admin/tax-rates/${id(rateId)}`, input) : api.post<TaxRate>("/api/admin/tax-rates", input),
    onSuccess: after,
    meta: toastError,
  });
}
export function useDeleteTaxRate() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (rateId: string) => api.delete<unknown>(`/api/admin/tax-rates/${id(rateId)}`), onSuccess: after, meta: toastError });
}

/**
 * Sends a CSV file as it is (`text/csv`), which the store's JSON fetcher cannot. The refusal's
 * message names the bad row; it is shown beside the file input, so no toast.
 */
export async function importTaxRatesCsv(csv: string): Promise<TaxRate[]> {
  let response: Response;
  try {
    response = await fetch(TAX_RATES_CSV_URL, { method: "POST", credentials: "same-origin", headers: { accept: "application/json", "content-type": "text/csv" }, body: csv });
  } catch {
    throw new ApiRequestError(0, "NETWORK", TEXT.states.networkError);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
    throw new ApiRequestError(response.status, body.error ?? `HTTP_${response.status}`, body.message ?? TEXT.states.error, body);
  }
  return (await response.json()) as TaxRate[];
}
export function useImportTaxRates() {
  const after = useAfterChange();
  return useMutation({ mutationFn: importTaxRatesCsv, onSuccess: after });
}

export function useSavePromotion() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ promotionId, input }: { promotionId: string | null; input: PromotionInput | PromotionPatch }) =>
      promotionId ? api.patch<Promotion>(`/api/admin/promotions/${id(promotionId)}`, input) : api.post<Promotion>("/api/admin/promotions", input),
    onSuccess: after,
    meta: toastError,
  });
}

export function useSaveShippingMethod() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ methodId, input }: { methodId: string | null; input: ShippingMethodInput | ShippingMethodPatch }) =>
      methodId ? api.patch<ShippingMethod>(`/api/admin/shipping/${id(methodId)}`, input) : api.post<ShippingMethod>("/api/admin/shipping", input),
    onSuccess: after,
    meta: toastError,
  });
}
export function useDeleteShippingMethod() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (methodId: string) => api.delete<unknown>(`/api/admin/shipping/${id(methodId)}`), onSuccess: after, meta: toastError });
}

export function useSaveSettings() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (input: Omit<StoreSettings, "timeZone"> & { timeZone?: string | undefined }) => api.put<StoreSettings>("/api/admin/settings", input), onSuccess: after, meta: toastError });
}
