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

/** The list's address: its fields, each brand as its own `brand=`, each spec value as `spec.<key>=`. */
export function toolListPath(query: ToolListQuery): string {
  const { brand, spec, ...rest } = query;
  const path = withQuery("/api/tool", { ...rest });
  const extra = new URLSearchParams();
  for (const slug of brand ?? []) extra.append("brand", slug);
  for (const [key, values] of Object.entries(spec ?? {})) for (const value of values) extra.append(`spec.${key}`, value);
  const more = extra.toString();
  return more ? `${path}${path.includes("?") ? "&" : "?"}${more}` : path;
}

export const toolsQuery = (query: ToolListQuery) =>
  queryOptions({
    queryKey: toolKeys.list(query),
    queryFn: ({ signal }) => api.list<Tool>(toolListPath(query), signal),
    placeholderData: keepPreviousData,
  });

/** The catalogue's menu: the category tree (parents before children) and the brands, for its filters. */
export interface CatalogueMenu {
  categories: { slug: string; name: string; parentSlug: string | null }[];
  brands: { slug: string; name: string }[];
}

interface FacetCategory {
  slug: string;
  name: string;
  children?: FacetCategory[];
}

/** The facets' tree (GET /api/tool/facets, DESIGN API) as the menu's flat list, parents first. */
export function menuOfFacets(facets: { categories?: FacetCategory[]; brands?: { slug: string; name: string }[] }): CatalogueMenu {
  const categories: CatalogueMenu["categories"] = [];
  const walk = (nodes: FacetCategory[], parentSlug: string | null) => {
    for (const node of nodes) {
      categories.push({ slug: node.slug, name: node.name, parentSlug });
      walk(node.children ?? [], node.slug);
    }
  };
  walk(facets.categories ?? [], null);
  return { categories, brands: (facets.brands ?? []).map(({ slug, name }) => ({ slug, name })) };
}

/**
 * The menu, once per visit: the server renders /tools with it (entry-server.tsx, from the
 * catalogue's own records); a visit that comes to /tools in the browser reads the facets' tree.
 */
export const catalogueMenuQuery = () =>
  queryOptions({
    queryKey: ["catalogue-menu"] as const,
    queryFn: async ({ signal }) => menuOfFacets(await api.get<{ categories?: FacetCategory[]; brands?: { slug: string; name: string }[] }>("/api/tool/facets", signal)),
    staleTime: 5 * 60_000,
    retry: false,
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
