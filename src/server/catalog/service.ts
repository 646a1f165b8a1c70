import { and, asc, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import { CATEGORIES, COUNT_CAP, SUGGESTIONS_MAX, type Category, type ToolSort } from "../../contract/constants";
import { CATALOGUE_API_TEXT } from "../../contract/texts/catalogue";
import type { TierCents } from "../../contract/price-tiers";
import { priceTierIssues, type PriceTier, type Suggestion, type Tool, type ToolInput, type ToolPatch, type toolListQuerySchema } from "../../contract/schemas";
import type { AdminTool, AdminToolInput, AdminToolPatch, adminToolListQuerySchema, stockMovementInputSchema } from "../../contract/admin-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { recordAudit, type AuditActor, type AuditRecord } from "../audit";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { escapeLike } from "../db/like";
import { after, cappedCount, cappedTotal, keptCount, splitPage, type Page } from "../db/paging";
import { decodeCursor } from "../http/paging";
import { brands, orderLines, orders, products, quoteLines, specDefinitions, tools } from "../db/schema";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import type { SpecValue } from "../../contract/catalogue-schemas";
import { ApiError, badQuery, conflict, notFound } from "../http/errors";
import { changeStock, recordMovements } from "../stock/ledger";
import { keptListTotal } from "./kept-totals";
import { brandIdOf, catalogueView, checkOptionValues, categoryFilter, categoryIdOf, categoryPathOf, checkedSpecs, EMPTY_VIEW, invalidField, isUniqueViolation, specsOf, type CatalogueView } from "./catalogue";

type ToolRow = typeof tools.$inferSelect;

export const toToolDto = (row: ToolRow, view: CatalogueView = EMPTY_VIEW): Tool => ({
  _id: row.id,
  name: row.name,
  image: row.image,
  price: centsToDollars(row.priceCents),
  availableQuantity: row.availableQuantity,
  minimumQuantity: row.minimumQuantity,
  description: row.description,
  category: row.category,
  priceTiers: row.priceTiers.map((t) => ({ minQuantity: t.minQuantity, price: centsToDollars(t.priceCents) })),
  rating: ratingOf(row),
  sku: row.sku,
  gtin: row.gtin,
  brand: row.brandId ? (view.brands.get(row.brandId) ?? null) : null,
  categoryPath: categoryPathOf(view, row.categoryId, row.category),
  images: row.images.length > 0 ? row.images : [row.image],
  specs: specsOf(view, row.specs),
  product: row.productId ? (view.products.get(row.productId) ?? null) : null,
  optionValues: row.optionValues,
  variants: row.productId ? (view.variants.get(row.productId) ?? []) : [],
  ...priceFromOf(row, view),
});

/** A product's lowest price and how many tools it has; a tool in no product is a product of one. */
function priceFromOf(row: ToolRow, view: CatalogueView): { priceFrom: number; variantCount: number } {
  const variants = row.productId ? (view.variants.get(row.productId) ?? []) : [];
  if (variants.length === 0) return { priceFrom: centsToDollars(row.priceCents), variantCount: 1 };
  return { priceFrom: Math.min(...variants.map((v) => v.price)), variantCount: variants.length };
}

/** The public shapes of these rows, with what they read from the catalogue's records. */
export async function toToolDtos(db: Db | Tx, rows: ToolRow[]): Promise<Tool[]> {
  const view = await catalogueView(db, rows);
  return rows.map((row) => toToolDto(row, view));
}

/** The average to one decimal as Postgres rounds it (rating_tenths), and the count of visible reviews. */
export const ratingOf = (row: Pick<ToolRow, "ratingTenths" | "ratingCount">) => ({ average: (row.ratingTenths ?? 0) / 10, count: row.ratingCount });

const tiersInCents = (tiers: PriceTier[]): TierCents[] => tiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) }));

/**
 * A ladder that does not fit its tool (DESIGN "Price tiers": each tier above the minimum, prices
 * below the list price) is refused naming the tier, also when a change of the price or the minimum
 * alone makes the tiers the tool keeps wrong.
 */
function checkTiers(tiers: TierCents[], priceCents: number, minimumQuantity: number): void {
  const details = priceTierIssues(
    tiers.map((t) => ({ minQuantity: t.minQuantity, price: centsToDollars(t.priceCents) })),
    centsToDollars(priceCents),
    minimumQuantity,
  ).map((d) => ({ ...d, path: `body.${d.path}` }));
  const [first] = details;
  if (first) throw new ApiError(400, "VALIDATION", first.message, { details });
}

/** The list query as the route has parsed it (defaults applied): the contract's schema decides its shape. */
export type ToolQuery = z.infer<typeof toolListQuerySchema>;
export type AdminToolQuery = z.infer<typeof adminToolListQuerySchema>;
export type StockMovementRequest = z.output<typeof stockMovementInputSchema>;

/** `%` and `_` typed by a customer are literal characters, not wildcards. */

/** The tool list's orders: the columns of each, ending with the id so the order is total. */
const TOOL_ORDERS = {
  oldest: { columns: [tools.createdAt, tools.id], descending: false },
  newest: { columns: [tools.createdAt, tools.id], descending: true },
  "price-asc": { columns: [tools.priceCents, tools.id], descending: false },
  "price-desc": { columns: [tools.priceCents, tools.id], descending: true },
  // Best rated first: the exact average, then how many reviews (rating_rank, migration 0019).
  rating: { columns: [tools.ratingRank, tools.id], descending: true },
} as const;
type KeyedSort = keyof typeof TOOL_ORDERS;

