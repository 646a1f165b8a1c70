/**
 * The tool list's query as issue 13 fixes it (sort, price range, suggestions), in ONE place on the
 * web side until the lead's contract (`TOOL_SORTS`, `toolListQuerySchema`) lands on main; then
 * these become re-exports of `src/contract/`.
 */
import { z } from "zod";
import { CATALOG_TEXT } from "../../../contract/texts/catalog";

/** `oldest` is the spec's order (the default without `q`); `relevance` is the default with `q`. */
export const TOOL_SORTS = ["oldest", "newest", "price-asc", "price-desc", "relevance"] as const;
export type ToolSort = (typeof TOOL_SORTS)[number];

/** The deepest page the API serves by number (deeper is a 400). */
export const MAX_LIST_PAGE = 400;

const dollars = z.coerce.number().min(0);

/** The price range: dollars, ≥ 0, max ≥ min (the API's rule, checked in the browser before the URL changes). */
export const priceRangeSchema = z
  .object({ minPrice: dollars.optional(), maxPrice: dollars.optional() })
  .refine((r) => r.minPrice === undefined || r.maxPrice === undefined || r.maxPrice >= r.minPrice, {
    message: CATALOG_TEXT.priceRangeOrder,
    path: ["maxPrice"],
  });

/** One search-as-you-type suggestion from `GET /api/tool/suggest?q=`. */
export interface ToolSuggestion {
  _id: string;
  name: string;
  category: string;
}
export const SUGGESTIONS_MAX = 8;

/** What the catalogue page asks `GET /api/tool` for (the contract's `ToolListQuery` once it has these fields). */
export interface ToolBrowseQuery {
  category?: string;
  q?: string;
  page?: number;
  limit?: number;
  sort?: ToolSort;
  minPrice?: number;
  maxPrice?: number;
}
