import { queryOptions } from "@tanstack/react-query";
import { TOOL_REVIEW_SORTS, TOOL_REVIEWS_PAGE_SIZE, type ToolReviewSort } from "../../../contract/review-constants";
import type { ToolRatingSummary, ToolReview } from "../../../contract/review-schemas";
import { api, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { toolKeys } from "./api";

/** A tool page's reviews as its address says (`reviewSort`, `reviewPage`): links and the sort form work without the app. */
export interface ToolReviewView {
  sort: ToolReviewSort;
  page: number;
}

export function toolReviewViewOf(search: URLSearchParams): ToolReviewView {
  const sort = search.get("reviewSort");
  const page = Number(search.get("reviewPage"));
  return {
    sort: (TOOL_REVIEW_SORTS as readonly string[]).includes(sort ?? "") ? (sort as ToolReviewSort) : "newest",
    page: Number.isInteger(page) && page >= 1 && page <= 400 ? page : 1,
  };
}

/** The address of a view of the reviews (defaults left out), at the reviews' heading. */
export function toolReviewHref(toolId: string, view: ToolReviewView): string {
  const path = withQuery(`/tools/${encodeURIComponent(toolId)}`, {
    reviewSort: view.sort === "newest" ? undefined : view.sort,
    reviewPage: view.page === 1 ? undefined : view.page,
  });
  return `${path}#reviews`;
}

export const toolReviewKeys = {
  list: (toolId: string, view: ToolReviewView) => [...toolKeys.all, "reviews", toolId, view.sort, view.page] as const,
  summary: (toolId: string) => [...toolKeys.all, "rating", toolId] as const,
  eligibility: (toolId: string) => [PERSONAL_KEY, "review-eligibility", toolId] as const,
};

export const toolReviewsQuery = (toolId: string, view: ToolReviewView) =>
  queryOptions({
    queryKey: toolReviewKeys.list(toolId, view),
    queryFn: ({ signal }) =>
      api.list<ToolReview>(withQuery(`/api/tool/${encodeURIComponent(toolId)}/reviews`, { sort: view.sort, page: view.page, limit: TOOL_REVIEWS_PAGE_SIZE }), signal),
  });

export const toolRatingQuery = (toolId: string) =>
  queryOptions({
    queryKey: toolReviewKeys.summary(toolId),
    queryFn: ({ signal }) => api.get<ToolRatingSummary>(`/api/tool/${encodeURIComponent(toolId)}/reviews/summary`, signal),
  });

