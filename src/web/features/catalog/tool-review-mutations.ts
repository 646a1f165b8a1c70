/**
 * Writing a tool review: its own module (the tool page's and the order page's), so the reads that
 * the server renders with the page never carry React Query's mutation code.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReviewEligibility, ToolReview, ToolReviewInput } from "../../../contract/review-schemas";
import { api } from "../../lib/api";
import { toolKeys } from "./api";
import { toolReviewKeys } from "./tool-reviews-api";

export function useReviewEligibility(toolId: string, enabled: boolean) {
  return useQuery({
    queryKey: toolReviewKeys.eligibility(toolId),
    queryFn: ({ signal }) => api.get<ReviewEligibility>(`/api/tool/${encodeURIComponent(toolId)}/reviews/eligibility`, signal),
    enabled,
  });
}

export function usePostToolReview(toolId: string, options: { onSuccess?: () => void; onError?: (error: Error) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ToolReviewInput) => api.post<ToolReview>(`/api/tool/${encodeURIComponent(toolId)}/reviews`, input),
    onSuccess: async () => {
      // The tool's rating, its reviews and the cards' averages all moved.
      await queryClient.invalidateQueries({ queryKey: toolKeys.all });
      await queryClient.invalidateQueries({ queryKey: toolReviewKeys.eligibility(toolId) });
      options.onSuccess?.();
    },
    onError: options.onError,
  });
}
