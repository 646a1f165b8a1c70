/**
 * GET /api/tool/facets (issue 51, DESIGN) on PGlite and Postgres: every count is the list's
 * X-Total-Count for that choice (a property test over a generated catalogue with products whose
 * tools differ in brand, colour and category), a selected brand or spec key is counted without
 * its own selection, and bad filters are 400s naming them, never a 5xx or the /tool/:id route.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facetsSchema, type FacetCategory, type Facets } from "../../contract/catalogue-io";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "facets-admin@toolyard.example";

/** A small deterministic generator (mulberry32), so a failure is the same on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const flatten = (nodes: FacetCategory[]): FacetCategory[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe.each(drivers())("the catalogue's facets on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const tag = randomUUID().slice(0, 6);
  const brandSlugs = [`fa-${tag}`, `fb-${tag}`, `fc-${tag}`];
  const colours = ["Red", "Blue", "Green"];
  const cats = [`fx-${tag}`, `fy-${tag}`];

  const ok = async (res: { statusCode: number; body: string }, status = 201) => {
    expect(res.statusCode, res.body).toBe(status);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  const listTotal = async (query: string) => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool?limit=1&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["x-total-count-exact"], query).not.toBe("false");
    return Number(res.headers["x-total-count"]);
  };
  const facets = async (query: string): Promise<Facets> => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool/facets?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return facetsSchema.parse(res.json());
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.51.1.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
    for (const slug of brandSlugs) await ok(await admin.post("/api/admin/brands", { slug, name: `Brand ${slug}` }));
    await ok(await admin.post("/api/admin/categories", { slug: cats[0], name: "Facet X", parentSlug: "power-tools" }));
    await ok(await admin.post("/api/admin/categories", { slug: cats[1], name: "Facet Y", parentSlug: cats[0] }));
    await ok(await admin.post("/api/admin/specs", { key: `colour_${tag}`, name: "Colour", kind: "text", filterable: true }));
    const next = random(51);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)] as T;
    const tool = (over: Record<string, unknown>) =>
      admin.post("/api/admin/tools", {
        name: `Facet tool ${randomUUID().slice(0, 6)}`,
        image: "/images/tools/jigsaw.svg",
        price: 10 + Math.floor(next() * 200),
        availableQuantity: Math.floor(next() * 3),
        minimumQuantity: 1,
        description: "For the facets.",
        ...over,
      });
    // Products whose tools differ in colour, brand and category: a product counts once under each choice one of its tools passes.
    for (let p = 0; p < 6; p += 1) {
      const product = await ok(await admin.post("/api/admin/products", { name: `Facet product ${tag} ${p}`, options: [{ name: "Colour", values: colours }] }));
      for (const colour of colours.slice(0, 1 + (p % 3))) {
        await ok(
          await tool({ brand: pick(brandSlugs), category: pick([...cats, "power-tools"]), specs: { [`colour_${tag}`]: colour, voltage: pick([12, 18, 36]) }, productId: product._id, optionValues: { Colour: colour } }),
        );
      }
    }
    for (let i = 0; i < 12; i += 1) {
      await ok(await tool({ brand: pick(brandSlugs), category: pick([...cats, "hand-tools"]), specs: next() < 0.8 ? { [`colour_${tag}`]: pick(colours) } : {} }));
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it("is its own route, not /api/tool/:id", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/tool/facets" });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json() as object).sort()).toEqual(["brands", "categories", "price", "specs", "total"]);
  });

  it("counts what the list shows for every choice (its X-Total-Count), with the other filters applied, over many queries", async () => {
    const next = random(7);
    const colour = `spec.colour_${tag}`;
    const queries = [
      "",
      "variants=all",
      `category=${cats[0]}`,
      `brand=${brandSlugs[0]}`,
      `brand=${brandSlugs[0]}&brand=${brandSlugs[1]}&${colour}=Red`,
      `${colour}=Blue&maxPrice=120`,
      `category=power-tools&spec.voltage=12..20`,
      "q=facet",
    ];
    for (let i = 0; i < 6; i += 1) {
      const parts = [];
      if (next() < 0.5) parts.push(`category=${cats[Math.floor(next() * 2)]}`);
      if (next() < 0.5) parts.push(`brand=${brandSlugs[Math.floor(next() * 3)]}`);
      if (next() < 0.5) parts.push(`${colour}=${colours[Math.floor(next() * 3)]}`);
      if (next() < 0.3) parts.push(`minPrice=${Math.floor(next() * 100)}`);
      queries.push(parts.join("&"));
    }
    for (const query of queries) {
      const params = new URLSearchParams(query);
      const f = await facets(query);
      expect(f.total, query).toBe(await listTotal(query));
      const replaced = (name: string, value: string) => {
        const p = new URLSearchParams(params);
        p.delete(name);
        p.append(name, value);
        return p.toString();
      };
      for (const brand of f.brands) expect(brand.count, `${query} brand ${brand.slug}`).toBe(await listTotal(replaced("brand", brand.slug)));
      for (const node of flatten(f.categories)) expect(node.count, `${query} category ${node.slug}`).toBe(await listTotal(replaced("category", node.slug)));
      const colourFacet = f.specs.find((s) => s.key === `colour_${tag}`);
      expect(colourFacet?.kind).toBe("choice");
      for (const v of colourFacet?.values ?? []) expect(v.count, `${query} colour ${String(v.value)}`).toBe(await listTotal(replaced(colour, String(v.value))));
      const power = f.specs.find((s) => s.key === "power_source");
      for (const v of power?.values ?? []) expect(v.count, `${query} power ${String(v.value)}`).toBe(await listTotal(replaced("spec.power_source", String(v.value))));
    }
    // A few hundred requests: 20 s on an idle machine, more while other sessions' tests run.
  }, 180_000);

  it("counts a selected brand's siblings without the brand selection, and shows a checked choice that leaves nothing", async () => {
    const all = await facets("");
    const one = await facets(`brand=${brandSlugs[0]}`);
    expect(one.brands).toEqual(all.brands);
    expect(one.total).toBe(all.brands.find((b) => b.slug === brandSlugs[0])?.count);
    // Only the other filters narrow the brands.
    const red = await facets(`brand=${brandSlugs[0]}&spec.colour_${tag}=Red`);
    const redOnly = await facets(`spec.colour_${tag}=Red`);
    expect(red.brands).toEqual(redOnly.brands);
    const none = await facets(`spec.colour_${tag}=Purple&brand=${brandSlugs[2]}&category=${cats[1]}&q=zzzzqqq`);
    expect(none.total).toBe(0);
    expect(none.specs.find((s) => s.key === `colour_${tag}`)?.values).toContainEqual({ value: "Purple", count: 0 });
    expect(none.brands).toContainEqual({ slug: brandSlugs[2], name: `Brand ${brandSlugs[2]}`, count: 0 });
    expect(flatten(none.categories).map((c) => c.slug)).toEqual(expect.arrayContaining(["power-tools", cats[0], cats[1]]));
  });

  it("gives a number specification as its range and the price range, each without its own selection", async () => {
    const f = await facets("spec.voltage=30..40&minPrice=50");
    const voltage = f.specs.find((s) => s.key === "voltage");
    expect(voltage).toMatchObject({ kind: "range", unit: "V" });
    expect(voltage?.min).toBeLessThanOrEqual(12);
    expect(voltage?.max).toBeGreaterThanOrEqual(36);
    expect(voltage?.values).toBeUndefined();
    const all = await facets("spec.voltage=30..40");
    expect(f.price).toEqual(all.price);
    expect(f.price.min).not.toBeNull();
    // Filterable definitions only: weight is not.
    expect(f.specs.some((s) => s.key === "weight")).toBe(false);
  });

  it("refuses an unknown spec key, a value of the wrong kind and an unknown category with a 400 naming it", async () => {
    for (const [query, field] of [
      ["spec.nope=1", "spec.nope"],
      ["spec.voltage=high", "spec.voltage"],
      ["category=no-such-category", "category"],
    ] as const) {
      const res = await t.app.inject({ method: "GET", url: `/api/tool/facets?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toContain(field);
    }
  });
});
