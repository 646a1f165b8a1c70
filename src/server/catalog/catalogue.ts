/**
 * The catalogue's own records (issue 50, decision 0023): brands, the category tree and the
 * specification definitions, managed by the owner (audited), and what a tool's public shape
 * reads from them (`CatalogueView`).
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type {
  Product,
  productInputSchema,
  productPatchSchema,
  Brand,
  brandInputSchema,
  brandPatchSchema,
  CategoryNode,
  categoryInputSchema,
  categoryPatchSchema,
  SpecDefinition,
  specDefinitionInputSchema,
  specDefinitionPatchSchema,
  SpecValue,
} from "../../contract/catalogue-schemas";
import { CATEGORIES, type Category } from "../../contract/constants";
import { centsToDollars } from "../../contract/money";
import { CATALOGUE_API_TEXT } from "../../contract/texts/catalogue";
import { recordAudit, type AuditActor } from "../audit";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
import { brands, categories, products, specDefinitions, tools } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";

type CategoryRow = typeof categories.$inferSelect;
type SpecRow = typeof specDefinitions.$inferSelect;

/** A 400 in the validation error's shape, naming the field of the body. */
export const invalidField = (field: string, message: string) =>
  new ApiError(400, "VALIDATION", message, { details: [{ path: `body.${field}`, message }] });

/** Postgres's unique_violation, as either driver reports it (Drizzle wraps the driver's error in `cause`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint: name, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === "23505") return constraint === undefined || name === constraint || (typeof message === "string" && message.includes(constraint));
  }
  return false;
}

const isRoot = (slug: string): slug is Category => (CATEGORIES as readonly string[]).includes(slug);

// ---------------------------------------------------------------- brands

const brandDto = (row: { slug: string; name: string }): Brand => ({ slug: row.slug, name: row.name });

export async function listBrands(db: Db): Promise<Brand[]> {
  return (await db.select().from(brands).orderBy(asc(brands.name), asc(brands.slug))).map(brandDto);
}

export async function brandIdOf(db: Db | Tx, slug: string): Promise<string> {
  const [row] = await db.select({ id: brands.id }).from(brands).where(eq(brands.slug, slug));
  if (!row) throw invalidField("brand", CATALOGUE_API_TEXT.brandNotFound);
  return row.id;
}

export async function createBrand(db: Db, input: z.output<typeof brandInputSchema>, actor: AuditActor): Promise<Brand> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(brands).values(input).returning();
      if (!row) throw new Error("insert returned no row");
      await recordAudit(tx, actor, { action: "brand.create", entity: "brand", entityId: row.slug, after: brandDto(row) });
      return brandDto(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("SLUG_TAKEN", CATALOGUE_API_TEXT.brandTaken(input.slug));
    throw error;
  }
}

export async function updateBrand(db: Db, slug: string, patch: z.output<typeof brandPatchSchema>, actor: AuditActor): Promise<Brand> {
  try {
    const brand = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(brands).where(eq(brands.slug, slug)).for("update");
      if (!before) throw notFound(CATALOGUE_API_TEXT.brandNotFound);
      const [after] = await tx.update(brands).set(patch).where(eq(brands.id, before.id)).returning();
      if (!after) throw new Error("brand vanished under its lock");
      await recordAudit(tx, actor, { action: "brand.update", entity: "brand", entityId: after.slug, before: brandDto(before), after: brandDto(after) });
      return brandDto(after);
    });
    announceChange(db, "tools");
    return brand;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("SLUG_TAKEN", CATALOGUE_API_TEXT.brandTaken(patch.slug ?? slug));
    throw error;
  }
}

/** A brand that tools still name stays (409 BRAND_IN_USE): a tool's brand is never lost silently. */
export async function deleteBrand(db: Db, slug: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(brands).where(eq(brands.slug, slug)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.brandNotFound);
    if ((await tx.$count(tools, eq(tools.brandId, before.id))) > 0) throw conflict("BRAND_IN_USE", CATALOGUE_API_TEXT.brandInUse);
    await tx.delete(brands).where(eq(brands.id, before.id));
    await recordAudit(tx, actor, { action: "brand.delete", entity: "brand", entityId: slug, before: brandDto(before) });
  });
}

// ---------------------------------------------------------------- categories

