/**
 * The catalogue as a spreadsheet (issue 51, DESIGN `GET /api/admin/catalogue.csv`): one row per
 * tool, the columns DESIGN pins, then `spec:<key>` per definition. The rows are read in batches
 * in SKU order (keyset on `tools_sku_idx`, never OFFSET) and written by csv-stringify as they come,
 * so a 100,000-tool export starts at once and holds one batch in memory. The import
 * (imports.ts) reads the same columns and writes the same values back, so export → import →
 * export gives the same bytes.
 */
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { asc, gt, inArray } from "drizzle-orm";
import { CATALOGUE_COLUMNS, SPEC_COLUMN_PREFIX } from "../../contract/catalogue-io";
import type { SpecValue } from "../../contract/catalogue-schemas";
import type { Db, Tx } from "../db/client";
import { brands, categories, products, specDefinitions, tools } from "../db/schema";

/** Rows read per statement: enough to amortise a round trip, small enough to keep memory flat. */
const BATCH = 1_000;

/** Cents as the file writes money: `24.99`, `0.05`, `1200.00` (exact, no floating point). */
export const centsText = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, "0")}`;

/** A specification's value as a cell: a number as JavaScript writes it, yes/no as `true`/`false`. */
export const specText = (value: SpecValue | undefined) => (value === undefined ? "" : String(value));

export const specColumn = (key: string) => `${SPEC_COLUMN_PREFIX}${key}`;

/** The header: the fixed columns, then a spec column per definition (by position, then key). */
export async function catalogueHeader(db: Db | Tx): Promise<{ header: string[]; specKeys: string[] }> {
  const specKeys = (await db.select({ key: specDefinitions.key }).from(specDefinitions).orderBy(asc(specDefinitions.position), asc(specDefinitions.key))).map((d) => d.key);
  return { header: [...CATALOGUE_COLUMNS, ...specKeys.map(specColumn)], specKeys };
}

export const toolColumns = {
  id: tools.id,
  sku: tools.sku,
  name: tools.name,
  productId: tools.productId,
  optionValues: tools.optionValues,
  brandId: tools.brandId,
  categoryId: tools.categoryId,
  priceCents: tools.priceCents,
  availableQuantity: tools.availableQuantity,
  minimumQuantity: tools.minimumQuantity,
  weightGrams: tools.weightGrams,
  gtin: tools.gtin,
  active: tools.active,
  description: tools.description,
  images: tools.images,
  image: tools.image,
  priceTiers: tools.priceTiers,
  specs: tools.specs,
};
export type SheetTool = { [K in keyof typeof toolColumns]: (typeof tools.$inferSelect)[K] };

/** What a tool's cells read besides the tool: slugs by id, and its product. */
export interface SheetContext {
  categorySlug: Map<string, string>;
  brandSlug: Map<string, string>;
  products: Map<string, { name: string; options: { name: string; values: string[] }[] }>;
  specKeys: string[];
}

/** A tool's row as the file writes it, by column name (`spec:<key>` included): the export's and the import's one formatting. */
export function toolCells(tool: SheetTool, context: SheetContext): Record<string, string> {
  const product = tool.productId ? context.products.get(tool.productId) : undefined;
  const cells: Record<string, string> = {
    sku: tool.sku,
    name: tool.name,
    product: product?.name ?? "",
    option1_name: "",
    option1_value: "",
    option2_name: "",
    option2_value: "",
    option3_name: "",
    option3_value: "",
    brand: tool.brandId ? (context.brandSlug.get(tool.brandId) ?? "") : "",
    category: context.categorySlug.get(tool.categoryId) ?? "",
    price: centsText(tool.priceCents),
    stock: String(tool.availableQuantity),
    minimum_quantity: String(tool.minimumQuantity),
    weight_grams: String(tool.weightGrams),
    gtin: tool.gtin ?? "",
    active: tool.active ? "true" : "false",
    description: tool.description,
    images: (tool.images.length > 0 ? tool.images : [tool.image]).join("|"),
    price_tiers: tool.priceTiers.map((t) => `${t.minQuantity}:${centsText(t.priceCents)}`).join("|"),
  };
  (product?.options ?? []).slice(0, 3).forEach((option, i) => {
    cells[`option${i + 1}_name`] = option.name;
    cells[`option${i + 1}_value`] = tool.optionValues[option.name] ?? "";
  });
  for (const key of context.specKeys) cells[specColumn(key)] = specText(tool.specs[key]);
  return cells;
}

/** The slugs of the tree and of every brand (hundreds, thousands: small next to the tools). */
export async function slugMaps(db: Db | Tx): Promise<Pick<SheetContext, "categorySlug" | "brandSlug">> {
  const [categoryRows, brandRows] = await Promise.all([db.select({ id: categories.id, slug: categories.slug }).from(categories), db.select({ id: brands.id, slug: brands.slug }).from(brands)]);
  return { categorySlug: new Map(categoryRows.map((c) => [c.id, c.slug])), brandSlug: new Map(brandRows.map((b) => [b.id, b.slug])) };
}

/** The products of these tools, by id. */
export async function productsOfTools(db: Db | Tx, batch: { productId: string | null }[]): Promise<SheetContext["products"]> {
  const ids = [...new Set(batch.flatMap((t) => (t.productId ? [t.productId] : [])))];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: products.id, name: products.name, options: products.options }).from(products).where(inArray(products.id, ids));
  return new Map(rows.map((p) => [p.id, p]));
}

/** Every tool's cells, in SKU order, a batch at a time. */
async function* catalogueRecords(db: Db, header: string[], specKeys: string[]): AsyncGenerator<string[]> {
  const slugs = await slugMaps(db);
  let last: string | undefined;
  for (;;) {
    const batch: SheetTool[] = await db
      .select(toolColumns)
      .from(tools)
      .where(last === undefined ? undefined : gt(tools.sku, last))
      .orderBy(asc(tools.sku))
      .limit(BATCH);
    if (batch.length === 0) return;
    const context: SheetContext = { ...slugs, products: await productsOfTools(db, batch), specKeys };
    for (const tool of batch) {
      const cells = toolCells(tool, context);
      yield header.map((column) => cells[column] ?? "");
    }
    last = batch[batch.length - 1]?.sku;
  }
}

/** The whole catalogue as a CSV stream (RFC 4180: quoted where needed, `\n` between records, UTF-8). */
export async function catalogueCsv(db: Db): Promise<Readable> {
  const { header, specKeys } = await catalogueHeader(db);
  const csv = stringify();
  async function* withHeader() {
    yield header;
    yield* catalogueRecords(db, header, specKeys);
  }
  const records = Readable.from(withHeader());
  records.on("error", (error) => csv.destroy(error));
  return records.pipe(csv);
}
