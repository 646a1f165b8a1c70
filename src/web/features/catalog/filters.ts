/**
 * The catalogue's filters with counts (issue 51, DESIGN "Catalogue" and `GET /api/tool/facets`):
 * the facets of the list's own query, and what the filters show from them and the menu. Pure but
 * for the query; the page (routes/tools-page.tsx) and the server's render (entry-server.tsx) ask
 * for the same facets under the same key, so the server's HTML has the counts.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ToolListQuery } from "../../../contract/catalog-query";
import type { Facets, FacetCategory } from "../../../contract/catalogue-io";
import { CATALOG_FILTERS_TEXT as TEXT } from "../../../contract/texts/catalog-filters";
import { api, ApiRequestError } from "../../lib/api";
import { toolKeys } from "./api";
import { parseBrowse, splitRange, toolListPath, type BrowseState } from "./browse-state";
import { NO_FACETS, specValueParam } from "./facet-values";
import type { CatalogueMenu } from "./menu";

/** What the facets are asked for: the list's filters, without its page and order. */
export type FacetsQuery = Omit<ToolListQuery, "page" | "limit" | "sort" | "cursor">;

export function facetsQueryOf(query: ToolListQuery): FacetsQuery {
  const facets: FacetsQuery & Partial<Pick<ToolListQuery, "page" | "limit" | "sort" | "cursor">> = { ...query };
  delete facets.page;
  delete facets.limit;
  delete facets.sort;
  delete facets.cursor;
  return facets;
}

/** `GET /api/tool/facets` with the list's filters, as the list sends them (toolListPath). */
export const facetsPath = (query: FacetsQuery): string => toolListPath(query).replace(/^\/api\/tool/, "/api/tool/facets");


/** The facets of the list's query, under the catalogue's keys (a change of stock or prices fetches them again). */
export const catalogueFacetsQuery = (query: FacetsQuery) =>
  queryOptions({
    queryKey: [...toolKeys.all, "facets", query] as const,
    queryFn: ({ signal }) =>
      api.get<Facets>(facetsPath(query), signal).catch((error: unknown) => {
        if (error instanceof ApiRequestError && error.status === 400) return NO_FACETS;
        throw error;
      }),
    placeholderData: keepPreviousData,
  });

/** A checkbox of the filters: its value, its label with the count, and whether it can be chosen. */
export interface FilterChoice {
  value: string;
  label: string;
  checked: boolean;
  /** A choice that leaves nothing, unless it is checked (it can always be unchecked). */
  disabled: boolean;
}

export type SpecFilter =
  | { kind: "choice"; key: string; legend: string; choices: FilterChoice[] }
  | { kind: "range"; key: string; legend: string; min: string; max: string; low: string; high: string };

export interface FilterView {
  brands: FilterChoice[];
  specs: SpecFilter[];
  /** The address's spec values that no control shows (a key the catalogue no longer filters on): sent as they are. */
  kept: { name: string; value: string }[];
}

const choice = (value: string, label: string, count: number | undefined, checked: boolean): FilterChoice => ({
  value,
  label: TEXT.withCount(label, count),
  checked,
  disabled: !checked && count === 0,
});

const byValue = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true });

/** A specification's value as a shopper reads it: yes/no for a boolean, the value itself else. */
const valueLabel = (value: string, kind: "boolean" | "other") => (kind === "boolean" ? (value === "true" ? TEXT.yes : TEXT.no) : value);

/**
 * What the filters show: every brand and value the catalogue has (the menu), each with the count
 * the facets give it for the list's query (0 when they do not name it: disabled unless checked),
 * and each filterable number as a range. Without facets (not loaded), no counts and nothing disabled.
 */