/** The whole tree (a few hundred rows at most): read whole, walked in memory. */
async function allCategories(db: Db | Tx): Promise<CategoryRow[]> {
  return db.select().from(categories).orderBy(asc(categories.position), asc(categories.name));
}

function categoryDto(row: CategoryRow, byId: Map<string, CategoryRow>): CategoryNode {
  return { slug: row.slug, name: row.name, parentSlug: row.parentId ? (byId.get(row.parentId)?.slug ?? null) : null, position: row.position };
}

/** Every category, parents before children, siblings by position. */
export async function listCategories(db: Db): Promise<CategoryNode[]> {
  const rows = await allCategories(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered: CategoryNode[] = [];
  const visit = (parentId: string | null) => {
    for (const row of rows.filter((r) => r.parentId === parentId)) {
      ordered.push(categoryDto(row, byId));
      visit(row.id);
    }
  };
  visit(null);
  return ordered;
}

/** The ids of a category and all below it. */
function subtreeIds(rows: CategoryRow[], id: string): string[] {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) for (const row of rows) if (row.parentId === ids[i]) ids.push(row.id);
  return ids;
}

/** The root of a category: the spec's category the tool is listed under for old clients. */
function rootOf(byId: Map<string, CategoryRow>, id: string): CategoryRow {
  let row = byId.get(id);
  for (let depth = 0; row?.parentId && depth < 100; depth++) row = byId.get(row.parentId);
  if (!row) throw new Error(`category ${id} has no root`);
  return row;
}

/**
 * A `category=` of the list: null for a root (the tools' own root column, indexed, answers it),
 * else the ids of the category and its descendants. Unknown → undefined.
 */
export async function categoryFilter(db: Db, slug: string): Promise<{ root: Category } | { ids: string[] } | undefined> {
  if (isRoot(slug)) return { root: slug };
  const rows = await allCategories(db);
  const row = rows.find((r) => r.slug === slug);
  return row ? { ids: subtreeIds(rows, row.id) } : undefined;
}

/** A tool's category from a slug of the tree: its id (the tool's root follows by trigger). */
export async function categoryIdOf(db: Db | Tx, slug: string): Promise<string> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug));
  if (!row) throw invalidField("category", CATALOGUE_API_TEXT.categoryNotFound);
  return row.id;
}

async function nextPosition(tx: Tx, parentId: string): Promise<number> {
  const [row] = await tx.select({ max: sql<number | null>`max(${categories.position})` }).from(categories).where(eq(categories.parentId, parentId));
  return row?.max === null || row?.max === undefined ? 0 : Number(row.max) + 1;
}

/** A new category goes under a parent: the four roots are the only roots (decision 0023). */
export async function createCategory(db: Db, input: z.output<typeof categoryInputSchema>, actor: AuditActor): Promise<CategoryNode> {
  if (!input.parentSlug) throw invalidField("parentSlug", CATALOGUE_API_TEXT.categoryRoot);
  const parentSlug = input.parentSlug;
  try {
    const node = await db.transaction(async (tx) => {
      const [parent] = await tx.select().from(categories).where(eq(categories.slug, parentSlug));
      if (!parent) throw invalidField("parentSlug", CATALOGUE_API_TEXT.categoryNotFound);
      const position = input.position ?? (await nextPosition(tx, parent.id));
      const [row] = await tx.insert(categories).values({ slug: input.slug, name: input.name, parentId: parent.id, position }).returning();
      if (!row) throw new Error("insert returned no row");
      const dto = { slug: row.slug, name: row.name, parentSlug: parent.slug, position: row.position };
      await recordAudit(tx, actor, { action: "category.create", entity: "category", entityId: row.slug, after: dto });
      return dto;
    });
    announceChange(db, "tools");
    return node;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("SLUG_TAKEN", CATALOGUE_API_TEXT.categoryTaken(input.slug));
    throw error;
  }
}

/**
 * Renames, reorders or moves a category. A move under itself or a descendant is a cycle (409);
 * a move to another root re-files its tools under that root (`tools.category`), locking them in
 * id order as checkout does, so the two never wait on each other in a circle.
 */