/** The tool's words, kept by a trigger (migration 0003); not in schema.ts so rows never carry it. */
export const searchVector = sql`"tools"."search_vector"`;

/**
 * A customer's search as a full-text query: every word, stemmed as the index is, and the last
 * one also as the start of a longer word, since it may still be being typed ('chain' finds
 * chainsaws). Only the last: each prefix makes the index merge every word it starts (a
 * 'hedge:* & trimmer:*' search took 7 ms at 100,000 tools, 'hedge & trimmer:*' 0.5 ms). Null
 * when the text has no word.
 */
export function searchWords(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (!words) return null;
  return words.map((word, i) => (i === words.length - 1 ? `${word}:*` : word)).join(" & ");
}

const byDate = (sort: KeyedSort) => sort === "oldest" || sort === "newest";
/**
 * A row of a keyed page with its created_at as Postgres writes it: a JavaScript Date keeps
 * milliseconds, the column microseconds, and a cursor must point exactly between two rows.
 */
interface KeyedRow {
  row: ToolRow;
  created: string;
}
const cursorKeyOf = (sort: KeyedSort, { row, created }: KeyedRow) =>
  byDate(sort) ? [created, row.id] : [sort === "rating" ? (row.ratingRank ?? 0) : row.priceCents, row.id];


/** `spec.<key>=value` filters by key (values of one key OR, keys AND); `min..max` a range of a number. */
export type SpecQuery = Record<string, string[]>;

/** The `spec.<key>` parameters of a query string (they are not in the zod schema: their names vary). */
export function specQueryOf(url: string): SpecQuery {
  const spec: SpecQuery = {};
  const search = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
  for (const [name, value] of new URLSearchParams(search)) {
    if (!name.startsWith("spec.") || name.length <= 5 || value === "") continue;
    (spec[name.slice(5)] ??= []).push(value);
  }
  return spec;
}

async function brandIdsOf(db: Db, slugs: string[]): Promise<string[]> {
  return (await db.select({ id: brands.id }).from(brands).where(inArray(brands.slug, slugs))).map((b) => b.id);
}

const RANGE = /^(-?\d+(?:\.\d+)?)?\.\.(-?\d+(?:\.\d+)?)?$/;

/**
 * The spec filters as conditions on a tool: a value is matched by containment (`specs @> {key: v}`,
 * the GIN index), typed as the definition says; a number's `min..max` by its value. An unknown key
 * or a value that is not of its kind is a 400 naming it.
 */
/** The columns of `tools`, or of an alias of it, that the list's conditions read. */
export type ToolColumns = Record<"id" | "active" | "category" | "categoryId" | "priceCents" | "brandId" | "specs" | "productId" | "availableQuantity", AnyPgColumn>;

async function specFilter(db: Db, spec: SpecQuery): Promise<Map<string, (t: ToolColumns) => SQL>> {
  const defs = new Map((await db.select().from(specDefinitions).where(inArray(specDefinitions.key, Object.keys(spec)))).map((d) => [d.key, d]));
  const perKey = new Map<string, (t: ToolColumns) => SQL>();
  for (const [key, values] of Object.entries(spec)) {
    const def = defs.get(key);
    if (!def) throw badQuery(`spec.${key}`, CATALOGUE_API_TEXT.specUnknown(key));
    const alternatives: ((t: ToolColumns) => SQL)[] = values.map((value) => {
      const range = def.kind === "number" ? RANGE.exec(value) : null;
      if (range && (range[1] !== undefined || range[2] !== undefined)) {
        const [, min, max] = range;
        return (t) => {
          const number = sql`(case when jsonb_typeof(${t.specs} -> ${key}) = 'number' then (${t.specs} ->> ${key})::numeric end)`;
          return and(sql`${t.specs} ? ${key}`, min === undefined ? undefined : sql`${number} >= ${Number(min)}`, max === undefined ? undefined : sql`${number} <= ${Number(max)}`) ?? sql`true`;
        };
      }
      let typed: SpecValue;
      if (def.kind === "number") {
        if (!/^-?\d+(\.\d+)?$/.test(value)) throw badQuery(`spec.${key}`, CATALOGUE_API_TEXT.specKind(key, def.kind));
        typed = Number(value);
      } else if (def.kind === "boolean") {
        if (value !== "true" && value !== "false") throw badQuery(`spec.${key}`, CATALOGUE_API_TEXT.specKind(key, def.kind));
        typed = value === "true";
      } else typed = value;
      const json = JSON.stringify({ [key]: typed });
      return (t) => sql`${t.specs} @> ${json}::jsonb`;
    });
    perKey.set(key, (t) => or(...alternatives.map((alternative) => alternative(t))) ?? sql`false`);
  }
  return perKey;
}

/** Whether any active tool is in a product (the tools_product_idx answers it at once). */
export async function anyProductTools(db: Db): Promise<boolean> {
  const [row] = await db.select({ one: sql`1` }).from(tools).where(and(sql`${tools.productId} is not null`, eq(tools.active, true))).limit(1);
  return row !== undefined;
}

/**
 * The list's one row per product, chosen when it is read (never kept in a column: keeping it would
 * have checkout write a product's other tools, decision 0023): a tool in no product is its own row;
 * in a product, the row is the tool the product names as its default, else the cheapest in stock,
 * else the cheapest, among its tools that pass the list's filters. Each product has a few tools, read
 * through tools_product_idx, so the list keeps walking the index of its order.
 */
