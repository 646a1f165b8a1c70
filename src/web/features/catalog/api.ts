import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { Category } from "../../../contract/constants";
import type { Tool } from "../../../contract/schemas";
import { api, withQuery } from "../../lib/api";

export interface ToolsFilter {
  category?: Category | undefined;
  q?: string | undefined;
  page?: number;
  limit?: number;
}

export const toolsQuery = (query: ToolsFilter) =>
  queryOptions({
    queryKey: ["tools", query],
    queryFn: ({ signal }) => api.list<Tool>(withQuery("/api/tool", { ...query }), signal),
    placeholderData: keepPreviousData,
  });

export const toolQuery = (id: string) =>
  queryOptions({
    queryKey: ["tool", id],
    queryFn: ({ signal }) => api.get<Tool>(`/api/tool/${encodeURIComponent(id)}`, signal),
  });
