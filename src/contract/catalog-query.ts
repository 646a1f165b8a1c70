/**
 * The catalogue list's query (GET /api/tool) and the pieces other lists share, apart from
 * schemas.ts: the catalogue page checks its price range with this schema, and building every
 * schema of schemas.ts took that page 40–110 ms of one task (decision 0011). schemas.ts
 * re-exports all of it.
 */
import { CATEGORIES, LIMITS, MAX_PAGE, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, TOOL_SORTS } from "./constants";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

export const categorySchema = z.enum(CATEGORIES);
/** A category of the tree by its slug (a root's or any sub-category's; the server says 400 for one it does not know). */
export const categorySlugQuery = z.string().trim().min(1).max(80).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);

export const pageQuery = {
  page: z.coerce.number().int().min(1).max(MAX_PAGE, VALIDATION_TEXT.pageTooDeep(MAX_PAGE)).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};
/** Lists that can be walked past MAX_PAGE: the `next` link's cursor (it wins over `page`). */
export const cursorQuery = { cursor: z.string().min(1).max(LIMITS.cursor).optional() };

const priceQuery = z.coerce.number().min(0).max(LIMITS.priceDollars);
export const toolListQuerySchema = z
  .object({
    category: categorySlugQuery.optional(),
    /** Brands by slug, repeatable (`brand=a&brand=b`: either). */
    brand: z
      .union([categorySlugQuery, z.array(categorySlugQuery).max(20)])
      .transform((brand) => (Array.isArray(brand) ? brand : [brand]))
      .optional(),
    /** `all`: every tool, not one row per product. */
    variants: z.enum(["all"]).optional(),
    q: z.string().trim().max(LIMITS.search).optional(),
    sort: z.enum(TOOL_SORTS).optional(),
    minPrice: priceQuery.optional(),
    maxPrice: priceQuery.optional(),
    ...pageQuery,
    ...cursorQuery,
  })
  .refine((query) => query.minPrice === undefined || query.maxPrice === undefined || query.minPrice <= query.maxPrice, {
    message: VALIDATION_TEXT.priceRange,
    path: ["maxPrice"],
  });
/** What a client may ask the tool list for: any of the query's fields (the server applies the defaults). */
export type ToolListQuery = Partial<Omit<z.infer<typeof toolListQuerySchema>, "brand">> & {
  /** Brands by slug (`brand=a&brand=b`: either). */
  brand?: string[];
  /** `spec.<key>=value` (or `min..max`), read by the server from the URL (`specQueryOf`), not by the schema. */
  spec?: Record<string, string[]>;
};
