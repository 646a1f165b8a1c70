/** The signed-in customer's data. Keys start with PERSONAL_KEY so signing out forgets all of it. */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { PAGE_SIZE_MAX } from "../../../contract/constants";
import type { Order, OrderInput, Profile, ProfileInput } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { invalidateTools } from "../catalog";

export const accountKeys = {
  all: [PERSONAL_KEY] as const,
  orders: [PERSONAL_KEY, "orders"] as const,
  profile: [PERSONAL_KEY, "profile"] as const,
};

export const ordersQuery = () =>
  queryOptions({
    queryKey: accountKeys.orders,
    queryFn: ({ signal }) => api.get<Order[]>(withQuery("/api/order", { limit: PAGE_SIZE_MAX }), signal),
  });

export const profileQuery = () =>
  queryOptions({
    queryKey: accountKeys.profile,
    queryFn: ({ signal }) => api.get<Profile>("/api/me/profile", signal),
  });

/** One of the caller's orders, with its lines and history. */
export const orderQuery = (id: string) =>
  queryOptions({
    queryKey: [...accountKeys.orders, id] as const,
    queryFn: ({ signal }) => api.get<Order>(`/api/order/${encodeURIComponent(id)}`, signal),
  });

const placeOrder = (input: OrderInput) => api.post<Order>("/api/order", input);
const cancelOrder = (id: string) => api.delete<Order>(`/api/order/${encodeURIComponent(id)}`);
const saveProfile = (input: ProfileInput) => api.put<Profile>("/api/me/profile", input);

interface Callbacks<T> {
  onSuccess?: (result: T) => void;
  onError?: (error: Error) => void;
}

/** Places an order: My Orders and the stock the catalogue shows fetch again. */
export function usePlaceOrder(options: Callbacks<Order> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: async (order) => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: accountKeys.orders }), invalidateTools(queryClient)]);
      options.onSuccess?.(order);
    },
    onError: options.onError,
  });
}

/** Cancels an order: it changes in My Orders and on its page at once, and the catalogue's stock fetches again. */
export function useCancelOrder(options: Callbacks<Order> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    onSuccess: async (cancelled) => {
      queryClient.setQueryData<Order[]>(accountKeys.orders, (list) => list?.map((o) => (o._id === cancelled._id ? cancelled : o)));
      queryClient.setQueryData(orderQuery(cancelled._id).queryKey, cancelled);
      options.onSuccess?.(cancelled);
      await invalidateTools(queryClient);
    },
    onError: options.onError,
  });
}

/** Saves the delivery address and phone; the profile shows what the server kept. */
export function useSaveProfile(options: Callbacks<Profile> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (saved) => {
      queryClient.setQueryData(accountKeys.profile, saved);
      options.onSuccess?.(saved);
    },
    onError: options.onError,
  });
}
