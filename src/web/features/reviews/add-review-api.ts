import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput } from "../../../contract/schemas";
import { api } from "../../lib/api";
import { reviewKeys } from "./api";

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
