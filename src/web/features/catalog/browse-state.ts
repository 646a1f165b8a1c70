/**
 * The catalogue page's state lives in its URL (`/tools?category=&brand=&spec.<key>=&q=&sort=&minPrice=&maxPrice=&page=`),
 * so links, reloads and Back all work. These pure functions read and write it; defaults are left out
 * of the URL so that one view has one address.
 */
import { LIMITS, PAGE_SIZE_DEFAULT, TOOL_SORTS, type ToolSort } from "../../../contract/constants";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { toolListQuerySchema, type ToolListQuery } from "../../../contract/catalog-query";
import type { Tool } from "../../../contract/schemas";
import { api, ApiRequestError, withQuery } from "../../lib/api";
import { toolKeys } from "./api";

export interface BrowseState {
  /** A category of the tree by its slug (a root's or any sub-category's: a root lists its descendants' tools). */
  category?: string;
  /** Brands by slug (any of them), in the order the URL names them. */
  brand?: string[];
  /** `spec.<key>=value` filters as the API takes them (values of one key OR, keys AND; `min..max` for a number). */
  spec?: Record<string, string[]>;
  q?: string;
  /** Only a sort the shopper chose that differs from the default for `q`. */
  sort?: ToolSort;
  minPrice?: number;
  maxPrice?: number;
  page: number;
}

/** The API's default: the spec's order, or relevance when searching. */
export const defaultSort = (q: string | undefined): ToolSort => (q ? "relevance" : "oldest");

/** A slug of the tree or of a brand, as the API's query schema takes it. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const isSlug = (value: string | null): value is string => value !== null && value.length <= 80 && SLUG.test(value);
/** A specification's key, as the API names it (`spec.<key>`). */
const SPEC_KEY = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
/** A range's end as a form sends it: `spec.<key>.min` or `spec.<key>.max`. */
const RANGE_FIELD = /^(.+)\.(min|max)$/;
/** A number as a range's end: what the API's `min..max` takes. */
const RANGE_END = /^-?\d+(?:\.\d+)?$/;

/** A number specification's range as the API takes it (`12..18`, `12..`, `..18`), or nothing when neither end is a number. */
export function rangeValue(min: string | undefined, max: string | undefined): string | undefined {
  const low = min?.trim() ?? "";
  const high = max?.trim() ?? "";
  const lowOk = RANGE_END.test(low);
  const highOk = RANGE_END.test(high);
  if (!lowOk && !highOk) return undefined;
  return `${lowOk ? low : ""}..${highOk ? high : ""}`;
}

/** A `min..max` value's two ends (each "" when open), or nothing for a value that is no range. */
export function splitRange(value: string): { min: string; max: string } | undefined {
  const match = /^(-?\d+(?:\.\d+)?)?\.\.(-?\d+(?:\.\d+)?)?$/.exec(value);
  if (!match || (match[1] === undefined && match[2] === undefined)) return undefined;
  return { min: match[1] ?? "", max: match[2] ?? "" };
}

/** As many brands as the API takes in one query. */
const MAX_BRANDS = 20;
const isSort = (value: string | null): value is ToolSort => TOOL_SORTS.includes(value as ToolSort);

/** A price from the URL or a form: dollars ≥ 0, or nothing. */
export function parsePrice(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const price = Number(value);
  return Number.isFinite(price) && price >= 0 ? price : undefined;
}

export function parseBrowse(params: URLSearchParams): BrowseState {
  const category = params.get("category");
  const q = params.get("q")?.trim().slice(0, LIMITS.search) || undefined;
  const sort = params.get("sort");
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  const brand = [...new Set(params.getAll("brand").filter(isSlug))].slice(0, MAX_BRANDS);
  const spec: Record<string, string[]> = {};
  const add = (key: string, value: string) => {
    const values = (spec[key] ??= []);
    if (!values.includes(value)) values.push(value);
  };
  // A number's range as a form without JavaScript sends it (`spec.<key>.min`, `spec.<key>.max`: filters.ts), read as `min..max`.
  const ranges = new Map<string, { min?: string; max?: string }>();
  for (const [name, value] of params) {
    const key = name.slice(5);
    const trimmed = value.trim();
    if (!name.startsWith("spec.") || trimmed === "" || trimmed.length > 60) continue;
    const end = RANGE_FIELD.exec(key);
    if (end?.[1] && end[2] && SPEC_KEY.test(end[1])) {
      const range = ranges.get(end[1]) ?? {};
      range[end[2] as "min" | "max"] ??= trimmed;
      ranges.set(end[1], range);
    } else if (SPEC_KEY.test(key)) add(key, trimmed);
  }
  for (const [key, { min, max }] of ranges) {
    const range = rangeValue(min, max);
    if (range) add(key, range);
  }
  return {
    category: isSlug(category) ? category : undefined,
    ...(brand.length > 0 ? { brand } : {}),
    ...(Object.keys(spec).length > 0 ? { spec } : {}),
    q,
    // Relevance means nothing without a search; the default needs no place in the URL.
    sort: isSort(sort) && sort !== defaultSort(q) && !(sort === "relevance" && !q) ? sort : undefined,
    minPrice: parsePrice(params.get("minPrice")),
    maxPrice: parsePrice(params.get("maxPrice")),
    page: Number.isFinite(page) && page >= 1 ? page : 1,
  };
}

