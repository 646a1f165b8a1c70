/**
 * The console's calls to /api/admin/*: a query per list, a mutation per action, all through the
 * store's fetcher (lib/api.ts) but the photo upload (XMLHttpRequest, for its progress events).
 * Keys start with PERSONAL_KEY: signing out forgets them with the rest of the user's data.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type {
  AdminOrder,
  AdminReview,
  AdminSummary,
  AdminTool,
  AdminToolInput,
  AdminToolPatch,
  AdminUser,
  AuditEntry,
  DeleteToolResult,
  ShipmentResult,
  StockLedger,
  StockMovementInput,
} from "../../../contract/admin-schemas";
import type { ApiErrorBody } from "../../../contract/schemas";
import type { RefundInput, RefundResult } from "../../../contract/refund-schemas";
import type { ShipmentInput } from "../../../contract/shipment-schemas";
import { TEXT } from "../../../contract/texts/site";
import { api, ApiRequestError, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { invalidateTools } from "../catalog";

export const PAGE_SIZE = 20;
export const adminKeys = { all: [PERSONAL_KEY, "admin"] as const };
const key = (...parts: unknown[]) => [...adminKeys.all, ...parts] as const;

export interface ToolFilters {
  q?: string;
  category?: string;
  status?: string;
  page: number;
}
export const toolsQuery = (f: ToolFilters) =>
  queryOptions({
    queryKey: key("tools", f),
    queryFn: ({ signal }) => api.list<AdminTool>(withQuery("/api/admin/tools", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });
export const ledgerQuery = (id: string) =>
  queryOptions({
    queryKey: key("tool", id),
    queryFn: ({ signal }) => api.get<StockLedger>(withQuery(`/api/admin/tools/${encodeURIComponent(id)}`, { limit: 100 }), signal),
  });

export interface OrderFilters {
  status?: string;
  customer?: string;
  page: number;
}
export const ordersQuery = (f: OrderFilters) =>
  queryOptions({
    queryKey: key("orders", f),
    queryFn: ({ signal }) => api.list<AdminOrder>(withQuery("/api/admin/orders", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });
export const orderQuery = (id: string) =>
  queryOptions({ queryKey: key("order", id), queryFn: ({ signal }) => api.get<AdminOrder>(`/api/admin/orders/${encodeURIComponent(id)}`, signal) });

export const reviewsQuery = (f: { hidden?: string; page: number }) =>
  queryOptions({
    queryKey: key("reviews", f),
    queryFn: ({ signal }) => api.list<AdminReview>(withQuery("/api/admin/reviews", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });
export const usersQuery = (f: { q?: string; page: number }) =>
  queryOptions({
    queryKey: key("users", f),
    queryFn: ({ signal }) => api.list<AdminUser>(withQuery("/api/admin/users", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });
export const summaryQuery = () =>
  queryOptions({ queryKey: key("summary"), queryFn: ({ signal }) => api.get<AdminSummary>("/api/admin/summary", signal) });
export const auditQuery = (f: { page: number }) =>
  queryOptions({
    queryKey: key("audit", f),
    queryFn: ({ signal }) => api.list<AuditEntry>(withQuery("/api/admin/audit", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });

/** The console's actions tell their failures in a toast (the query client's one handler, app/providers.tsx). */
const toastError = { toastError: true } as const;

/** After any change: the console's lists and the store's own tool lists fetch again. */
function useAfterChange() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: adminKeys.all }), invalidateTools(queryClient)]);
}

export function useCreateTool() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (input: AdminToolInput) => api.post<AdminTool>("/api/admin/tools", input), onSuccess: after, meta: toastError });
}
export function useUpdateTool() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminToolPatch }) => api.patch<AdminTool>(`/api/admin/tools/${encodeURIComponent(id)}`, patch),
    onSuccess: after,
    meta: toastError,
  });
}
export function useDeleteTool() {
  const after = useAfterChange();
  return useMutation({ mutationFn: (id: string) => api.delete<DeleteToolResult>(`/api/admin/tools/${encodeURIComponent(id)}`), onSuccess: after, meta: toastError });
}
export function useMoveStock() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: StockMovementInput }) => api.post<AdminTool>(`/api/admin/tools/${encodeURIComponent(id)}/stock`, input),
    onSuccess: after,
    meta: toastError,
  });
}
export function useMoveOrder() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: string }) => api.post<AdminOrder>(`/api/admin/orders/${encodeURIComponent(id)}/status`, { status }),
    onSuccess: after,
    meta: toastError,
  });
}
/** A parcel of the order (issue 52), with the form's key (a retry after a lost answer gets the first shipment). */
export function useShipOrder() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string; input: ShipmentInput; key: string }) =>
      api.post<ShipmentResult>(`/api/admin/orders/${encodeURIComponent(id)}/shipments`, input, { "idempotency-key": key }),
    onSuccess: after,
  });
}
export function useMoveShipment() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: "delivered" | "cancelled" }) => api.post<ShipmentResult>(`/api/admin/shipments/${encodeURIComponent(id)}/status`, { status }),
    onSuccess: after,
    meta: toastError,
  });
}
/** The owner's refund of lines, with the form's key (a retry after a lost answer gets the first refund). */
export function useRefundOrder() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, input, key }: { id: string; input: RefundInput; key: string }) =>
      api.post<RefundResult>(`/api/admin/orders/${encodeURIComponent(id)}/refunds`, input, { "idempotency-key": key }),
    onSuccess: after,
  });
}
export function useSetReviewHidden() {
  const after = useAfterChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: string; hidden: boolean }) => api.patch<AdminReview>(`/api/admin/reviews/${encodeURIComponent(id)}`, { hidden }),
    onSuccess: () => Promise.all([after(), queryClient.invalidateQueries({ queryKey: ["reviews"] })]),
    meta: toastError,
  });
}
export function useSetRole() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: "admin" | "user" }) => api.patch<AdminUser>(`/api/admin/users/${encodeURIComponent(id)}`, { role }),
    onSuccess: after,
    meta: toastError,
  });
}
/** A trade customer's tax-exempt certificate; "" clears it (issue 31). */
export function useSetTaxExempt() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, taxExemptCertificate }: { id: string; taxExemptCertificate: string }) =>
      api.patch<AdminUser>(`/api/admin/users/${encodeURIComponent(id)}/tax-exempt`, { taxExemptCertificate }),
    onSuccess: after,
    meta: toastError,
  });
}

/**
 * Uploads a tool's photo with XMLHttpRequest, whose upload events (unlike fetch's) report
 * progress: `onProgress` gets 0–100 as the bytes leave.
 */
export function uploadPhoto(id: string, file: File, onProgress: (percent: number) => void): Promise<AdminTool> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/admin/tools/${encodeURIComponent(id)}/image`);
    xhr.withCredentials = true;
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: Partial<ApiErrorBody> & Partial<AdminTool> = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the generic message below
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as AdminTool);
      else reject(new ApiRequestError(xhr.status, body.error ?? `HTTP_${xhr.status}`, body.message ?? TEXT.states.error, body));
    };
    xhr.onerror = () => reject(new ApiRequestError(0, "NETWORK", TEXT.states.networkError));
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}

/** No toast: the photo's failure is told beside its field. */
export function useUploadPhoto() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: ({ id, file, onProgress }: { id: string; file: File; onProgress: (percent: number) => void }) => uploadPhoto(id, file, onProgress),
    onSuccess: after,
  });
}
