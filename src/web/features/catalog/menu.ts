import { queryOptions } from "@tanstack/react-query";
import { api } from "../../lib/api";
import { menuSpecsOf, type FacetSpecValues } from "./facet-values";

/*
 * The catalogue page's menu, apart from api.ts: the home page's download (the app's chunk, with
 * api.ts's list queries) does not carry it; the catalogue's page and the server's render do.
 */

/** The catalogue's menu: the category tree (parents before children) and the brands, for its filters. */
export interface CatalogueMenu {
  categories: { slug: string; name: string; parentSlug: string | null }[];
  brands: { slug: string; name: string }[];
  /**
   * Every value the catalogue has of each filterable specification that is a choice, as the URL
   * names it (`spec.<key>=value`): a value the shopper's other filters leave nothing of is still
   * shown, disabled (issue 51), so the filters say what the catalogue has.
   */
  specs?: { key: string; values: string[] }[];
}

interface FacetCategory {
  slug: string;
  name: string;
  children?: FacetCategory[];
}


/** The facets' tree (GET /api/tool/facets, DESIGN API) as the menu's flat list, parents first. */
export function menuOfFacets(facets: { categories?: FacetCategory[]; brands?: { slug: string; name: string }[]; specs?: FacetSpecValues[] }): CatalogueMenu {
  const categories: CatalogueMenu["categories"] = [];
  const walk = (nodes: FacetCategory[], parentSlug: string | null) => {
    for (const node of nodes) {
      categories.push({ slug: node.slug, name: node.name, parentSlug });
      walk(node.children ?? [], node.slug);
    }
  };
  walk(facets.categories ?? [], null);
  return { categories, brands: (facets.brands ?? []).map(({ slug, name }) => ({ slug, name })), specs: menuSpecsOf(facets.specs) };
}

/**
 * The menu, once per visit: the server renders /tools with it (entry-server.tsx, from the
 * catalogue's own records); a visit that comes to /tools in the browser reads the facets' tree.
 */
export const catalogueMenuQuery = () =>
  queryOptions({
    queryKey: ["catalogue-menu"] as const,
    queryFn: async ({ signal }) => menuOfFacets(await api.get<Parameters<typeof menuOfFacets>[0]>("/api/tool/facets", signal)),
    staleTime: 5 * 60_000,
    retry: false,
  });