export function productRow(conditionsOn: (t: ToolColumns) => SQL[]): SQL {
  const r = alias(tools, "r");
  return sql`(${tools.productId} is null or ${tools.id} = (select ${r.id} from ${tools} as "r" join ${products} on ${products.id} = ${r.productId}
    where ${r.productId} = ${tools.productId} and ${and(...conditionsOn(r))}
    order by (${r.id} = ${products.defaultToolId}) desc nulls last, (${r.availableQuantity} > 0) desc, ${r.priceCents}, ${r.id} limit 1))`;
}

/** A filter of the list that the facets leave out when counting that filter's own choices. */
export type FilterKey = "category" | "brand" | "price" | `spec.${string}`;

/**
 * The list's filters (category, brand, spec.<key>, price), read once: the list and its facets
 * (facets.ts) build their conditions here, so the rules are written once. `conditionsOn(t, omit)`
 * gives the conditions on one tool (of `tools` or an alias), without the filter `omit`.
 */
export async function listFilters(db: Db, query: Pick<ToolQuery, "category" | "brand" | "minPrice" | "maxPrice"> & { spec?: SpecQuery }) {
  // A root (the spec's four) is the tools' own indexed root column; a sub-category its subtree's ids.
  let rootCategory: Category | undefined;
  let subtree: string[] | undefined;
  if (query.category) {
    const category = await categoryFilter(db, query.category);
    if (!category) throw badQuery("category", CATALOGUE_API_TEXT.categoryNotFound);
    if ("root" in category) rootCategory = category.root;
    else subtree = category.ids;
  }
  const brandIds = query.brand && query.brand.length > 0 ? await brandIdsOf(db, query.brand) : undefined;
  const specConditions = query.spec && Object.keys(query.spec).length > 0 ? await specFilter(db, query.spec) : undefined;
  /** The conditions on one tool, for the list's rows and for choosing a product's row among its tools. */
  const conditionsOn = (t: ToolColumns, omit?: FilterKey): SQL[] => {
    const conditions: SQL[] = [eq(t.active, true)];
    if (omit !== "category") {
      if (rootCategory) conditions.push(eq(t.category, rootCategory));
      if (subtree) conditions.push(inArray(t.categoryId, subtree));
    }
    if (omit !== "price") {
      if (query.minPrice !== undefined) conditions.push(gte(t.priceCents, dollarsToCents(query.minPrice)));
      if (query.maxPrice !== undefined) conditions.push(lte(t.priceCents, dollarsToCents(query.maxPrice)));
    }
    if (brandIds && omit !== "brand") conditions.push(brandIds.length > 0 ? inArray(t.brandId, brandIds) : sql`false`);
    if (specConditions) for (const [key, condition] of specConditions) if (omit !== `spec.${key}`) conditions.push(condition(t));
    return conditions;
  };
  return { rootCategory, subtree, brandIds, specConditions, conditionsOn };
}

/**
 * The shop's tool list. Without a search it reads the index of its order from the first row of
 * the page (a cursor continues where the last page ended); with one it asks the full-text
 * index, ranked, and when the words find nothing, names alike ('chainsw' finds chainsaws).
 */
export async function listTools(db: Db, query: ToolQuery & { spec?: SpecQuery }): Promise<Page<Tool>> {
  const { rootCategory, subtree, brandIds, specConditions, conditionsOn } = await listFilters(db, query);
  const filters = conditionsOn(tools);
  // One row per product (DESIGN): skipped when asked for every tool, or when no tool is in a product.
  const grouped = query.variants !== "all" && (await anyProductTools(db));
  if (grouped) filters.push(productRow((t) => conditionsOn(t)));
  // Anything but a root category and an order: counted by the query, not by the kept counts.
  const priced = query.minPrice !== undefined || query.maxPrice !== undefined || subtree !== undefined || brandIds !== undefined || specConditions !== undefined || grouped;

  if (query.q) {
    const words = searchWords(query.q);
    const sort = query.sort ?? "relevance";
    if (words) {
      const tsquery = sql`to_tsquery('english', ${words})`;
      const found = await searchPage(db, query, [...filters, sql`${searchVector} @@ ${tsquery}`], sort, sql`ts_rank(${searchVector}, ${tsquery})`);
      if (found.items.length > 0 || query.page > 1 || query.cursor) return found;
    }
    // Nothing matched the words: names that look like the text, most alike first.
    const alike = sql`${query.q} <% ${tools.name}`;
    return searchPage(db, query, [...filters, alike], sort, sql`word_similarity(${query.q}, ${tools.name})`);
  }

  const sort: KeyedSort = query.sort === undefined || query.sort === "relevance" ? "oldest" : query.sort;
  const where = and(...filters);
  // A category page (or the whole catalogue) of a store with products: nothing but the grouping and a category.
  const categoryPage = grouped && query.minPrice === undefined && query.maxPrice === undefined && brandIds === undefined && specConditions === undefined;
  const count = () => cappedCount(db, db.select({ one: sql`1` }).from(tools).where(where).$dynamic());
  const [rows, total] = await Promise.all([
    // A root's or the whole catalogue's page is a prepared statement, the product row's choice in it.
    categoryPage && subtree === undefined ? browseRows(db, sort, query, rootCategory, true) : priced ? keyedRows(db, where, sort, query) : browseRows(db, sort, query, rootCategory, false),
    // One row per product is counted by the query (capped like a filtered list's): an exact count of products
    // took 400 ms at 100,000 tools (a third in products), decision 0023. A category page's count is kept per
    // catalogue version (kept-totals.ts): the capped count took 90 ms there.
    categoryPage ? keptListTotal(db, query.category, count) : priced ? count() : keptCount(db, rootCategory ? `tools:${rootCategory}` : "tools"),
  ]);
  const page = splitPage(rows, query.limit, (row) => cursorKeyOf(sort, row));
  return { items: await toToolDtos(db, page.rows.map(({ row }) => row)), ...total, next: page.next };
}

