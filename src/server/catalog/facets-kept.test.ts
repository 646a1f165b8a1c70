/**
 * A category page's facets are kept with the catalogue version they were counted at
 * (kept_facets, migration 0039) and are exact after every kind of catalogue write: each write
 * below changes what a category page counts, and the next answer is compared with the list's
 * X-Total-Count for each brand and category, with the list cache off (so the kept answer is what
 * is served). A stock change leaves the kept answers current.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facetsSchema, type FacetCategory, type Facets } from "../../contract/catalogue-io";
import { catalogueVersion, keptFacets } from "../db/schema";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "facets-kept-admin@toolyard.example";
const flatten = (nodes: FacetCategory[]): FacetCategory[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe.each(drivers())("a category page's kept facets on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const tag = randomUUID().slice(0, 6);
  const brandA = `ka-${tag}`;
  const brandB = `kb-${tag}`;
  const cat = `kc-${tag}`;
  const sub = `kd-${tag}`;
  const toolIds: string[] = [];

  const ok = async (res: { statusCode: number; body: string }, status = 201) => {
    expect(res.statusCode, res.body).toBe(status);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const listTotal = async (query: string) => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool?limit=1&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return Number(res.headers["x-total-count"]);
  };
  const facets = async (query: string): Promise<Facets> => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool/facets?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return facetsSchema.parse(res.json());
  };
  const version = async () => (await t.app.store.db.select({ n: catalogueVersion.n }).from(catalogueVersion))[0]?.n;
  const keptVersion = async (key: string) => (await t.app.store.db.select({ v: keptFacets.version }).from(keptFacets).where(eq(keptFacets.key, key)))[0]?.v;

  /** Every count of the category page (and of the whole catalogue) is the list's total for that choice. */
  const expectExact = async (label: string) => {
    for (const page of [`category=${cat}`, ""]) {
      const f = await facets(page);
      expect(f.total, `${label}: ${page} total`).toBe(await listTotal(page));
      for (const b of f.brands) expect(b.count, `${label}: ${page} brand ${b.slug}`).toBe(await listTotal(`${page}&brand=${b.slug}`));
      for (const c of flatten(f.categories).filter((c) => c.slug === cat || c.slug === sub)) {
        expect(c.count, `${label}: ${page} category ${c.slug}`).toBe(await listTotal(`category=${c.slug}`));
      }
      const colour = f.specs.find((s) => s.key === `kcolour_${tag}`);
      for (const v of colour?.values ?? []) expect(v.count, `${label}: ${page} colour ${String(v.value)}`).toBe(await listTotal(`${page}&spec.kcolour_${tag}=${String(v.value)}`));
      // The second answer is the kept one, at the current version.
      expect(await facets(page), `${label}: ${page} kept`).toEqual(f);
      expect(await keptVersion(`category:${page ? cat : ""}`), `${label}: ${page} kept version`).toBe(await version());
    }
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, LIST_CACHE_SECONDS: "0", AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.51.2.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
    for (const slug of [brandA, brandB]) await ok(await admin.post("/api/admin/brands", { slug, name: `Brand ${slug}` }));
    await ok(await admin.post("/api/admin/categories", { slug: cat, name: "Kept", parentSlug: "hand-tools" }));
    await ok(await admin.post("/api/admin/categories", { slug: sub, name: "Kept below", parentSlug: cat }));
    await ok(await admin.post("/api/admin/specs", { key: `kcolour_${tag}`, name: "Colour", kind: "text", filterable: true }));
    for (let i = 0; i < 4; i += 1) {
      const tool = await ok(
        await admin.post("/api/admin/tools", {
          name: `Kept tool ${tag} ${i}`,
          image: "/images/tools/jigsaw.svg",
          price: 10 + i,
          availableQuantity: 5,
          minimumQuantity: 1,
          description: "For the kept facets.",
          brand: i % 2 ? brandB : brandA,
          category: i < 2 ? cat : sub,
          specs: { [`kcolour_${tag}`]: i % 2 ? "Red" : "Blue" },
        }),
      );
      toolIds.push(String(tool._id));
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("are exact after each catalogue write, and a stock change keeps them", async () => {
    await expectExact("at first");
    const [first = "", second = "", third = ""] = toolIds;
    const patch = async (id: string, body: object) => ok(await admin.request({ method: "PATCH", url: `/api/admin/tools/${id}`, payload: body }), 200);

    await patch(first, { brand: brandB });
    await expectExact("a brand changed");
    await patch(second, { specs: { [`kcolour_${tag}`]: "Green" } });
    await expectExact("a spec changed");
    await patch(third, { category: cat });
    await expectExact("a category changed");
    await patch(first, { active: false });
    await expectExact("a tool archived");
    await ok(await admin.post("/api/admin/tools", { name: `Kept tool ${tag} new`, image: "/images/tools/jigsaw.svg", price: 5, availableQuantity: 1, minimumQuantity: 1, description: "New.", brand: brandA, category: sub }));
    await expectExact("a tool added");

    const before = await version();
    await ok(await admin.post(`/api/admin/tools/${second}/stock`, { delta: 3, reason: "restock", note: "kept facets" }), 200);
    expect(await version(), "a stock change is not a catalogue change").toBe(before);
    expect(await keptVersion(`category:${cat}`)).toBe(before);
  }, 180_000);
});
