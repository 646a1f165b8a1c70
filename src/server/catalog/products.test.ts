/**
 * Products with variants through the API (issue 50, DESIGN "Catalogue"), on PGlite and Postgres:
 * the console makes a product, tools join it with their option values (checked: every option, from
 * its values, no other; two tools with the same values → 409 VARIANT_EXISTS, nothing saved); the
 * tool shows its product, values and variants; the list shows one row per product (its default, or
 * the cheapest in stock) with priceFrom and variantCount, `variants=all` every tool; brand and
 * spec filters apply to the tools, values of one key OR, keys AND, numbers by range.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolSchema, type Tool } from "../../contract/schemas";
import { validGtin } from "../../contract/catalogue-schemas";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "products-admin@toolyard.example";

describe.each(drivers())("products and the list's filters on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const unique = () => randomUUID().slice(0, 8);
  const patch = (url: string, payload: unknown) => admin.request({ method: "PATCH", url, payload: payload as object });
  const created = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Variant ${unique()}`,
      image: "/images/tools/chainsaw.svg",
      price: 300,
      availableQuantity: 5,
      minimumQuantity: 1,
      description: "Cuts.",
      category: "chainsaws",
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  const list = async (query: string) => {
    const res = await t.app.inject({ method: "GET", url: `/api/tool?limit=100&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return { tools: (res.json() as Tool[]).map((tool) => toolSchema.parse(tool)), total: Number(res.headers["x-total-count"]) };
  };
  const ids = async (query: string) => (await list(query)).tools.map((tool) => tool._id).sort();

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.50.2.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("groups a product's tools: one row (default, else the cheapest in stock), its variants, priceFrom and variantCount", async () => {
    const brand = `forstmann-${unique()}`;
    expect((await admin.post("/api/admin/brands", { slug: brand, name: "Forstmann" })).statusCode).toBe(201);
    const res = await admin.post("/api/admin/products", { name: "Forstmann MS 400", options: [{ name: "Bar length", values: ["16 in", "18 in", "20 in"] }] });
    expect(res.statusCode, res.body).toBe(201);
    const product = res.json() as { _id: string; name: string; options: unknown; defaultToolId: string | null };
    expect(product).toMatchObject({ name: "Forstmann MS 400", description: "", defaultToolId: null });

    const s16 = await created({ price: 300, brand });
    const s18 = await created({ price: 320, brand });
    const s20 = await created({ price: 280, availableQuantity: 0, brand });
    const before = await list(`brand=${brand}`);
    expect(before.tools).toHaveLength(3);

    for (const [tool, bar] of [
      [s16, "16 in"],
      [s18, "18 in"],
      [s20, "20 in"],
    ] as const) {
      const joined = await patch(`/api/admin/tools/${tool._id}`, { productId: product._id, optionValues: { "Bar length": bar } });
      expect(joined.statusCode, joined.body).toBe(200);
    }
    // Same values as another tool of the product, values it does not offer, or options missing or extra: refused, nothing saved.
    const twin = await created({ brand });
    const taken = await patch(`/api/admin/tools/${twin._id}`, { productId: product._id, optionValues: { "Bar length": "18 in" } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe("VARIANT_EXISTS");
    for (const optionValues of [{ "Bar length": "22 in" }, {}, { "Bar length": "16 in", Colour: "Red" }, { Colour: "Red" }]) {
      const bad = await patch(`/api/admin/tools/${twin._id}`, { productId: product._id, optionValues, name: "Not saved" });
      expect(bad.statusCode, JSON.stringify(optionValues)).toBe(400);
    }
    expect((await patch(`/api/admin/tools/${twin._id}`, { productId: "no-such-product", optionValues: { "Bar length": "16 in" } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: `/api/tool/${twin._id}` })).json()).toMatchObject({ product: null, optionValues: {}, name: twin.name });

    // A variant's barcode travels with it (the product group's JSON-LD names each variant's).
    const gtin = `400638${String(Math.floor(Math.random() * 1e6)).padStart(6, "0")}`;
    const barcode = [..."0123456789"].map((digit) => gtin + digit).find(validGtin);
    expect((await patch(`/api/admin/tools/${s16._id}`, { gtin: barcode })).statusCode).toBe(200);
    const one = toolSchema.parse((await t.app.inject({ method: "GET", url: `/api/tool/${s18._id}` })).json());
    expect(Object.fromEntries(one.variants.map((v) => [v._id, v.gtin]))).toEqual({ [s16._id]: barcode, [s18._id]: null, [s20._id]: null });
    expect(one.product).toEqual({ _id: product._id, name: "Forstmann MS 400", options: [{ name: "Bar length", values: ["16 in", "18 in", "20 in"] }] });
    expect(one.optionValues).toEqual({ "Bar length": "18 in" });
    expect(one.variants.map((v) => [v._id, v.optionValues["Bar length"], v.price, v.availableQuantity]).sort()).toEqual(
      [
        [s16._id, "16 in", 300, 5],
        [s18._id, "18 in", 320, 5],
        [s20._id, "20 in", 280, 0],
      ].sort(),
    );
    expect(one.variants.every((v) => v.sku.length > 0)).toBe(true);
    expect(one).toMatchObject({ priceFrom: 280, variantCount: 3 });

    // The list: the product's cheapest in stock (the 16 in: the 20 in is cheaper but sold out), and the tool outside it.
    const grouped = await list(`brand=${brand}`);
    expect(grouped.tools.map((tool) => tool._id).sort()).toEqual([s16._id, twin._id].sort());
    expect(grouped.total).toBe(2);
    expect(grouped.tools.find((tool) => tool._id === s16._id)).toMatchObject({ priceFrom: 280, variantCount: 3 });
    expect(grouped.tools.find((tool) => tool._id === twin._id)).toMatchObject({ priceFrom: 300, variantCount: 1, variants: [] });
    expect(await ids(`brand=${brand}&variants=all`)).toEqual([s16._id, s18._id, s20._id, twin._id].sort());

    // The product's default wins; a filter that leaves out the default chooses among the tools it leaves.
    expect((await patch(`/api/admin/products/${product._id}`, { defaultToolId: s18._id })).statusCode).toBe(200);
    expect(await ids(`brand=${brand}`)).toEqual([s18._id, twin._id].sort());
    expect(await ids(`brand=${brand}&maxPrice=310`)).toEqual([s16._id, twin._id].sort());
    expect((await patch(`/api/admin/products/${product._id}`, { defaultToolId: twin._id })).statusCode).toBe(400);

    // Options that would leave a tool's values behind are refused; deleting the product frees its tools.
    expect((await patch(`/api/admin/products/${product._id}`, { options: [{ name: "Bar length", values: ["16 in"] }] })).statusCode).toBe(400);
    expect((await admin.delete(`/api/admin/products/${product._id}`)).statusCode).toBe(204);
    expect(await ids(`brand=${brand}`)).toEqual([s16._id, s18._id, s20._id, twin._id].sort());
    expect((await t.app.inject({ method: "GET", url: `/api/tool/${s16._id}` })).json()).toMatchObject({ product: null, optionValues: {}, variants: [] });
    expect((await admin.get(`/api/admin/audit?entityId=${product._id}`)).json().map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(["product.create", "product.update", "product.delete"]),
    );
  });

  it("filters by brands (either) and specifications (values of one key either, keys all, numbers by range)", async () => {
    const [a, b] = [`alder-${unique()}`, `birch-${unique()}`];
    for (const slug of [a, b]) expect((await admin.post("/api/admin/brands", { slug, name: slug })).statusCode).toBe(201);
    const [volts, power, cordless] = [`voltage_${unique()}`, `power_${unique()}`, `cordless_${unique()}`];
    await admin.post("/api/admin/specs", { key: volts, name: "Voltage", unit: "V", kind: "number", filterable: true });
    await admin.post("/api/admin/specs", { key: power, name: "Power source", kind: "text", filterable: true });
    await admin.post("/api/admin/specs", { key: cordless, name: "Cordless", kind: "boolean", filterable: true });
    const t18 = await created({ brand: a, specs: { [volts]: 18, [power]: "Battery", [cordless]: true } });
    const t40 = await created({ brand: a, specs: { [volts]: 40, [power]: "Battery", [cordless]: true } });
    const petrol = await created({ brand: b, specs: { [power]: "Petrol", [cordless]: false } });
    const none = await created({ brand: b });

    expect(await ids(`brand=${a}`)).toEqual([t18._id, t40._id].sort());
    expect(await ids(`brand=${a}&brand=${b}`)).toEqual([t18._id, t40._id, petrol._id, none._id].sort());
    expect(await ids(`brand=${b}&spec.${power}=Petrol`)).toEqual([petrol._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${volts}=18`)).toEqual([t18._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${volts}=18&spec.${volts}=40`)).toEqual([t18._id, t40._id].sort());
    expect(await ids(`brand=${a}&brand=${b}&spec.${volts}=20..50`)).toEqual([t40._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${volts}=..20`)).toEqual([t18._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${power}=Battery&spec.${volts}=40`)).toEqual([t40._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${power}=Battery&spec.${power}=Petrol`)).toEqual([t18._id, t40._id, petrol._id].sort());
    expect(await ids(`brand=${a}&brand=${b}&spec.${cordless}=false`)).toEqual([petrol._id]);
    expect(await ids(`brand=${a}&brand=${b}&spec.${power}=Battery&spec.${cordless}=false`)).toEqual([]);
    expect(await ids(`brand=no-such-brand`)).toEqual([]);
    for (const query of [`spec.no_such_spec=1`, `spec.${volts}=many`, `spec.${cordless}=maybe`]) {
      const res = await t.app.inject({ method: "GET", url: `/api/tool?${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });
});