/** The sort key a cursor holds for `sort`, checked (a forged one is a 400). */
function cursorKey(sort: KeyedSort, cursor: string): [string | number, string] {
  const key = decodeCursor(cursor, byDate(sort) ? ["string", "string"] : ["number", "string"]);
  if (byDate(sort) && Number.isNaN(Date.parse(String(key[0])))) throw badQuery("cursor", VALIDATION_TEXT.cursorInvalid);
  return [key[0] as string | number, key[1] as string];
}

/** `(sort columns) > (key)` (or `<` when descending), the key being SQL values or placeholders. */
function afterKey(sort: KeyedSort, key: SQL, id: SQL): SQL {
  const order = TOOL_ORDERS[sort];
  return after(
    order.columns.map((column) => sql`${column}`),
    [byDate(sort) ? sql`${key}::timestamptz` : key, id],
    order.descending,
  );
}

const orderBy = (sort: KeyedSort) => {
  const order = TOOL_ORDERS[sort];
  return order.columns.map((column) => (order.descending ? desc(column) : asc(column)));
};

const keyedColumns = { row: tools, created: sql<string>`${tools.createdAt}::text` };

/** A page of the list in a keyed order: after the cursor's row, or at the page's offset. */
function keyedRows(db: Db, where: SQL | undefined, sort: KeyedSort, query: ToolQuery): Promise<KeyedRow[]> {
  const conditions = [where];
  if (query.cursor) {
    const [key, id] = cursorKey(sort, query.cursor);
    conditions.push(afterKey(sort, sql`${key}`, sql`${id}`));
  }
  const select = db
    .select(keyedColumns)
    .from(tools)
    .where(and(...conditions))
    .orderBy(...orderBy(sort))
    .limit(query.limit + 1);
  return query.cursor ? select : select.offset((query.page - 1) * query.limit);
}

/**
 * The catalogue's everyday pages (no search, no price range) as statements prepared once per
 * shape (order × category × cursor) and database: Drizzle builds their SQL once, and Postgres
 * parses and plans them once per connection. Building queries was 12–21 % of the server's CPU
 * under load.
 */
function prepareBrowse(db: Db, sort: KeyedSort, byCategory: boolean, withCursor: boolean, grouped: boolean) {
  const on = (t: ToolColumns): SQL[] => [eq(t.active, true), ...(byCategory ? [eq(t.category, sql.placeholder("category"))] : [])];
  const conditions = on(tools);
  // One row per product, chosen among its tools on the same conditions (as listTools adds it).
  if (grouped) conditions.push(productRow(on));
  if (withCursor) conditions.push(afterKey(sort, sql`${sql.placeholder("key")}`, sql`${sql.placeholder("id")}`));
  return db
    .select(keyedColumns)
    .from(tools)
    .where(and(...conditions))
    .orderBy(...orderBy(sort))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare(`tools_browse_${sort.replace("-", "_")}_${byCategory ? "category" : "all"}${withCursor ? "_after" : ""}${grouped ? "_grouped" : ""}`);
}
type Browse = ReturnType<typeof prepareBrowse>;
const browsing = new WeakMap<Db, Map<string, Browse>>();

function browseRows(db: Db, sort: KeyedSort, query: ToolQuery, category: Category | undefined, grouped: boolean): Promise<KeyedRow[]> {
  const byCategory = category !== undefined;
  const withCursor = query.cursor !== undefined;
  const shape = `${sort}:${byCategory}:${withCursor}:${grouped}`;
  let prepared = browsing.get(db);
  if (!prepared) browsing.set(db, (prepared = new Map()));
  let statement = prepared.get(shape);
  if (!statement) prepared.set(shape, (statement = prepareBrowse(db, sort, byCategory, withCursor, grouped)));
  const [key, id] = query.cursor ? cursorKey(sort, query.cursor) : [undefined, undefined];
  return statement.execute({
    category,
    key,
    id,
    limit: query.limit + 1,
    offset: query.cursor ? 0 : (query.page - 1) * query.limit,
  });
}