/** The canonical search string (no leading `?`), defaults left out. */
export function browseSearch(state: BrowseState): string {
  const params = new URLSearchParams();
  if (state.category) params.set("category", state.category);
  for (const brand of state.brand ?? []) params.append("brand", brand);
  for (const [key, values] of Object.entries(state.spec ?? {})) for (const value of values) params.append(`spec.${key}`, value);
  if (state.q) params.set("q", state.q);
  if (state.sort && state.sort !== defaultSort(state.q) && !(state.sort === "relevance" && !state.q)) params.set("sort", state.sort);
  if (state.minPrice !== undefined) params.set("minPrice", String(state.minPrice));
  if (state.maxPrice !== undefined) params.set("maxPrice", String(state.maxPrice));
  if (state.page > 1) params.set("page", String(state.page));
  return params.toString();
}

/** A change of filter, search or sort starts again at page 1; only a change of page keeps its own. */
export function changeBrowse(state: BrowseState, changes: Partial<Omit<BrowseState, "page">> & { page?: number }): BrowseState {
  return { ...state, ...changes, page: changes.page ?? 1 };
}

/** What `GET /api/tool` is asked for this state. */
export function browseApiQuery(state: BrowseState, limit: number): ToolListQuery {
  return {
    category: state.category,
    ...(state.brand?.length ? { brand: state.brand } : {}),
    ...(state.spec && Object.keys(state.spec).length > 0 ? { spec: state.spec } : {}),
    q: state.q,
    page: state.page,
    limit,
    sort: state.sort,
    minPrice: state.minPrice,
    maxPrice: state.maxPrice,
  };
}

/**
 * The sort a select's value asks for: "" is the default order for the search (relevance with one,
 * else the spec's), so a form sent without the app keeps no old default beside a new search.
 */
export const sortChosen = (value: string): ToolSort | undefined => (isSort(value) ? value : undefined);

/** The web's one rule for a next page (the console's lists use it too). */
export { hasNextPage } from "../../lib/paging";

/**
 * The price range the shopper typed, checked with the API's own schema (dollars ≥ 0, max ≥ min)
 * before the URL changes: the range, or the first message to show.
 */
export function checkPriceRange(
  min: string,
  max: string,
): { ok: true; minPrice?: number; maxPrice?: number } | { ok: false; message: string; field: "minPrice" | "maxPrice" } {
  const result = toolListQuerySchema.safeParse({ minPrice: min.trim() || undefined, maxPrice: max.trim() || undefined });
  if (result.success) return { ok: true, minPrice: result.data.minPrice, maxPrice: result.data.maxPrice };
  const issue = result.error.issues[0];
  return { ok: false, message: issue?.message ?? "", field: issue?.path[0] === "minPrice" ? "minPrice" : "maxPrice" };
}

/**
 * The catalogue page's list query from its URL: the page and the server's render of it
 * (entry-server.tsx) read the URL so, and so ask for the same list under the same key.
 */
export const catalogueQuery = (params: URLSearchParams): ToolListQuery => browseApiQuery(parseBrowse(params), PAGE_SIZE_DEFAULT);

/** The list's address: its fields, each brand as its own `brand=`, each spec value as `spec.<key>=`. */
export function toolListPath({ brand = [], spec = {}, ...query }: ToolListQuery): string {
  const params = new URLSearchParams(withQuery("", { ...query }).slice(1));
  for (const slug of brand) params.append("brand", slug);
  for (const [key, values] of Object.entries(spec)) for (const value of values) params.append(`spec.${key}`, value);
  const search = params.toString();
  return search ? `/api/tool?${search}` : "/api/tool";
}

/** The catalogue page's list, under the same key as any list of tools (toolsQuery), with its brands and specifications. */
export const catalogueListQuery = (query: ToolListQuery) =>
  queryOptions({
    queryKey: toolKeys.list(query),
    // A filter the API refuses (a category, brand or specification that is gone: an old link) matches
    // no tool, as the server's render of the page says (pages/render.ts).
    queryFn: ({ signal }) =>
      api.list<Tool>(toolListPath(query), signal).catch((error: unknown) => {
        if (error instanceof ApiRequestError && error.status === 400) return { items: [] as Tool[], total: 0, exact: true };
        throw error;
      }),
    placeholderData: keepPreviousData,
  });