export async function updateCategory(db: Db, slug: string, patch: z.output<typeof categoryPatchSchema>, actor: AuditActor): Promise<CategoryNode> {
  try {
    const node = await db.transaction(async (tx) => {
      // One owner's edit of the tree at a time: the cycle check reads the whole tree.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('toolyard:categories'))`);
      const rows = await allCategories(tx);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const before = rows.find((row) => row.slug === slug);
      if (!before) throw notFound(CATALOGUE_API_TEXT.categoryNotFound);
      const root = before.parentId === null;
      if (root && patch.slug !== undefined && patch.slug !== before.slug) throw invalidField("slug", CATALOGUE_API_TEXT.categoryRoot);
      let parentId = before.parentId;
      if (patch.parentSlug !== undefined) {
        if (patch.parentSlug === null) {
          if (!root) throw invalidField("parentSlug", CATALOGUE_API_TEXT.categoryRoot);
        } else {
          const parent = rows.find((row) => row.slug === patch.parentSlug);
          if (!parent) throw invalidField("parentSlug", CATALOGUE_API_TEXT.categoryNotFound);
          if (subtreeIds(rows, before.id).includes(parent.id)) throw conflict("CATEGORY_CYCLE", CATALOGUE_API_TEXT.categoryCycle);
          if (root) throw invalidField("parentSlug", CATALOGUE_API_TEXT.categoryRoot);
          parentId = parent.id;
        }
      }
      const moved = parentId !== before.parentId;
      const position = patch.position ?? (moved && parentId ? await nextPosition(tx, parentId) : before.position);
      const [after] = await tx
        .update(categories)
        .set({ ...(patch.slug === undefined ? {} : { slug: patch.slug }), ...(patch.name === undefined ? {} : { name: patch.name }), parentId, position })
        .where(eq(categories.id, before.id))
        .returning();
      if (!after) throw new Error("category vanished under its lock");
      byId.set(after.id, after);
      if (moved) {
        const oldRoot = rootOf(byId, before.parentId ?? before.id);
        const newRoot = rootOf(byId, after.id);
        if (oldRoot.id !== newRoot.id) {
          const ids = subtreeIds([...byId.values()], after.id);
          const locked = await tx.select({ id: tools.id }).from(tools).where(inArray(tools.categoryId, ids)).orderBy(asc(tools.id)).for("no key update");
          if (locked.length > 0) {
            await tx.execute(sql`update tools set category = ${newRoot.slug}::tool_category where category_id in ${ids}`);
          }
        }
      }
      const dto = categoryDto(after, byId);
      await recordAudit(tx, actor, { action: moved ? "category.move" : "category.update", entity: "category", entityId: after.slug, before: categoryDto(before, byId), after: dto });
      return dto;
    });
    announceChange(db, "tools");
    return node;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("SLUG_TAKEN", CATALOGUE_API_TEXT.categoryTaken(patch.slug ?? slug));
    throw error;
  }
}