/** A page of search results: ranked (relevance) or in a keyed order, with a capped total. */
async function searchPage(db: Db, query: ToolQuery, filters: SQL[], sort: ToolSort, rank: SQL): Promise<Page<Tool>> {
  const where = and(...filters);
  const count = () => cappedCount(db, db.select({ one: sql`1` }).from(tools).where(where).$dynamic());
  if (sort !== "relevance") {
    const total = count();
    const [rows, counted] = await Promise.all([keyedRows(db, where, sort, query), total]);
    const page = splitPage(rows, query.limit, (row) => cursorKeyOf(sort, row));
    return { items: await toToolDtos(db, page.rows.map(({ row }) => row)), ...counted, next: page.next };
  }
  // Ranked results have no stable key to continue from: page numbers only. Ranking every match
  // of a broad word ('drill' in 10,000 names) costs the catalogue, so the first COUNT_CAP + 1
  // matches the index gives are ranked (and counted) in one statement, and only the page's own
  // rows are read whole (joining all 1,001 took 37 ms at 100,000 tools, the page's 12 under 1).
  const candidates = db.$with("candidates").as(
    db
      .select({ id: tools.id, rank: sql<number>`${rank}`.as("rank") })
      .from(tools)
      .where(where)
      .limit(COUNT_CAP + 1),
  );
  const onPage = db.$with("on_page").as(
    db
      .select({ id: candidates.id, rank: candidates.rank })
      .from(candidates)
      .orderBy(desc(candidates.rank), asc(candidates.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  );
  const rows = await db
    .with(candidates, onPage)
    .select({ row: tools, n: sql<number>`(select count(*) from ${candidates})`.mapWith(Number) })
    .from(onPage)
    .innerJoin(tools, eq(tools.id, onPage.id))
    .orderBy(desc(onPage.rank), asc(tools.id));
  const first = rows[0];
  // An empty first page is an exact 0; a page past the end still needs the total.
  if (!first) return { items: [], ...(query.page === 1 ? { total: 0, exact: true } : await count()) };
  return { items: await toToolDtos(db, rows.map(({ row }) => row)), ...cappedTotal(first.n) };
}

const SUGGESTION_CANDIDATES = 200;

/** Search-as-you-type: names starting with the words typed (or, failing that, alike), best first. */
export async function suggestTools(db: Db, text: string): Promise<Suggestion[]> {
  const q = text.trim();
  if (!q) return [];
  const columns = { _id: tools.id, name: tools.name, category: tools.category };
  const words = searchWords(q);
  // The best of the first SUGGESTION_CANDIDATES matches: a suggestion must come back while the
  // customer types, and a word's start ('s') can match most of the catalogue.
  const best = (match: SQL, rank: SQL) => {
    const candidates = db.$with("candidates").as(
      db
        .select({ ...columns, rank: sql<number>`${rank}`.as("rank") })
        .from(tools)
        .where(and(eq(tools.active, true), match))
        .limit(SUGGESTION_CANDIDATES),
    );
    return db
      .with(candidates)
      .select({ _id: candidates._id, name: candidates.name, category: candidates.category })
      .from(candidates)
      .orderBy(desc(candidates.rank), asc(candidates.name))
      .limit(SUGGESTIONS_MAX);
  };
  if (words) {
    const tsquery = sql`to_tsquery('english', ${words})`;
    const found = await best(sql`${searchVector} @@ ${tsquery}`, sql`ts_rank(${searchVector}, ${tsquery})`);
    if (found.length > 0) return found;
  }
  return best(sql`${q} <% ${tools.name}`, sql`word_similarity(${q}, ${tools.name})`);
}


const prepareGetTool = (db: Db) =>
  db
    .select()
    .from(tools)
    .where(and(eq(tools.id, sql.placeholder("id")), eq(tools.active, true)))
    .limit(1)
    .prepare("tool_by_id");
const gettingTool = new WeakMap<Db, ReturnType<typeof prepareGetTool>>();

/** One active tool (a statement prepared once per database: the purchase page asks it often). */
export async function getTool(db: Db, id: string): Promise<Tool | undefined> {
  let statement = gettingTool.get(db);
  if (!statement) gettingTool.set(db, (statement = prepareGetTool(db)));
  const [row] = await statement.execute({ id });
  return row ? (await toToolDtos(db, [row]))[0] : undefined;
}

/** Who changes the catalogue: an admin (audited), or null for the store itself (seeding, tests). */
export type Actor = AuditActor | null;

export const toAdminToolDto = (row: ToolRow, view: CatalogueView = EMPTY_VIEW): AdminTool => {
  const threshold = row.lowStockThreshold ?? 2 * row.minimumQuantity;
  return {
    ...toToolDto(row, view),
    active: row.active,
    lowStockThreshold: row.lowStockThreshold,
    weightGrams: row.weightGrams,
    lowStock: row.active && row.availableQuantity < threshold,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

async function toAdminToolDtos(db: Db | Tx, rows: ToolRow[]): Promise<AdminTool[]> {
  const view = await catalogueView(db, rows);
  return rows.map((row) => toAdminToolDto(row, view));
}

/** The console's list: archived tools too (status), newest first. */
export async function listAdminTools(db: Db, query: AdminToolQuery): Promise<Page<AdminTool>> {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(tools.active, query.status === "active"));
  if (query.category) {
    const category = await categoryFilter(db, query.category);
    if (!category) throw badQuery("category", CATALOGUE_API_TEXT.categoryNotFound);
    filters.push("root" in category ? eq(tools.category, category.root) : inArray(tools.categoryId, category.ids));
  }
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    const match = or(ilike(tools.name, pattern), ilike(tools.description, pattern), eq(tools.sku, query.q));
    if (match) filters.push(match);
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(tools)
      .where(where)
      .orderBy(desc(tools.createdAt), desc(tools.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(tools).where(where).$dynamic()),
  ]);
  return { items: await toAdminToolDtos(db, rows), ...total };
}

export async function getAdminTool(db: Db | Tx, id: string): Promise<AdminTool | undefined> {
  const [row] = await db.select().from(tools).where(eq(tools.id, id)).limit(1);
  return row ? (await toAdminToolDtos(db, [row]))[0] : undefined;
}

async function audit(tx: Tx, actor: Actor, record: AuditRecord): Promise<void> {
  if (actor) await recordAudit(tx, actor, record);
}

type CatalogueKey = "category" | "brand" | "specs" | "images" | "image" | "productId" | "optionValues";
type CatalogueInput = Pick<AdminToolPatch, CatalogueKey>;
const CATALOGUE_KEYS: ReadonlySet<string> = new Set<CatalogueKey>(["category", "brand", "specs", "images", "image", "productId", "optionValues"]);
/** The fields written as they are: the catalogue's go through catalogueColumns. */
const withoutCatalogue = <T extends object>(input: T) => Object.fromEntries(Object.entries(input).filter(([key]) => !CATALOGUE_KEYS.has(key))) as Omit<T, CatalogueKey>;

/**
 * The catalogue fields of a create or change as columns: the category's and brand's ids from
 * their slugs, the specification values checked against their definitions, and the photos
 * (`image` is always the first of `images`). Each bad one is a 400 naming it.
 */
async function catalogueColumns(tx: Tx, input: CatalogueInput, before: ToolRow | undefined) {
  const columns: Partial<Pick<ToolRow, "categoryId" | "brandId" | "specs" | "images" | "image" | "productId" | "optionValues">> = {};
  if (input.category !== undefined) columns.categoryId = await categoryIdOf(tx, input.category);
  if (input.brand !== undefined) columns.brandId = input.brand === null ? null : await brandIdOf(tx, input.brand);
  if (input.specs !== undefined) columns.specs = await checkedSpecs(tx, before?.specs ?? {}, input.specs);
  if (input.productId !== undefined || input.optionValues !== undefined) {
    const productId = input.productId === undefined ? (before?.productId ?? null) : input.productId;
    const optionValues = productId === null ? {} : (input.optionValues ?? (input.productId === undefined ? before?.optionValues : undefined) ?? {});
    if (productId !== null) await checkOptionValues(tx, productId, optionValues, before?.id);
    columns.productId = productId;
    columns.optionValues = optionValues;
  }
  if (input.images !== undefined) {
    columns.images = input.images;
    columns.image = input.images[0];
  } else if (input.image !== undefined) {
    // A new first photo alone replaces the first, the others stay.
    columns.image = input.image;
    columns.images = [input.image, ...(before?.images.slice(1) ?? [])];
  }
  return columns;
}

/** The insert or update, its taken SKU told as 409 SKU_TAKEN. */
async function skuChecked<T>(sku: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // Two tools racing to the same option values of one product: the unique index settles it.
    if (isUniqueViolation(error, "tools_product_variant_idx")) throw conflict("VARIANT_EXISTS", CATALOGUE_API_TEXT.variantExists);
    if (sku !== undefined && isUniqueViolation(error)) throw conflict("SKU_TAKEN", CATALOGUE_API_TEXT.skuTaken(sku));
    throw error;
  }
}

/** Adds a tool; its stock is the first movement of its ledger. */
async function insertTool(db: Db, input: AdminToolInput, actor: Actor): Promise<ToolRow> {
  const { price, priceTiers, ...rest } = withoutCatalogue(input);
  const tiers = tiersInCents(priceTiers ?? []);
  checkTiers(tiers, dollarsToCents(price), input.minimumQuantity);
  const row = await skuChecked(input.sku, () =>
    db.transaction(async (tx) => {
      const catalogue = await catalogueColumns(tx, input, undefined);
      const image = catalogue.image;
      if (image === undefined) throw invalidField("image", CATALOGUE_API_TEXT.imageMissing);
      const [created] = await tx
        .insert(tools)
        .values({ ...rest, ...catalogue, image, category: rootOfSlug(input.category), priceCents: dollarsToCents(price), priceTiers: tiers })
        .returning();
      if (!created) throw new Error("insert returned no row");
      await recordMovements(tx, [{ toolId: created.id, delta: created.availableQuantity, reason: "initial", actorId: actor?.id ?? null }]);
      await audit(tx, actor, { action: "tool.create", entity: "tool", entityId: created.id, after: toAdminToolDto(created) });
      return created;
    }),
  );
  announceChange(db, "tools");
  return row;
}

/**
 * The root column as an insert first states it: the root itself for one of the four, else a
 * placeholder the trigger on tools (migration 0036) replaces with the category's real root.
 */
const rootOfSlug = (slug: string): Category => ((CATEGORIES as readonly string[]).includes(slug) ? (slug as Category) : "hand-tools");

export async function createAdminTool(db: Db, input: AdminToolInput, actor: Actor): Promise<AdminTool> {
  const row = await insertTool(db, input, actor);
  return (await toAdminToolDtos(db, [row]))[0] as AdminTool;
}

export async function createTool(db: Db, input: ToolInput, actor: Actor = null): Promise<Tool> {
  const row = await insertTool(db, input, actor);
  return (await toToolDtos(db, [row]))[0] as Tool;
}

/**
 * Changes a tool. A new `availableQuantity` is a correction in the ledger (the difference);
 * `active` archives or restores it. `activeOnly` keeps the spec's PUT /api/tool/:id to the
 * catalogue's tools (an archived one is not found there).
 */
async function patchTool(db: Db, id: string, patch: AdminToolPatch, actor: Actor, options: { activeOnly?: boolean }): Promise<ToolRow | undefined> {
  const { price, priceTiers, ...rest } = withoutCatalogue(patch);
  const plain = {
    ...rest,
    ...(price === undefined ? {} : { priceCents: dollarsToCents(price) }),
    ...(priceTiers === undefined ? {} : { priceTiers: tiersInCents(priceTiers) }),
  };
  const result = await skuChecked(patch.sku, () =>
    db.transaction(async (tx) => {
      const [before] = await tx
        .select()
        .from(tools)
        .where(and(eq(tools.id, id), options.activeOnly ? eq(tools.active, true) : undefined))
        .for("no key update");
      if (!before) return undefined;
      const values = { ...plain, ...(await catalogueColumns(tx, patch, before)) };
      // The ladder as it will be, against the price and minimum as they will be.
      if (values.priceTiers !== undefined || values.priceCents !== undefined || values.minimumQuantity !== undefined) {
        checkTiers(values.priceTiers ?? before.priceTiers, values.priceCents ?? before.priceCents, values.minimumQuantity ?? before.minimumQuantity);
      }
      if (Object.keys(values).length === 0) return { before, after: before };
      const [after] = await tx.update(tools).set(values).where(eq(tools.id, id)).returning();
      if (!after) throw new Error("tool row vanished under its lock");
      await recordMovements(tx, [
        { toolId: id, delta: after.availableQuantity - before.availableQuantity, reason: "correction", note: "stock set on the tool", actorId: actor?.id ?? null },
      ]);
      const action = rest.active === undefined || rest.active === before.active ? "tool.update" : rest.active ? "tool.restore" : "tool.archive";
      await audit(tx, actor, { action, entity: "tool", entityId: id, before: toAdminToolDto(before), after: toAdminToolDto(after) });
      return { before, after };
    }),
  );
  if (!result) return undefined;
  if (result.after !== result.before) announceChange(db, "tools");
  return result.after;
}

export async function updateAdminTool(db: Db, id: string, patch: AdminToolPatch, actor: Actor, options: { activeOnly?: boolean } = {}): Promise<AdminTool | undefined> {
  const row = await patchTool(db, id, patch, actor, options);
  return row ? (await toAdminToolDtos(db, [row]))[0] : undefined;
}

export async function updateTool(db: Db, id: string, patch: ToolPatch, actor: Actor = null): Promise<Tool | undefined> {
  const row = await patchTool(db, id, patch, actor, { activeOnly: true });
  return row ? (await toToolDtos(db, [row]))[0] : undefined;
}

/** Retires a tool: it leaves the catalogue, past orders keep it (the spec's DELETE /api/tool/:id). */
export async function retireTool(db: Db, id: string, actor: Actor = null): Promise<boolean> {
  const result = await updateAdminTool(db, id, { active: false }, actor, { activeOnly: true });
  return result !== undefined;
}

/**
 * The console's delete: a tool that was ever ordered is archived (its orders keep it); one
 * that never was is deleted with its ledger. Returns undefined for an unknown id.
 */
export async function deleteOrArchiveTool(db: Db, id: string, actor: Actor): Promise<"deleted" | "archived" | undefined> {
  const outcome = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(tools).where(eq(tools.id, id)).for("update");
    if (!before) return undefined;
    // A tool that was ever ordered or quoted (its request and revisions keep it) is archived, not deleted.
    const ordered =
      (await tx.$count(orderLines, eq(orderLines.toolId, id))) + (await tx.$count(orders, eq(orders.toolId, id))) + (await tx.$count(quoteLines, eq(quoteLines.toolId, id)));
    if (ordered > 0) {
      const [after] = await tx.update(tools).set({ active: false }).where(eq(tools.id, id)).returning();
      await audit(tx, actor, { action: "tool.archive", entity: "tool", entityId: id, before: toAdminToolDto(before), after: after ? toAdminToolDto(after) : null });
      return "archived" as const;
    }
    await tx.delete(tools).where(eq(tools.id, id));
    await audit(tx, actor, { action: "tool.delete", entity: "tool", entityId: id, before: toAdminToolDto(before), after: null });
    return "deleted" as const;
  });
  if (outcome) announceChange(db, "tools");
  return outcome;
}

