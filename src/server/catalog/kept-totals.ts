/**
 * The one-row-per-product list's total for a category page (or the whole catalogue) with nothing
 * else asked, kept with the catalogue version it was counted at (decision 0023, "The list's total
 * at 100,000 tools"). Counting it took 90 ms at 100,000 tools, a third of them in products: the
 * capped count reads 1,001 rows and chooses each product row's tool among its product's tools.
 *
 * The number of rows is one per product with a tool passing the filters plus one per such tool in
 * no product, whichever tool is chosen: so no stock change can change it, and every write that can
 * (tools' active, category, category_id, product_id; the tree) raises `catalogue_version`
 * (migration 0039). A kept total is served only at the current version: exact on every instance.
 * The category page's kept facets carry the same number (`count(distinct coalesce(product_id, id))`
 * over the same conditions); the list reads theirs when it is current, else its own, else counts.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { COUNT_CAP } from "../../contract/constants";
import type { Db } from "../db/client";
import { cappedTotal, type Total } from "../db/paging";
import { catalogueVersion, keptFacets } from "../db/schema";

/** The facets' key of a category page (facets.ts `categoryPageKey`) and the list's own. */
const facetsKey = (category: string | undefined) => `category:${category ?? ""}`;
const listKey = (category: string | undefined) => `list-total:${category ?? ""}`;

const prepareRead = (db: Db) =>
  db
    .select({ key: keptFacets.key, n: sql<number>`(${keptFacets.answer} ->> 'total')::bigint`.mapWith(Number) })
    .from(keptFacets)
    .innerJoin(catalogueVersion, eq(catalogueVersion.n, keptFacets.version))
    .where(inArray(keptFacets.key, [sql.placeholder("facets"), sql.placeholder("list")]))
    .prepare("kept_list_total");
const reads = new WeakMap<Db, ReturnType<typeof prepareRead>>();

const currentVersion = async (db: Db) => (await db.select({ n: catalogueVersion.n }).from(catalogueVersion))[0]?.n ?? 0;

/**
 * The total of the list of `category` (a slug of the tree, or none): kept at the current version,
 * or counted by `count` (the capped count the list always made) and kept when no catalogue write
 * committed while it counted (the version before and after the same, as facets.ts keeps facets).
 */
export async function keptListTotal(db: Db, category: string | undefined, count: () => Promise<Total>): Promise<Total> {
  let read = reads.get(db);
  if (!read) reads.set(db, (read = prepareRead(db)));
  const kept = await read.execute({ facets: facetsKey(category), list: listKey(category) });
  const found = kept.find((row) => row.key === facetsKey(category)) ?? kept[0];
  if (found) return cappedTotal(found.n);
  const before = await currentVersion(db);
  const total = await count();
  if ((await currentVersion(db)) === before) {
    // A capped count above the cap is kept as COUNT_CAP + 1, which reads back as the same total.
    const answer = { total: total.exact ? total.total : COUNT_CAP + 1 };
    await db
      .insert(keptFacets)
      .values({ key: listKey(category), version: before, answer })
      .onConflictDoUpdate({ target: keptFacets.key, set: { version: before, answer }, setWhere: sql`${keptFacets.version} < ${before}` });
  }
  return total;
}
