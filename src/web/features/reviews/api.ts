import { queryOptions } from "@tanstack/react-query";
import type { Review } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

export const reviewsQuery = (limit: number) =>
  queryOptions({
    queryKey: ["reviews", limit],
    queryFn: ({ signal }) => api.list<Review>(withQuery("/api/review", { limit }), signal),
  });