/**
 * A restock or correction by an admin: one movement, and the stock changed by its delta in
 * the same statement, refused (409) if it would go below zero.
 */
export async function moveStock(db: Db, id: string, input: StockMovementRequest, actor: AuditActor): Promise<AdminTool> {
  const after = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(tools).where(eq(tools.id, id)).for("no key update");
    if (!before) throw notFound(API_TEXT.toolNotFound);
    if (before.availableQuantity + input.delta < 0) {
      throw conflict("STOCK_BELOW_ZERO", ADMIN_API_TEXT.stockBelowZero(before.availableQuantity), { available: before.availableQuantity });
    }
    // Through the ledger: the stock changed by its delta and the movement written, together.
    await changeStock(tx, [{ toolId: id, delta: input.delta, reason: input.reason, note: input.note, actorId: actor.id }]);
    const [row] = await tx.select().from(tools).where(eq(tools.id, id));
    if (!row) throw new Error("tool row vanished under its lock");
    await recordAudit(tx, actor, {
      action: `stock.${input.reason}`,
      entity: "tool",
      entityId: id,
      before: { availableQuantity: before.availableQuantity },
      after: { availableQuantity: row.availableQuantity, delta: input.delta, note: input.note },
    });
    return row;
  });
  announceChange(db, "tools");
  return (await toAdminToolDtos(db, [after]))[0] as AdminTool;
}

