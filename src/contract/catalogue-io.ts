/**
 * The catalogue's facets, its spreadsheet (export and import) and its product feed (issue 51,
 * DESIGN "Catalogue" and the API rows `GET /api/tool/facets`, `/api/admin/catalogue.csv`,
 * `/api/admin/catalogue/imports`): one schema per payload, shared by the pages and the routes.
 */
import { specValueSchema } from "./catalogue-schemas";
import { z } from "./zod";

/** A category of the facets' tree: how many rows of the list choosing it leaves, and its sub-categories. */
export interface FacetCategory {
  slug: string;
  name: string;
  count: number;
  children: FacetCategory[];
}
export const facetCategorySchema: z.ZodType<FacetCategory> = z.object({
  slug: z.string(),
  name: z.string(),
  count: z.number().int(),
  get children() {
    return z.array(facetCategorySchema);
  },
});

export const facetSpecSchema = z.object({
  key: z.string(),
  name: z.string(),
  unit: z.string().nullable(),
  kind: z.enum(["choice", "range"]),
  values: z.array(z.object({ value: specValueSchema, count: z.number().int() })).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
});
export type FacetSpec = z.infer<typeof facetSpecSchema>;

export const facetsSchema = z.object({
  total: z.number().int(),
  categories: z.array(facetCategorySchema),
  brands: z.array(z.object({ slug: z.string(), name: z.string(), count: z.number().int() })),
  specs: z.array(facetSpecSchema),
  price: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
});
export type Facets = z.infer<typeof facetsSchema>;

/** The export's columns, in order (DESIGN); `spec:<key>` columns follow, one per definition. */
export const CATALOGUE_COLUMNS = [
  "sku",
  "name",
  "product",
  "option1_name",
  "option1_value",
  "option2_name",
  "option2_value",
  "option3_name",
  "option3_value",
  "brand",
  "category",
  "price",
  "stock",
  "minimum_quantity",
  "weight_grams",
  "gtin",
  "active",
  "description",
  "images",
  "price_tiers",
] as const;
export type CatalogueColumn = (typeof CATALOGUE_COLUMNS)[number];
export const SPEC_COLUMN_PREFIX = "spec:";

/** The largest file an import takes (DESIGN): a bigger one is a 413. */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
/** How many errors an import keeps and shows. */
export const IMPORT_ERRORS_MAX = 100;

export const IMPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const importErrorSchema = z.object({ line: z.number().int(), column: z.string(), message: z.string() });
export type ImportError = z.infer<typeof importErrorSchema>;

export const catalogueImportSchema = z.object({
  _id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  dryRun: z.boolean(),
  rows: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  errors: z.array(importErrorSchema),
});
export type CatalogueImport = z.infer<typeof catalogueImportSchema>;

export const importStartedSchema = z.object({ _id: z.string(), status: z.enum(IMPORT_STATUSES) });

export const importQuerySchema = z.object({
  dryRun: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});