export function filterView(menu: CatalogueMenu | undefined, facets: Facets | undefined, state: BrowseState): FilterView {
  const chosenBrands = state.brand ?? [];
  const brandCount = new Map(facets?.brands.map((b) => [b.slug, b.count]));
  const brandNames = new Map<string, string>([...(menu?.brands ?? []), ...(facets?.brands ?? [])].map((b) => [b.slug, b.name]));
  const brands = [...brandNames]
    .sort(([slugA, a], [slugB, b]) => a.localeCompare(b) || slugA.localeCompare(slugB))
    .map(([slug, name]) => choice(slug, name, facets ? (brandCount.get(slug) ?? 0) : undefined, chosenBrands.includes(slug)));

  const chosen = state.spec ?? {};
  const shown = new Set<string>();
  const specs: SpecFilter[] = (facets?.specs ?? []).map((spec): SpecFilter => {
    const legend = TEXT.specLegend(spec.name, spec.unit);
    const values = chosen[spec.key] ?? [];
    if (spec.kind === "range") {
      const first = values.find((v) => splitRange(v) !== undefined);
      if (first !== undefined) shown.add(`${spec.key}=${first}`);
      const range = first === undefined ? undefined : splitRange(first);
      return { kind: "range", key: spec.key, legend, min: range?.min ?? "", max: range?.max ?? "", low: TEXT.rangeFrom(spec.min), high: TEXT.rangeFrom(spec.max) };
    }
    const counts = new Map((spec.values ?? []).map((v) => [specValueParam(v.value), v.count]));
    const kind = (spec.values ?? []).some((v) => typeof v.value === "boolean") ? "boolean" : "other";
    const all = new Set([...(menu?.specs?.find((s) => s.key === spec.key)?.values ?? []), ...counts.keys(), ...values]);
    const choices = [...all].sort(byValue).map((value) => {
      if (values.includes(value)) shown.add(`${spec.key}=${value}`);
      return choice(value, valueLabel(value, kind), counts.get(value) ?? 0, values.includes(value));
    });
    return { kind: "choice", key: spec.key, legend, choices };
  });
  const kept = Object.entries(chosen).flatMap(([key, values]) => values.filter((value) => !shown.has(`${key}=${value}`)).map((value) => ({ name: `spec.${key}`, value })));
  return { brands, specs, kept };
}

/** The brands and specifications a form's fields choose (a number's range from its two ends), as the address keeps them. */
export function filtersOfFields(fields: Iterable<[string, string]>): Pick<BrowseState, "brand" | "spec"> {
  const { brand, spec } = parseBrowse(new URLSearchParams([...fields]));
  return { brand, spec };
}

/**
 * One query string for a choice of brands and specifications, whatever their order: to tell
 * whether two are the same, and read back with `filtersOfFields(new URLSearchParams(key))`.
 */
export function filtersKey({ brand = [], spec = {} }: Pick<BrowseState, "brand" | "spec">): string {
  const pairs: [string, string][] = [...brand.map((b): [string, string] => ["brand", b]), ...Object.entries(spec).flatMap(([key, values]) => values.map((v): [string, string] => [`spec.${key}`, v]))];
  pairs.sort(([nameA, a], [nameB, b]) => nameA.localeCompare(nameB) || a.localeCompare(b));
  return new URLSearchParams(pairs).toString();
}

/** How many filters are chosen: each brand, each specification value, the category and the price range (the phone's button says it). */
export function chosenCount(state: BrowseState): number {
  const specs = Object.values(state.spec ?? {}).reduce((n, values) => n + values.length, 0);
  return (state.brand?.length ?? 0) + specs + (state.category ? 1 : 0) + (state.minPrice !== undefined || state.maxPrice !== undefined ? 1 : 0);
}

export interface CategoryLink {
  slug: string | undefined;
  label: string;
  depth: number;
  current: boolean;
  /** No tool of the list's other filters is in it: shown, not a link. */
  disabled: boolean;
}

/** The category tree as links with counts ("All tools" first), in the menu's order, each counted by the facets. */
export function categoryLinks(options: { slug: string; name: string; depth: number }[], facets: Facets | undefined, state: BrowseState): CategoryLink[] {
  const counts = new Map<string, number>();
  const walk = (nodes: FacetCategory[]) => {
    for (const node of nodes) {
      counts.set(node.slug, node.count);
      walk(node.children);
    }
  };
  walk(facets?.categories ?? []);
  return [
    { slug: undefined, label: TEXT.allCategories, depth: 0, current: !state.category, disabled: false },
    ...options.map(({ slug, name, depth }) => {
      const count = facets ? (counts.get(slug) ?? 0) : undefined;
      const current = state.category === slug;
      return { slug, label: TEXT.withCount(name, count), depth, current, disabled: !current && count === 0 };
    }),
  ];
}
