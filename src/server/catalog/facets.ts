/**
 * The catalogue's facets (issue 51, DESIGN `GET /api/tool/facets`): for the list's query, how
 * many rows of the list (one per product) each choice of category, brand and filterable
 * specification leaves, and the price range. Everything is counted in the database with GROUP
 * BY, on the list's own conditions (`listFilters`): a row of the list is a product (or a tool in
 * none), so a choice's count is the number of distinct `coalesce(product_id, id)` among the tools
 * that pass the filters with that choice, which is exactly how many rows the list would show.
 * A filter's own choices are counted without its own selection (disjunctive), so a shopper who
 * checked one brand still sees the others with what adding them would show.
 */
import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import type { Facets, FacetCategory, FacetSpec } from "../../contract/catalogue-io";
import type { SpecValue } from "../../contract/catalogue-schemas";
import type { Db } from "../db/client";
import { brands, catalogueVersion, categories, keptFacets, specDefinitions, tools } from "../db/schema";
import { anyProductTools, listFilters, productRow, searchVector, searchWords, type FilterKey, type SpecQuery, type ToolQuery } from "./service";

type FacetQuery = Pick<ToolQuery, "category" | "brand" | "minPrice" | "maxPrice" | "q" | "variants"> & { spec?: SpecQuery };

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The list's search as a condition: its words, or, when they find nothing the list would show, names alike (as the list falls back). */
async function searchCondition(db: Db, q: string, listWhere: SQL[]): Promise<SQL> {
  const words = searchWords(q);
  if (words) {
    const match = sql`${searchVector} @@ to_tsquery('english', ${words})`;
    const [found] = await db
      .select({ one: sql`1` })
      .from(tools)
      .where(and(...listWhere, match))
      .limit(1);
    if (found) return match;
  }
  return sql`${q} <% ${tools.name}`;
}

/**
 * A category page's key (or the whole catalogue's) when the query is only that: no search, brand,
 * spec, price or `variants`. Those pages are few (one per category) and the most visited, and
 * counting one took seconds at 100,000 tools (decision 0024), so their answers are kept.
 */
function categoryPageKey(query: FacetQuery): string | undefined {
  const filtered =
    Boolean(query.q) ||
    (query.brand?.length ?? 0) > 0 ||
    Object.keys(query.spec ?? {}).length > 0 ||
    query.minPrice !== undefined ||
    query.maxPrice !== undefined ||
    query.variants !== undefined;
  return filtered ? undefined : `category:${query.category ?? ""}`;
}

const currentVersion = async (db: Db) => (await db.select({ n: catalogueVersion.n }).from(catalogueVersion))[0]?.n ?? 0;

/**
 * The list's facets. A category page's are served from `kept_facets` while the catalogue version
 * they were counted at is still the current one (one statement); otherwise counted, and kept when
 * no catalogue write committed while they were counted (the version read before and after is the
 * same, and every write raises it in its own transaction, so what was counted is that version's).
 */
export async function toolFacets(db: Db, query: FacetQuery): Promise<Facets> {
  const key = categoryPageKey(query);
  if (!key) return countFacets(db, query);
  const [kept] = await db
    .select({ answer: keptFacets.answer })
    .from(keptFacets)
    .innerJoin(catalogueVersion, eq(catalogueVersion.n, keptFacets.version))
    .where(eq(keptFacets.key, key));
  if (kept) return kept.answer as Facets;
  const before = await currentVersion(db);
  const answer = await countFacets(db, query);
  if ((await currentVersion(db)) === before) {
    await db
      .insert(keptFacets)
      .values({ key, version: before, answer })
      .onConflictDoUpdate({ target: keptFacets.key, set: { version: before, answer }, setWhere: sql`${keptFacets.version} < ${before}` });
  }
  return answer;
}

