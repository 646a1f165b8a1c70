/** The signed-in customer's data. Keys start with "me" so signing out forgets all of it. */
import { queryOptions } from "@tanstack/react-query";
import type { Order, OrderInput, Profile, ProfileInput, Review, ReviewInput } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

export const ORDERS_KEY = ["me", "orders"] as const;
export const PROFILE_KEY = ["me", "profile"] as const;

export const ordersQuery = () =>
  queryOptions({
    queryKey: ORDERS_KEY,
    queryFn: ({ signal }) => api.get<Order[]>(withQuery("/api/order", { limit: 100 }), signal),
  });

export const profileQuery = () =>
  queryOptions({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => api.get<Profile>("/api/me/profile", signal),
  });

export const placeOrder = (input: OrderInput) => api.post<Order>("/api/order", input);
export const cancelOrder = (id: string) => api.delete<Order>(`/api/order/${encodeURIComponent(id)}`);
export const saveProfile = (input: ProfileInput) => api.put<Profile>("/api/me/profile", input);
export const addReview = (input: ReviewInput) => api.post<Review>("/api/review", input);
