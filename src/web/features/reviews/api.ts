import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

/** The reviews' query keys: every list sits under `all`. */
export const reviewKeys = {
  all: ["reviews"] as const,
  list: (limit: number) => ["reviews", "list", limit] as const,
};

export const reviewsQuery = (limit: number) =>
  queryOptions({
    queryKey: reviewKeys.list(limit),
    queryFn: ({ signal }) => api.list<Review>(withQuery("/api/review", { limit }), signal),
  });

export const addReview = (input: ReviewInput) => api.post<Review>("/api/review", input);

/** Posts a review; the lists that show reviews fetch again. */
export function useAddReview(options: { onSuccess?: (review: Review) => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addReview,
    onSuccess: async (review) => {
      options.onSuccess?.(review);
      await queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    },
    onError: options.onError,
  });
}