/** The facets counted on the list's own conditions. */
async function countFacets(db: Db, query: FacetQuery): Promise<Facets> {
  const filters = await listFilters(db, query);
  const everyTool = query.variants === "all";
  // A row of the list: the product, or the tool itself when it is in none (or when every tool is listed).
  const row = everyTool ? sql`${tools.id}` : sql`coalesce(${tools.productId}, ${tools.id})`;
  const rowCount = sql<number>`count(distinct ${row})`.mapWith(Number);
  let search: SQL | undefined;
  if (query.q) {
    const listWhere = filters.conditionsOn(tools);
    if (!everyTool && (await anyProductTools(db))) listWhere.push(productRow((t) => filters.conditionsOn(t)));
    search = await searchCondition(db, query.q, listWhere);
  }
  const where = (omit?: FilterKey) => and(...filters.conditionsOn(tools, omit), search);

  const defs = await db.select().from(specDefinitions).where(eq(specDefinitions.filterable, true)).orderBy(asc(specDefinitions.position), asc(specDefinitions.key));
  const [total, price, brandCounts, categoryCounts, specFacets] = await Promise.all([
    db.select({ n: rowCount }).from(tools).where(where()),
    db
      .select({ min: sql<number | null>`min(${tools.priceCents})`, max: sql<number | null>`max(${tools.priceCents})` })
      .from(tools)
      .where(where("price")),
    db
      .select({ slug: brands.slug, name: brands.name, count: rowCount })
      .from(tools)
      .innerJoin(brands, eq(brands.id, tools.brandId))
      .where(where("brand"))
      .groupBy(brands.id, brands.slug, brands.name),
    categoryCountsOf(db, row, where("category")),
    specFacetsOf(db, defs, query.spec ?? {}, row, where),
  ]);

  // A checked brand that leaves nothing is still shown (count 0), so it can be unchecked.
  const brandList = brandCounts.map((b) => ({ slug: b.slug, name: b.name, count: b.count }));
  const missing = (query.brand ?? []).filter((slug) => !brandList.some((b) => b.slug === slug));
  if (missing.length > 0) {
    for (const b of await db.select({ slug: brands.slug, name: brands.name }).from(brands).where(inArray(brands.slug, missing))) brandList.push({ ...b, count: 0 });
  }
  brandList.sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));

  const [range] = price;
  return {
    total: total[0]?.n ?? 0,
    categories: await categoryTree(db, categoryCounts, query.category),
    brands: brandList,
    specs: specFacets,
    price: {
      min: range?.min === null || range?.min === undefined ? null : centsToDollars(Number(range.min)),
      max: range?.max === null || range?.max === undefined ? null : centsToDollars(Number(range.max)),
    },
  };
}