/** The key of a tool list page in `app.lists.tools` (plugins/caches.ts): the API route and the page renderer share it. */
export const toolListKey = (q: {
  category?: string | undefined;
  q?: string | undefined;
  sort?: string | undefined;
  minPrice?: number | undefined;
  maxPrice?: number | undefined;
  page: number;
  limit: number;
  cursor?: string | undefined;
  brand?: string[] | undefined;
  variants?: string | undefined;
  spec?: Record<string, string[]> | undefined;
}) => JSON.stringify([q.category ?? "", q.q ?? "", q.sort ?? "", q.minPrice ?? "", q.maxPrice ?? "", q.page, q.limit, q.cursor ?? "", q.brand ?? [], q.variants ?? "", q.spec ?? {}]);

// ---------------------------------------------------------------- a product's tools and its missing combinations

/** Every combination of a product's options' values, in the options' order (one empty combination without options). */
export function optionCombinations(options: { name: string; values: string[] }[]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>((combos, option) => combos.flatMap((combo) => option.values.map((value) => ({ ...combo, [option.name]: value }))), [{}]);
}

/** One key for a tool's values however its keys are ordered. */
const combinationKey = (options: { name: string }[], values: Record<string, string>) => JSON.stringify(options.map((option) => values[option.name] ?? null));

