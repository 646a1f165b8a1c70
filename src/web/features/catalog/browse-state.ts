/**
 * The catalogue page's state lives in its URL (`/tools?category=&q=&sort=&minPrice=&maxPrice=&page=`),
 * so links, reloads and Back all work. These pure functions read and write it; defaults are left out
 * of the URL so that one view has one address.
 */
import { CATEGORIES, LIMITS, PAGE_SIZE_DEFAULT, TOOL_SORTS, type Category, type ToolSort } from "../../../contract/constants";
import { toolListQuerySchema, type ToolListQuery } from "../../../contract/catalog-query";

export interface BrowseState {
  category?: Category;
  q?: string;
  /** Only a sort the shopper chose that differs from the default for `q`. */
  sort?: ToolSort;
  minPrice?: number;
  maxPrice?: number;
  page: number;
}

/** The API's default: the spec's order, or relevance when searching. */
export const defaultSort = (q: string | undefined): ToolSort => (q ? "relevance" : "oldest");

const isCategory = (value: string | null): value is Category => CATEGORIES.includes(value as Category);
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
  return {
    category: isCategory(category) ? category : undefined,
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
