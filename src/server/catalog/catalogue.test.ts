/**
 * The catalogue's records through the API (issue 50, DESIGN "Catalogue"), on PGlite and on
 * Postgres: the category tree (the four roots keep their slugs; a sub-category lists under its
 * root and its own subtree; in-use and cycles refused), brands, SKUs (unique, made up when left
 * out), GTINs checked by their check digit, specification values checked against their
 * definitions, and photos in order. Each refusal saves nothing; each admin action is audited.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validGtin } from "../../contract/catalogue-schemas";
import { toolSchema, type Tool } from "../../contract/schemas";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "catalogue-admin@toolyard.example";

describe("GTIN check digits", () => {
  it.each(["4006381333931", "96385074", "036000291452", "10012345678902"])("accepts %s", (gtin) => expect(validGtin(gtin)).toBe(true));
  it.each(["4006381333932", "1234567", "40063813339310", "123456789012345", "4006381333a31", ""])("refuses %s", (gtin) => expect(validGtin(gtin)).toBe(false));
});

describe.each(drivers())("the catalogue's records on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const unique = () => randomUUID().slice(0, 8);

  const patch = (url: string, payload: unknown) => admin.request({ method: "PATCH", url, payload: payload as object });
  const newTool = async (over: Record<string, unknown> = {}) =>
    admin.post("/api/admin/tools", {
      name: `Catalogue tool ${unique()}`,
      image: "/images/tools/chainsaw.svg",
      price: 129,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "Cuts.",
      category: "chainsaws",
      ...over,
    });
  const created = async (over: Record<string, unknown> = {}) => {
    const res = await newTool(over);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  const list = async (query: string) => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool?limit=100&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Tool[]).map((tool) => tool._id);
  };
  const publicTool = async (id: string) => toolSchema.parse((await t.app.inject({ method: "GET", url: `/api/tool/${id}` })).json());
  const audited = async (action: string, entityId: string) => {
    const res = await admin.get(`/api/admin/audit?entityId=${encodeURIComponent(entityId)}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { action: string }[]).some((entry) => entry.action === action);
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.50.1.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("seeds the demo catalogue: unique SKUs, brands, sub-categories, specifications on every tool, photos, and two products", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/tool?limit=100&variants=all" });
    const tools = (res.json() as Tool[]).map((tool) => toolSchema.parse(tool));
    expect(tools.length).toBe(19);
    expect(new Set(tools.map((tool) => tool.sku)).size).toBe(tools.length);
    for (const tool of tools) {
      expect(tool.categoryPath[0]?.slug).toBe(tool.category);
      expect(tool.categoryPath).toHaveLength(2);
      expect(tool.images[0]).toBe(tool.image);
      expect(tool.brand).not.toBeNull();
      expect(tool.specs.length, tool.name).toBeGreaterThan(0);
      expect(tool.variants).toEqual(tool.product ? expect.any(Array) : []);
    }
    expect(tools.filter((tool) => tool.images.length > 1).length).toBeGreaterThanOrEqual(2);
    const saw = tools.find((tool) => tool.name === 'Petrol Chainsaw 45 cc, 18"');
    expect(saw?.variants.map((v) => v.optionValues["Bar length"]).sort()).toEqual(['16"', '18"', '20"']);
    expect(saw?.specs.find((spec) => spec.key === "bar_length")).toEqual({ key: "bar_length", name: "Bar length", value: 18, unit: "in" });
    const drill = tools.find((tool) => tool.name === "18 V Brushless Drill Driver");
    expect(drill?.variants).toHaveLength(2);
    // The shop's list keeps the 16 demo tools' rows: each product shows the demo tool it grew from.
    const listed = (await t.app.inject({ method: "GET", url: "/api/tool?limit=100" })).json() as Tool[];
    expect(listed).toHaveLength(16);
    expect(listed.map((tool) => tool._id)).toEqual(expect.arrayContaining([saw?._id, drill?._id]));
    expect(listed.find((tool) => tool._id === saw?._id)).toMatchObject({ priceFrom: 329, variantCount: 3 });
    const roots = (await admin.get("/api/admin/categories")).json() as { slug: string; parentSlug: string | null }[];
    expect(roots.filter((c) => c.parentSlug === null).map((c) => c.slug)).toEqual(["hand-tools", "lawn-mowers", "power-tools", "chainsaws"]);
  });

  it("files a tool anywhere in the tree: the root stays its category, its path runs root first, and a category lists its subtree", async () => {
    const mid = `saws-${unique()}`;
    const leaf = `top-handle-${unique()}`;
    const other = `pole-${unique()}`;
    const midRes = await admin.post("/api/admin/categories", { slug: mid, name: "Petrol saws", parentSlug: "chainsaws" });
    expect(midRes.statusCode).toBe(201);
    const midPosition = (midRes.json() as { position: number }).position;
    const leafRes = await admin.post("/api/admin/categories", { slug: leaf, name: "Top-handle <b>saws</b>", parentSlug: mid });
    expect(leafRes.statusCode, leafRes.body).toBe(201);
    expect(leafRes.json()).toMatchObject({ slug: leaf, parentSlug: mid, position: 0 });
    expect((await admin.post("/api/admin/categories", { slug: other, name: "Pole saws", parentSlug: "chainsaws" })).json()).toMatchObject({ position: midPosition + 1 });
    expect(await audited("category.create", leaf)).toBe(true);

    const tool = await created({ category: leaf });
    expect(tool.category).toBe("chainsaws");
    expect(tool.categoryPath).toEqual([
      { slug: "chainsaws", name: "Chainsaws" },
      { slug: mid, name: "Petrol saws" },
      { slug: leaf, name: "Top-handle <b>saws</b>" },
    ]);
    expect(await list("category=chainsaws")).toContain(tool._id);
    expect(await list(`category=${mid}`)).toEqual([tool._id]);
    expect(await list(`category=${leaf}`)).toEqual([tool._id]);
    expect(await list(`category=${other}`)).toEqual([]);
    expect(await list("category=hand-tools")).not.toContain(tool._id);
    const unknown = await t.app.inject({ method: "GET", url: "/api/tool?category=no-such-category" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe("VALIDATION");

    // Deleting what is in use, a root, or moving a category under its own descendant: refused, nothing changes.
    for (const slug of [mid, leaf, "chainsaws"]) {
      const res = await admin.delete(`/api/admin/categories/${slug}`);
      expect(res.statusCode, slug).toBe(409);
      expect(res.json().error).toBe("CATEGORY_IN_USE");
    }
    const cycle = await patch(`/api/admin/categories/${mid}`, { parentSlug: leaf });
    expect(cycle.statusCode).toBe(409);
    expect(cycle.json().error).toBe("CATEGORY_CYCLE");
    expect((await patch(`/api/admin/categories/${mid}`, { parentSlug: mid })).json().error).toBe("CATEGORY_CYCLE");
    expect((await publicTool(tool._id)).categoryPath.map((c) => c.slug)).toEqual(["chainsaws", mid, leaf]);

    // Moved under another root, its tools follow: the root is their category now.
    const moved = await patch(`/api/admin/categories/${mid}`, { parentSlug: "power-tools", name: "Saws" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ slug: mid, name: "Saws", parentSlug: "power-tools" });
    expect(await audited("category.move", mid)).toBe(true);
    const after = await publicTool(tool._id);
    expect(after.category).toBe("power-tools");
    expect(after.categoryPath.map((c) => c.slug)).toEqual(["power-tools", mid, leaf]);
    expect(await list("category=power-tools")).toContain(tool._id);
    expect(await list("category=chainsaws")).not.toContain(tool._id);

    // The tool moves back to a root through the spec's category; the empty categories can then go.
    expect((await patch(`/api/admin/tools/${tool._id}`, { category: "hand-tools" })).json()).toMatchObject({ category: "hand-tools", categoryPath: [{ slug: "hand-tools" }] });
    expect((await admin.delete(`/api/admin/categories/${mid}`)).json().error).toBe("CATEGORY_IN_USE");
    expect((await admin.delete(`/api/admin/categories/${leaf}`)).statusCode).toBe(204);
    expect((await admin.delete(`/api/admin/categories/${mid}`)).statusCode).toBe(204);
    expect(await audited("category.delete", mid)).toBe(true);
    expect((await admin.get("/api/admin/categories")).json().map((c: { slug: string }) => c.slug)).not.toContain(mid);
  });

  it("keeps the four roots at the top: no new root, no root moved or renamed by slug", async () => {
    const root = await admin.post("/api/admin/categories", { slug: `welding-${unique()}`, name: "Welding" });
    expect(root.statusCode).toBe(400);
    expect(JSON.stringify(root.json().details)).toContain("parentSlug");
    expect((await patch("/api/admin/categories/chainsaws", { slug: "saws" })).statusCode).toBe(400);
    expect((await patch("/api/admin/categories/chainsaws", { parentSlug: "hand-tools" })).statusCode).toBe(400);
    const renamed = await patch("/api/admin/categories/lawn-mowers", { name: "Mowers", position: 1 });
    expect(renamed.json()).toEqual({ slug: "lawn-mowers", name: "Mowers", parentSlug: null, position: 1 });
    expect((await patch("/api/admin/categories/lawn-mowers", { name: "Lawn Mowers" })).statusCode).toBe(200);
  });

  it("names a tool's brand; a brand in use stays; a taken slug is a conflict", async () => {
    const slug = `stagline-${unique()}`;
    const brand = await admin.post("/api/admin/brands", { slug, name: "Stagline <i>Pro</i>" });
    expect(brand.statusCode, brand.body).toBe(201);
    expect(brand.json()).toEqual({ slug, name: "Stagline <i>Pro</i>" });
    expect(await audited("brand.create", slug)).toBe(true);
    expect((await admin.post("/api/admin/brands", { slug, name: "Again" })).statusCode).toBe(409);
    expect((await admin.post("/api/admin/brands", { slug: "Not A Slug", name: "x" })).statusCode).toBe(400);

    const tool = await created({ brand: slug });
    expect(tool.brand).toEqual({ slug, name: "Stagline <i>Pro</i>" });
    expect((await publicTool(tool._id)).brand).toEqual({ slug, name: "Stagline <i>Pro</i>" });
    const unknown = await newTool({ brand: "no-such-brand" });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json().details)).toContain("brand");

    expect((await patch(`/api/admin/brands/${slug}`, { name: "Stagline" })).json()).toEqual({ slug, name: "Stagline" });
    expect((await publicTool(tool._id)).brand).toEqual({ slug, name: "Stagline" });
    expect((await admin.get("/api/admin/brands")).json()).toContainEqual({ slug, name: "Stagline" });
    const inUse = await admin.delete(`/api/admin/brands/${slug}`);
    expect(inUse.statusCode).toBe(409);
    expect((await patch(`/api/admin/tools/${tool._id}`, { brand: null })).json().brand).toBeNull();
    expect((await admin.delete(`/api/admin/brands/${slug}`)).statusCode).toBe(204);
    expect(await audited("brand.delete", slug)).toBe(true);
  });

  it("keeps SKUs unique (409 SKU_TAKEN, nothing saved) and GTINs to their check digit (400 naming gtin)", async () => {
    const sku = `SAW-${unique()}`;
    const tool = await created({ sku, gtin: "4006381333931" });
    expect(tool).toMatchObject({ sku, gtin: "4006381333931" });
    const name = `Twin ${unique()}`;
    const twin = await newTool({ sku, name });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toBe("SKU_TAKEN");
    expect((await admin.get(`/api/admin/tools?q=${encodeURIComponent(name)}`)).json()).toEqual([]);
    const other = await created();
    expect(other.sku).toMatch(/^TY-[0-9A-F]{12}$/);
    const taken = await patch(`/api/admin/tools/${other._id}`, { sku, name: "Renamed" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe("SKU_TAKEN");
    expect((await publicTool(other._id)).name).toBe(other.name);

    for (const gtin of ["4006381333932", "1234567", "abcdefgh"]) {
      const bad = await newTool({ gtin });
      expect(bad.statusCode, gtin).toBe(400);
      expect(bad.json().details.map((d: { path: string }) => d.path).join()).toContain("gtin");
    }
    expect((await patch(`/api/admin/tools/${tool._id}`, { gtin: "96385074" })).json().gtin).toBe("96385074");
    expect((await patch(`/api/admin/tools/${tool._id}`, { gtin: null })).json().gtin).toBeNull();
    expect((await admin.get(`/api/admin/tools?q=${sku}`)).json().map((row: Tool) => row._id)).toEqual([tool._id]);
  });

  it("checks specification values against their definitions' kinds and shows them with names and units", async () => {
    const bar = `bar_length_${unique()}`;
    const power = `power_source_${unique()}`;
    const cordless = `cordless_${unique()}`;
    expect((await admin.post("/api/admin/specs", { key: bar, name: "Bar length", unit: "in", kind: "number", filterable: true })).statusCode).toBe(201);
    expect((await admin.post("/api/admin/specs", { key: power, name: "Power source", kind: "text", filterable: true })).json()).toEqual({
      key: power,
      name: "Power source",
      unit: null,
      kind: "text",
      filterable: true,
    });
    expect((await admin.post("/api/admin/specs", { key: cordless, name: "Cordless", kind: "boolean" })).json().filterable).toBe(false);
    expect((await admin.post("/api/admin/specs", { key: bar, name: "Again", kind: "text" })).statusCode).toBe(409);
    expect(await audited("spec.create", bar)).toBe(true);

    const tool = await created({ specs: { [bar]: 18, [power]: "Petrol", [cordless]: false } });
    expect(tool.specs).toEqual([
      { key: bar, name: "Bar length", value: 18, unit: "in" },
      { key: power, name: "Power source", value: "Petrol", unit: null },
      { key: cordless, name: "Cordless", value: false, unit: null },
    ]);
    for (const [specs, key] of [
      [{ [bar]: "18" }, bar],
      [{ [cordless]: "yes" }, cordless],
      [{ [power]: 40 }, power],
      [{ no_such_spec: 1 }, "no_such_spec"],
    ] as const) {
      const bad = await newTool({ specs });
      expect(bad.statusCode, key).toBe(400);
      expect(bad.json().message + JSON.stringify(bad.json().details)).toContain(key);
      const badPatch = await patch(`/api/admin/tools/${tool._id}`, { specs, name: "Not saved" });
      expect(badPatch.statusCode, key).toBe(400);
    }
    expect((await publicTool(tool._id)).name).toBe(tool.name);

    // A change sets the keys it names (null removes one) and keeps the others.
    const changed = await patch(`/api/admin/tools/${tool._id}`, { specs: { [bar]: 20, [cordless]: null } });
    expect(changed.json().specs).toEqual([
      { key: bar, name: "Bar length", value: 20, unit: "in" },
      { key: power, name: "Power source", value: "Petrol", unit: null },
    ]);
    expect((await patch(`/api/admin/specs/${bar}`, { name: "Guide bar", unit: "cm" })).json()).toMatchObject({ name: "Guide bar", unit: "cm" });
    expect((await publicTool(tool._id)).specs[0]).toEqual({ key: bar, name: "Guide bar", value: 20, unit: "cm" });
    expect((await patch(`/api/admin/specs/${bar}`, { kind: "text" })).statusCode).toBe(409);
    expect((await admin.delete(`/api/admin/specs/${bar}`)).statusCode).toBe(409);
    expect((await admin.delete(`/api/admin/specs/${cordless}`)).statusCode).toBe(204);
    expect((await admin.get("/api/admin/specs")).json().map((s: { key: string }) => s.key)).not.toContain(cordless);
  });

  it("keeps a tool's photos in order, its image the first", async () => {
    const images = ["/images/tools/chainsaw.svg", "/images/tools/hedge-trimmer.svg", "/images/tools/claw-hammer.svg"];
    const tool = await created({ image: undefined, images });
    expect(tool.images).toEqual(images);
    expect(tool.image).toBe(images[0]);
    const reordered = [images[2], images[0]] as string[];
    const res = await patch(`/api/admin/tools/${tool._id}`, { images: reordered });
    expect(res.json()).toMatchObject({ images: reordered, image: reordered[0] });
    expect(await publicTool(tool._id)).toMatchObject({ images: reordered, image: reordered[0] });
    // The first photo alone replaces the first and keeps the rest.
    expect((await patch(`/api/admin/tools/${tool._id}`, { image: images[1] })).json().images).toEqual([images[1], images[0]]);
    const none = await newTool({ image: undefined });
    expect(none.statusCode).toBe(400);
    expect((await newTool({ images: ["https://elsewhere.example/x.png"] })).statusCode).toBe(400);
  });
});