/** Rows per category, each counted in its own subtree (a product is counted once under an ancestor of several of its tools' categories). */
async function categoryCountsOf(db: Db, row: SQL, where: SQL | undefined): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    with recursive tree(ancestor, id) as (
      select ${categories.id}, ${categories.id} from ${categories}
      union all
      select tree.ancestor, c.id from ${categories} as c join tree on c.parent_id = tree.id
    )
    select tree.ancestor as id, count(distinct ${row}) as n
    from ${tools} join tree on tree.id = ${tools.categoryId}
    where ${where ?? sql`true`}
    group by tree.ancestor`);
  return new Map(rowsOf<{ id: string; n: number | string }>(result).map((r) => [r.id, Number(r.n)]));
}

/**
 * The tree with its counts: the categories that leave rows, and the chosen one with its ancestors
 * even when it leaves none (a checked choice is shown, disabled). Roots first, siblings by position.
 */
async function categoryTree(db: Db, counts: Map<string, number>, chosen: string | undefined): Promise<FacetCategory[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.name));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set(rows.filter((r) => (counts.get(r.id) ?? 0) > 0).map((r) => r.id));
  for (let r = rows.find((c) => c.slug === chosen), depth = 0; r && depth < 100; r = r.parentId ? byId.get(r.parentId) : undefined, depth++) keep.add(r.id);
  const childrenOf = (parentId: string | null): FacetCategory[] =>
    rows
      .filter((r) => r.parentId === parentId && keep.has(r.id))
      .map((r) => ({ slug: r.slug, name: r.name, count: counts.get(r.id) ?? 0, children: childrenOf(r.id) }));
  return childrenOf(null);
}

type SpecDef = typeof specDefinitions.$inferSelect;

/** A spec value as JSON text back to its value (text, number or boolean). */
const valueOf = (text: string): SpecValue => JSON.parse(text) as SpecValue;

const compareValues = (a: SpecValue, b: SpecValue) =>
  typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b), undefined, { numeric: true });

/**
 * Each filterable specification: a number as its range (min and max), a text or yes/no as its
 * values with their counts. The keys nobody selected share one count over the list's rows; a
 * selected key is counted without its own selection.
 */
async function specFacetsOf(db: Db, defs: SpecDef[], spec: SpecQuery, row: SQL, where: (omit?: FilterKey) => SQL | undefined): Promise<FacetSpec[]> {
  if (defs.length === 0) return [];
  const groups = new Map<string, { omit: FilterKey | undefined; keys: string[] }>();
  for (const def of defs) {
    const omit = spec[def.key] !== undefined ? (`spec.${def.key}` as const) : undefined;
    const group = groups.get(omit ?? "") ?? { omit, keys: [] };
    group.keys.push(def.key);
    groups.set(omit ?? "", group);
  }
  const kinds = new Map(defs.map((d) => [d.key, d.kind]));
  const values = new Map<string, { value: SpecValue; count: number }[]>();
  const ranges = new Map<string, { min: number; max: number }>();
  await Promise.all(
    [...groups.values()].map(async ({ omit, keys }) => {
      const choiceKeys = keys.filter((k) => kinds.get(k) !== "number");
      const rangeKeys = keys.filter((k) => kinds.get(k) === "number");
      const condition = where(omit) ?? sql`true`;
      const [choices, numbers] = await Promise.all([
        choiceKeys.length === 0
          ? []
          : db
              .execute(
                sql`select e.key, e.value::text as value, count(distinct ${row}) as n
                    from ${tools} cross join lateral jsonb_each(${tools.specs}) as e(key, value)
                    where ${condition} and e.key in ${choiceKeys}
                    group by e.key, e.value::text`,
              )
              .then((r) => rowsOf<{ key: string; value: string; n: number | string }>(r)),
        rangeKeys.length === 0
          ? []
          : db
              .execute(
                sql`select e.key, min((e.value #>> '{}')::numeric)::float8 as min, max((e.value #>> '{}')::numeric)::float8 as max
                    from ${tools} cross join lateral jsonb_each(${tools.specs}) as e(key, value)
                    where ${condition} and e.key in ${rangeKeys} and jsonb_typeof(e.value) = 'number'
                    group by e.key`,
              )
              .then((r) => rowsOf<{ key: string; min: number | string; max: number | string }>(r)),
      ]);
      for (const c of choices) {
        const list = values.get(c.key) ?? [];
        list.push({ value: valueOf(c.value), count: Number(c.n) });
        values.set(c.key, list);
      }
      for (const n of numbers) ranges.set(n.key, { min: Number(n.min), max: Number(n.max) });
    }),
  );
  return defs.map((def): FacetSpec => {
    if (def.kind === "number") {
      const range = ranges.get(def.key);
      return { key: def.key, name: def.name, unit: def.unit, kind: "range", ...(range ?? {}) };
    }
    const list = values.get(def.key) ?? [];
    // A checked value that leaves nothing is still shown (count 0), so it can be unchecked.
    for (const text of spec[def.key] ?? []) {
      const value: SpecValue = def.kind === "boolean" ? text === "true" : text;
      if (!list.some((v) => v.value === value)) list.push({ value, count: 0 });
    }
    list.sort((a, b) => compareValues(a.value, b.value));
    return { key: def.key, name: def.name, unit: def.unit, kind: "choice", values: list };
  });
}
