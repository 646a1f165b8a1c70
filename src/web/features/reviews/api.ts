import { queryOptions } from "@tanstack/react-query";
import type { Review } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

/*
 * The reviews' reads, which the home page needs. Writing a review lives in ./add-review-api.ts (its own module, exported by index.ts):
 * a module shared by the home page and a lazy page lands whole in the home page's chunk, so a
 * mutation kept here would make every shopper download React Query's mutation code.
 */

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