/** A category with tools (archived ones too) or sub-categories stays: 409 CATEGORY_IN_USE; so does a root. */
export async function deleteCategory(db: Db, slug: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('toolyard:categories'))`);
    const [before] = await tx.select().from(categories).where(eq(categories.slug, slug)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.categoryNotFound);
    if (before.parentId === null) throw conflict("CATEGORY_IN_USE", CATALOGUE_API_TEXT.categoryRoot);
    const children = await tx.$count(categories, eq(categories.parentId, before.id));
    const used = await tx.$count(tools, eq(tools.categoryId, before.id));
    if (children + used > 0) throw conflict("CATEGORY_IN_USE", CATALOGUE_API_TEXT.categoryInUse);
    await tx.delete(categories).where(eq(categories.id, before.id));
    await recordAudit(tx, actor, { action: "category.delete", entity: "category", entityId: slug, before: { slug: before.slug, name: before.name } });
  });
  announceChange(db, "tools");
}

// ---------------------------------------------------------------- specification definitions

const specDto = (row: SpecRow): SpecDefinition => ({ key: row.key, name: row.name, unit: row.unit, kind: row.kind, filterable: row.filterable });

export async function listSpecDefinitions(db: Db | Tx): Promise<SpecDefinition[]> {
  return (await db.select().from(specDefinitions).orderBy(asc(specDefinitions.position), asc(specDefinitions.key))).map(specDto);
}

export async function createSpecDefinition(db: Db, input: z.output<typeof specDefinitionInputSchema>, actor: AuditActor): Promise<SpecDefinition> {
  try {
    return await db.transaction(async (tx) => {
      const [last] = await tx.select({ max: sql<number | null>`max(${specDefinitions.position})` }).from(specDefinitions);
      const position = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
      const [row] = await tx
        .insert(specDefinitions)
        .values({ key: input.key, name: input.name, unit: input.unit ?? null, kind: input.kind, filterable: input.filterable ?? false, position })
        .returning();
      if (!row) throw new Error("insert returned no row");
      await recordAudit(tx, actor, { action: "spec.create", entity: "spec", entityId: row.key, after: specDto(row) });
      return specDto(row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("KEY_TAKEN", CATALOGUE_API_TEXT.specTaken(input.key));
    throw error;
  }
}

/**
 * Changes a definition. Its kind changes only while no tool has a value of it (the values would
 * no longer be of their kind): 409 SPEC_IN_USE.
 */
export async function updateSpecDefinition(db: Db, key: string, patch: z.output<typeof specDefinitionPatchSchema>, actor: AuditActor): Promise<SpecDefinition> {
  const spec = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(specDefinitions).where(eq(specDefinitions.key, key)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.specNotFound);
    if (patch.kind !== undefined && patch.kind !== before.kind && (await tx.$count(tools, sql`${tools.specs} ? ${key}`)) > 0) {
      throw conflict("SPEC_IN_USE", CATALOGUE_API_TEXT.specKind(key, before.kind));
    }
    const [after] = await tx
      .update(specDefinitions)
      .set({
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.unit === undefined ? {} : { unit: patch.unit }),
        ...(patch.kind === undefined ? {} : { kind: patch.kind }),
        ...(patch.filterable === undefined ? {} : { filterable: patch.filterable }),
      })
      .where(eq(specDefinitions.key, key))
      .returning();
    if (!after) throw new Error("spec vanished under its lock");
    await recordAudit(tx, actor, { action: "spec.update", entity: "spec", entityId: key, before: specDto(before), after: specDto(after) });
    return specDto(after);
  });
  announceChange(db, "tools");
  return spec;
}

/** A definition with values stays (409 SPEC_IN_USE): clear them from the tools first. */
export async function deleteSpecDefinition(db: Db, key: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(specDefinitions).where(eq(specDefinitions.key, key)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.specNotFound);
    if ((await tx.$count(tools, sql`${tools.specs} ? ${key}`)) > 0) throw conflict("SPEC_IN_USE", CATALOGUE_API_TEXT.specInUse);
    await tx.delete(specDefinitions).where(eq(specDefinitions.key, key));
    await recordAudit(tx, actor, { action: "spec.delete", entity: "spec", entityId: key, before: specDto(before) });
  });
}

/**
 * A tool's specification values as they will be: `changes` (a value, or null to remove one)
 * over `current`, each checked against its definition's kind; an unknown key or a value of
 * the wrong kind is a 400 naming it.
 */
export async function checkedSpecs(
  db: Db | Tx,
  current: Record<string, SpecValue>,
  changes: Record<string, SpecValue | null>,
): Promise<Record<string, SpecValue>> {
  const keys = Object.keys(changes);
  if (keys.length === 0) return current;
  const defs = new Map((await db.select().from(specDefinitions).where(inArray(specDefinitions.key, keys))).map((d) => [d.key, d]));
  const next = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(changes)) {
    const def = defs.get(key);
    if (!def) throw invalidField(`specs.${key}`, CATALOGUE_API_TEXT.specUnknown(key));
    if (value === null) {
      next.delete(key);
      continue;
    }
    const ok = def.kind === "number" ? typeof value === "number" : def.kind === "boolean" ? typeof value === "boolean" : typeof value === "string";
    if (!ok) throw invalidField(`specs.${key}`, CATALOGUE_API_TEXT.specKind(key, def.kind));
    next.set(key, value);
  }
  return Object.fromEntries(next);
}

// ---------------------------------------------------------------- a tool's catalogue view

export interface VariantView {
  _id: string;
  sku: string;
  gtin: string | null;
  optionValues: Record<string, string>;
  price: number;
  availableQuantity: number;
}

/** What the tools of one answer read from the catalogue's records, loaded once for all of them. */
export interface CatalogueView {
  categories: Map<string, CategoryRow>;
  specs: SpecDefinition[];
  brands: Map<string, { slug: string; name: string }>;
  products: Map<string, { _id: string; name: string; options: { name: string; values: string[] }[] }>;
  variants: Map<string, VariantView[]>;
}

export const EMPTY_VIEW: CatalogueView = { categories: new Map(), specs: [], brands: new Map(), products: new Map(), variants: new Map() };

/** The view for these tools: the tree and definitions whole, their brands, products and the products' tools. */
export async function catalogueView(db: Db | Tx, rows: { brandId: string | null; productId: string | null }[]): Promise<CatalogueView> {
  const brandIds = [...new Set(rows.flatMap((row) => (row.brandId ? [row.brandId] : [])))];
  const productIds = [...new Set(rows.flatMap((row) => (row.productId ? [row.productId] : [])))];
  const [categoryRows, specs, brandRows, productRows] = await readAll(db, [
    () => allCategories(db),
    () => listSpecDefinitions(db),
    () => (brandIds.length > 0 ? db.select().from(brands).where(inArray(brands.id, brandIds)) : Promise.resolve([])),
    () => (productIds.length > 0 ? productsOf(db, productIds) : Promise.resolve({ products: [], variants: [] })),
  ] as const);
  const variants = new Map<string, VariantView[]>();
  for (const variant of productRows.variants) {
    const list = variants.get(variant.productId) ?? [];
    list.push({ _id: variant.id, sku: variant.sku, gtin: variant.gtin, optionValues: variant.optionValues, price: centsToDollars(variant.priceCents), availableQuantity: variant.availableQuantity });
    variants.set(variant.productId, list);
  }
  return {
    categories: new Map(categoryRows.map((row) => [row.id, row])),
    specs,
    brands: new Map(brandRows.map((row) => [row.id, { slug: row.slug, name: row.name }])),
    products: new Map(productRows.products.map((row) => [row.id, { _id: row.id, name: row.name, options: row.options }])),
    variants,
  };
}

/** Products by id, and their active tools (each a variant). */
async function productsOf(db: Db | Tx, ids: string[]) {
  const [productRows, variants] = await readAll(db, [
    () => db.select({ id: products.id, name: products.name, options: products.options }).from(products).where(inArray(products.id, ids)),
    () =>
      db
        .select({ id: tools.id, productId: tools.productId, sku: tools.sku, gtin: tools.gtin, optionValues: tools.optionValues, priceCents: tools.priceCents, availableQuantity: tools.availableQuantity })
        .from(tools)
        .where(and(inArray(tools.productId, ids), eq(tools.active, true)))
        .orderBy(asc(tools.priceCents), asc(tools.id)),
  ] as const);
  return { products: productRows, variants: variants.flatMap((v) => (v.productId ? [{ ...v, productId: v.productId }] : [])) };
}

/** The path from the root to a category, as `categoryPath` shows it. */
export function categoryPathOf(view: CatalogueView, categoryId: string, rootSlug: string): { slug: string; name: string }[] {
  const path: { slug: string; name: string }[] = [];
  let row = view.categories.get(categoryId);
  for (let depth = 0; row && depth < 100; depth++) {
    path.unshift({ slug: row.slug, name: row.name });
    row = row.parentId ? view.categories.get(row.parentId) : undefined;
  }
  return path.length > 0 ? path : [{ slug: rootSlug, name: rootSlug }];
}

/** A tool's values as the table shows them, in the definitions' order. */
export function specsOf(view: CatalogueView, values: Record<string, SpecValue>): { key: string; name: string; value: SpecValue; unit: string | null }[] {
  return view.specs.flatMap((def) => {
    const value = values[def.key];
    return value === undefined ? [] : [{ key: def.key, name: def.name, value, unit: def.unit }];
  });
}

// ---------------------------------------------------------------- products

type ProductRow = typeof products.$inferSelect;
const productDto = (row: ProductRow): Product => ({ _id: row.id, name: row.name, description: row.description, options: row.options, defaultToolId: row.defaultToolId });

/** Whether a tool's values name every option of the product once, each from its values, and nothing else. */
const valuesMatch = (options: ProductRow["options"], values: Record<string, string>) =>
  Object.keys(values).length === options.length && options.every((option) => values[option.name] !== undefined && option.values.includes(values[option.name] as string));

/**
 * A tool's option values against its product: every option named once with one of its values (else
 * 400 naming `optionValues`), and no other tool of the product with the same values (409
 * VARIANT_EXISTS; the unique index `tools_product_variant_idx` settles two racing ones).
 */
export async function checkOptionValues(tx: Tx, productId: string, values: Record<string, string>, toolId: string | undefined): Promise<void> {
  const [product] = await tx.select().from(products).where(eq(products.id, productId));
  if (!product) throw invalidField("productId", CATALOGUE_API_TEXT.productNotFound);
  if (!valuesMatch(product.options, values)) throw invalidField("optionValues", CATALOGUE_API_TEXT.optionValuesMismatch(product.options.map((o) => o.name)));
  const [twin] = await tx
    .select({ id: tools.id })
    .from(tools)
    .where(and(eq(tools.productId, productId), sql`${tools.optionValues} = ${JSON.stringify(values)}::jsonb`, toolId ? sql`${tools.id} <> ${toolId}` : undefined))
    .limit(1);
  if (twin) throw conflict("VARIANT_EXISTS", CATALOGUE_API_TEXT.variantExists);
}

export async function listProducts(db: Db): Promise<Product[]> {
  return (await db.select().from(products).orderBy(asc(products.name), asc(products.id))).map(productDto);
}

export async function getProduct(db: Db, id: string): Promise<Product> {
  const [row] = await db.select().from(products).where(eq(products.id, id));
  if (!row) throw notFound(CATALOGUE_API_TEXT.productNotFound);
  return productDto(row);
}

async function checkDefault(tx: Tx, productId: string, toolId: string | null | undefined): Promise<void> {
  if (!toolId) return;
  const [tool] = await tx.select({ productId: tools.productId }).from(tools).where(eq(tools.id, toolId));
  if (tool?.productId !== productId) throw invalidField("defaultToolId", CATALOGUE_API_TEXT.defaultToolNotInProduct);
}

/** A new product; its default tool, if named, joins it later (its value is kept, read only once it is one of its tools). */
export async function createProduct(db: Db, input: z.output<typeof productInputSchema>, actor: AuditActor): Promise<Product> {
  const product = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(products)
      .values({ name: input.name, description: input.description ?? "", options: input.options, defaultToolId: input.defaultToolId ?? null })
      .returning();
    if (!row) throw new Error("insert returned no row");
    await recordAudit(tx, actor, { action: "product.create", entity: "product", entityId: row.id, after: productDto(row) });
    return productDto(row);
  });
  return product;
}

/** Changes a product; new options must still fit every tool's values (else 400 naming `options`). */
export async function updateProduct(db: Db, id: string, patch: z.output<typeof productPatchSchema>, actor: AuditActor): Promise<Product> {
  const product = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.productNotFound);
    if (patch.options !== undefined) {
      const members = await tx.select({ optionValues: tools.optionValues }).from(tools).where(eq(tools.productId, id));
      const options = patch.options;
      if (members.some((m) => !valuesMatch(options, m.optionValues))) throw invalidField("options", CATALOGUE_API_TEXT.optionsOrphan);
    }
    await checkDefault(tx, id, patch.defaultToolId);
    const [after] = await tx
      .update(products)
      .set({
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.options === undefined ? {} : { options: patch.options }),
        ...(patch.defaultToolId === undefined ? {} : { defaultToolId: patch.defaultToolId }),
      })
      .where(eq(products.id, id))
      .returning();
    if (!after) throw new Error("product vanished under its lock");
    await recordAudit(tx, actor, { action: "product.update", entity: "product", entityId: id, before: productDto(before), after: productDto(after) });
    return productDto(after);
  });
  announceChange(db, "tools");
  return product;
}

/** Deletes a product: its tools stay, in no product (locked in id order, as checkout locks tools). */
export async function deleteProduct(db: Db, id: string, actor: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, id)).for("update");
    if (!before) throw notFound(CATALOGUE_API_TEXT.productNotFound);
    const members = await tx.select({ id: tools.id }).from(tools).where(eq(tools.productId, id)).orderBy(asc(tools.id)).for("no key update");
    if (members.length > 0) await tx.update(tools).set({ productId: null, optionValues: {} }).where(eq(tools.productId, id));
    await tx.delete(products).where(eq(products.id, id));
    await recordAudit(tx, actor, { action: "product.delete", entity: "product", entityId: id, before: { ...productDto(before), toolIds: members.map((m) => m.id) } });
  });
  announceChange(db, "tools");
}
