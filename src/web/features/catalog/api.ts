import { keepPreviousData, queryOptions, type QueryClient } from "@tanstack/react-query";
import type { Category } from "../../../contract/storefront";
import type { Tool, ToolListQuery } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

/** The catalogue's query keys: every list and every single tool sit under `all`. */
export const toolKeys = {
  all: ["tools"] as const,
  list: (query: ToolListQuery) => ["tools", "list", query] as const,
  one: (id: string) => ["tools", "one", id] as const,
};

/**
 * A list of tools by its plain fields (the home page's, a tool page's related tools). The
 * catalogue's list, which may also filter by brand and specification, is `catalogueListQuery`
 * (browse-state.ts): the same key, its own address, and none of it in the home page's download.
 */
export const toolsQuery = (query: Omit<ToolListQuery, "brand" | "spec">) =>
  queryOptions({
    queryKey: toolKeys.list(query),
    queryFn: ({ signal }) => api.list<Tool>(withQuery("/api/tool", { ...query }), signal),
    placeholderData: keepPreviousData,
  });

/** How many other tools of its category a tool page shows. */
export const RELATED_COUNT = 3;

/** A tool page's related tools: its category's first few (one more, in case the tool is among them). */
export const relatedList = (category: Category): ToolListQuery => ({ category, limit: RELATED_COUNT + 1 });
export const relatedQuery = (category: Category) => toolsQuery(relatedList(category));

export const toolQuery = (id: string) =>
  queryOptions({
    queryKey: toolKeys.one(id),
    queryFn: ({ signal }) => api.get<Tool>(`/api/tool/${encodeURIComponent(id)}`, signal),
  });

/** Stock or prices changed (an order, a cancel): every list and tool page fetches again. */
export const invalidateTools = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: toolKeys.all });
