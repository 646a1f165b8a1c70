/**
 * A category page of a store with products (decision 0023, "The list's total at 100,000 tools"):
 * its rows come from a prepared statement and its total is kept per catalogue version
 * (kept-totals.ts). Both must be exactly what the counted path gives: the same query with
 * `minPrice=0` (a filter every tool passes) still takes that path, so each page, each sort and
 * each cursor is compared with it, and with the rows worked out here from every tool
 * (`variants=all`): per product its default, else the cheapest in stock, else the cheapest,
 * among its active tools. The catalogue has products with and without a default, an archived
 * default, sold-out variants, an archived variant and tools in no product. A stock change (which
 * changes a product's chosen tool, never how many rows there are) keeps the kept total; archiving
 * a tool or moving it out of the category makes the next total count again. On both drivers,
 * with the list cache off.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolSchema, type Tool } from "../../contract/schemas";
import { catalogueVersion, keptFacets } from "../db/schema";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "kept-total-admin@toolyard.example";
const SORTS = ["", "oldest", "newest", "price-asc", "price-desc", "rating"] as const;

describe.each(drivers())("a category page's kept total and prepared rows on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const tag = randomUUID().slice(0, 6);
  const sub = `kt-${tag}`;
  const below = `kt-below-${tag}`;

  const ok = async (res: { statusCode: number; body: string }, status = 201) => {
    expect(res.statusCode, res.body).toBe(status);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const tool = async (name: string, price: number, stock: number, category: string, active = true) =>
    String(
      (
        await ok(
          await admin.post("/api/admin/tools", {
            name: `Kept total ${tag} ${name}`,
            image: "/images/tools/jigsaw.svg",
            price,
            availableQuantity: stock,
            minimumQuantity: 1,
            description: "For the kept total.",
            category,
            active,
          }),
        )
      )._id,
    );
  const patch = async (url: string, body: object) => ok(await admin.request({ method: "PATCH", url, payload: body }), 200);
  const product = async (values: string[], defaultTool?: string) => {
    const made = await ok(await admin.post("/api/admin/products", { name: `Kept product ${tag} ${values.join("")}`, options: [{ name: "Size", values }] }));
    return { id: String(made._id), join: (toolId: string, size: string) => patch(`/api/admin/tools/${toolId}`, { productId: made._id, optionValues: { Size: size } }), defaultTool };
  };

  /** Every page of a list, following its cursors: the ids in order, and each page's total. */
  const walk = async (query: string) => {
    const ids: string[] = [];
    const totals = new Set<string>();
    let url: string | undefined = `/api/tool?limit=2&${query}`;
    for (let pages = 0; url && pages < 500; pages++) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(...(res.json() as Tool[]).map((row) => toolSchema.parse(row)._id));
      totals.add(`${String(res.headers["x-total-count"])} ${String(res.headers["x-total-count-exact"] ?? "")}`);
      const cursor = res.headers["x-next-cursor"] as string | undefined;
      url = cursor ? `/api/tool?limit=2&${query}&cursor=${encodeURIComponent(cursor)}` : undefined;
    }
    return { ids, totals: [...totals] };
  };
  const page = async (query: string) => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return { ids: (res.json() as Tool[]).map((row) => row._id), total: res.headers["x-total-count"], exact: res.headers["x-total-count-exact"], next: res.headers["x-next-cursor"] };
  };

  /** The page's rows worked out from every tool: one per product (its default, else cheapest in stock, else cheapest), the others as they are. */
  const expectedRows = async (category: string) => {
    const all = (await t.app.inject({ method: "GET", url: `/api/tool?limit=100&variants=all&category=${category}` })).json() as Tool[];
    const defaults = new Map<string, string | null>();
    for (const row of all) {
      if (row.product && !defaults.has(row.product._id)) {
        const res = await admin.get(`/api/admin/products/${row.product._id}`);
        defaults.set(row.product._id, (res.json() as { defaultToolId: string | null }).defaultToolId);
      }
    }
    const chosen = new Map<string, Tool>();
    const rank = (row: Tool) => [row._id === defaults.get(row.product?._id ?? "") ? 0 : 1, row.availableQuantity > 0 ? 0 : 1, row.price];
    const before = (a: Tool, b: Tool) => {
      const [x, y] = [rank(a), rank(b)];
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number);
      return a._id < b._id;
    };
    for (const row of all) {
      if (!row.product) continue;
      const best = chosen.get(row.product._id);
      if (!best || before(row, best)) chosen.set(row.product._id, row);
    }
    return all.filter((row) => !row.product || chosen.get(row.product._id)?._id === row._id).map((row) => row._id);
  };

  const keptVersion = async (key: string) => (await t.app.store.db.select({ v: keptFacets.version }).from(keptFacets).where(eq(keptFacets.key, key)))[0]?.v;
  const version = async () => (await t.app.store.db.select({ n: catalogueVersion.n }).from(catalogueVersion))[0]?.n;

  /** Each sort of each page (the sub-category, its child, a root, the whole catalogue): the kept path's rows and totals are the counted path's. */
  const expectSame = async (label: string) => {
    for (const category of [sub, below, "hand-tools", ""]) {
      const base = category ? `category=${category}` : "";
      for (const sort of SORTS) {
        const query = `${base}${sort ? `&sort=${sort}` : ""}`;
        if (category === sub || category === below) {
          const kept = await walk(query);
          const counted = await walk(`${query}&minPrice=0`);
          expect(kept, `${label}: ${query}`).toEqual(counted);
          expect(kept.totals, `${label}: ${query} total`).toEqual([`${kept.ids.length} true`]);
        }
        for (const p of ["page=1", "page=2", "page=3&limit=5"]) {
          expect(await page(`${query}&${p}`), `${label}: ${query} ${p}`).toEqual(await page(`${query}&${p}&minPrice=0`));
        }
      }
    }
    expect((await walk(`category=${sub}`)).ids.sort(), `${label}: rows`).toEqual((await expectedRows(sub)).sort());
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, LIST_CACHE_SECONDS: "0", AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.52.2.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
    await ok(await admin.post("/api/admin/categories", { slug: sub, name: "Kept total", parentSlug: "hand-tools" }));
    await ok(await admin.post("/api/admin/categories", { slug: below, name: "Kept total below", parentSlug: sub }));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("gives the counted path's rows and totals on every page, after a stock change and after catalogue writes", async () => {
    // A product with a default in stock, one whose default is archived, one with no default and a sold-out cheapest,
    // one whose tools are all sold out, one across the category and its child; tools in no product, one archived.
    const a = await product(["S", "M", "L"]);
    const aS = await tool("a S", 30, 5, sub);
    const aM = await tool("a M", 20, 5, sub);
    const aL = await tool("a L", 25, 0, sub);
    await a.join(aS, "S");
    await a.join(aM, "M");
    await a.join(aL, "L");
    await patch(`/api/admin/products/${a.id}`, { defaultToolId: aS });

    const b = await product(["S", "M"]);
    const bS = await tool("b S", 40, 3, sub, false);
    const bM = await tool("b M", 45, 3, sub);
    await b.join(bS, "S");
    await b.join(bM, "M");
    await patch(`/api/admin/products/${b.id}`, { defaultToolId: bS });

    const c = await product(["S", "M", "L"]);
    const cS = await tool("c S", 10, 0, sub);
    const cM = await tool("c M", 12, 2, sub);
    const cL = await tool("c L", 11, 2, below);
    await c.join(cS, "S");
    await c.join(cM, "M");
    await c.join(cL, "L");

    const d = await product(["S", "M"]);
    const dS = await tool("d S", 9, 0, below);
    const dM = await tool("d M", 8, 0, below);
    await d.join(dS, "S");
    await d.join(dM, "M");

    const loose = [await tool("loose 1", 15, 4, sub), await tool("loose 2", 16, 0, below), await tool("loose 3", 17, 4, sub, false)];
    await expectSame("at first");
    // a: the default; b: its archived default passed over; c: the cheapest in stock (L in the child, M in the sub-category alone); d: the cheapest.
    expect((await walk(`category=${sub}`)).ids.sort()).toEqual([aS, bM, cL, dM, loose[0], loose[1]].sort());
    expect((await walk(`category=${below}`)).ids.sort()).toEqual([cL, dM, loose[1]].sort());
    const kept = await version();
    for (const category of [sub, below, "hand-tools", ""]) expect(await keptVersion(`list-total:${category}`), `kept ${category}`).toBe(kept);

    // A stock change: a product's chosen tool changes, the kept totals stay current and right.
    await ok(await admin.post(`/api/admin/tools/${cS}/stock`, { delta: 4, reason: "restock", note: "kept total" }), 200);
    await ok(await admin.post(`/api/admin/tools/${aS}/stock`, { delta: -5, reason: "correction", note: "kept total" }), 200);
    expect(await version(), "a stock change is not a catalogue change").toBe(kept);
    await expectSame("after stock changes");
    expect((await walk(`category=${sub}`)).ids.sort()).toEqual([aS, bM, cS, dM, loose[0], loose[1]].sort());
    expect(await keptVersion(`list-total:${sub}`)).toBe(kept);

    // Catalogue writes: each makes the next total count again, and the counts follow.
    await patch(`/api/admin/tools/${bM}`, { active: false });
    await expectSame("a product's last active tool archived");
    expect((await walk(`category=${sub}`)).ids).not.toContain(bM);
    await patch(`/api/admin/tools/${loose[2]}`, { active: true });
    await expectSame("a tool restored");
    await patch(`/api/admin/tools/${cL}`, { category: "chainsaws" });
    await expectSame("a tool moved out of the tree");
    await patch(`/api/admin/products/${d.id}`, { options: [{ name: "Size", values: ["S", "M", "L"] }] });
    await patch(`/api/admin/tools/${loose[0]}`, { productId: d.id, optionValues: { Size: "L" } });
    await expectSame("a loose tool joined a product");
    // a, c, d (with the loose tool that joined it), and the two loose tools left.
    expect((await walk(`category=${sub}`)).totals).toEqual(["5 true"]);
    expect(await keptVersion(`list-total:${sub}`)).toBe(await version());

    // The category page's kept facets carry the same total, and the list reads it.
    const facets = (await t.app.inject({ method: "GET", url: `/api/tool/facets?category=${sub}` })).json() as { total: number };
    expect(facets.total).toBe(5);
    expect(await keptVersion(`category:${sub}`)).toBe(await version());
    expect((await page(`category=${sub}`)).total).toBe("5");
  }, 600_000);
});