/** Where a tool's values sit among the product's combinations (unknown values last): the console lists them in that order. */
function combinationRank(options: { name: string; values: string[] }[], values: Record<string, string>): number {
  return options.reduce((rank, option) => {
    const index = option.values.indexOf(values[option.name] ?? "");
    return rank * (option.values.length + 1) + (index === -1 ? option.values.length : index);
  }, 0);
}

/** A product's tools, archived ones too, in the order of its options' values (the console's product page). */
export async function listProductTools(db: Db, productId: string): Promise<AdminTool[]> {
  const [product] = await db.select().from(products).where(eq(products.id, productId));
  if (!product) throw notFound(CATALOGUE_API_TEXT.productNotFound);
  const rows = await db.select().from(tools).where(eq(tools.productId, productId)).orderBy(asc(tools.createdAt), asc(tools.id));
  rows.sort((a, b) => combinationRank(product.options, a.optionValues) - combinationRank(product.options, b.optionValues));
  return toAdminToolDtos(db, rows);
}

/**
 * Creates, in one transaction, a tool for each combination of the product's option values no tool
 * of it has yet: each a copy of the product's default tool (else its first) with no stock and a SKU of
 * its own, named by the product and its values. The product row is locked, so two of these never
 * race each other; a tool joining with the same values meanwhile is settled by the unique index
 * (the second of the two is 409 VARIANT_EXISTS; for this call, nothing created). A product without
 * a tool has nothing to copy: 409 PRODUCT_HAS_NO_TOOLS.
 */
export async function createMissingCombinations(db: Db, productId: string, actor: AuditActor): Promise<AdminTool[]> {
  const created = await skuChecked(undefined, () =>
    db.transaction(async (tx) => {
      // `no key update`: two of these for one product wait for each other, while a tool joining it (whose
      // foreign key takes a key-share lock on the product) does not, so the unique index settles a join
      // racing this one (VARIANT_EXISTS for the second) instead of the two waiting on each other in a circle.
      const [product] = await tx.select().from(products).where(eq(products.id, productId)).for("no key update");
      if (!product) throw notFound(CATALOGUE_API_TEXT.productNotFound);
      const members = await tx.select().from(tools).where(eq(tools.productId, productId)).orderBy(asc(tools.createdAt), asc(tools.id));
      const template = members.find((tool) => tool.id === product.defaultToolId) ?? members[0];
      if (!template) throw conflict("PRODUCT_HAS_NO_TOOLS", CATALOGUE_API_TEXT.productHasNoTools);
      const present = new Set(members.map((tool) => combinationKey(product.options, tool.optionValues)));
      const missing = optionCombinations(product.options).filter((combo) => !present.has(combinationKey(product.options, combo)));
      if (missing.length === 0) return [];
      const rows = await tx
        .insert(tools)
        .values(
          missing.map((optionValues) => ({
            name: `${product.name} (${Object.values(optionValues).join(", ")})`.slice(0, 120),
            category: template.category,
            categoryId: template.categoryId,
            brandId: template.brandId,
            images: template.images,
            image: template.image,
            specs: template.specs,
            productId,
            optionValues,
            priceCents: template.priceCents,
            priceTiers: template.priceTiers,
            availableQuantity: 0,
            minimumQuantity: template.minimumQuantity,
            description: template.description,
            active: template.active,
            lowStockThreshold: template.lowStockThreshold,
            weightGrams: template.weightGrams,
          })),
        )
        .returning();
      for (const row of rows) await recordAudit(tx, actor, { action: "tool.create", entity: "tool", entityId: row.id, after: toAdminToolDto(row) });
      await recordAudit(tx, actor, {
        action: "product.combinations",
        entity: "product",
        entityId: productId,
        after: { fromToolId: template.id, toolIds: rows.map((row) => row.id), optionValues: missing },
      });
      return rows;
    }),
  );
  if (created.length > 0) announceChange(db, "tools");
  return toAdminToolDtos(db, created);
}
