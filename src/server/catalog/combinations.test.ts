/**
 * A product's missing combinations made in one step (issue 50, the console's product page), on
 * PGlite and Postgres: POST /api/admin/products/:id/combinations creates a tool for each combination
 * of the options' values that no tool of the product has, copies of its default tool with no stock
 * and SKUs of their own, all in one transaction; GET /api/admin/products/:id/tools lists them in the
 * options' order. A second call creates nothing; two tools with the same values stay impossible
 * (409 VARIANT_EXISTS), a join racing the call included; a product without a tool is a 409.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToolSchema, productCombinationsResultSchema, type AdminTool } from "../../contract/admin-schemas";
import { Client, drivers, startTestApp, type TestApp } from "../test-support";

const ADMIN = "combinations-admin@toolyard.example";

describe.each(drivers())("a product's missing combinations on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const unique = () => randomUUID().slice(0, 8);
  const patch = (url: string, payload: unknown) => admin.request({ method: "PATCH", url, payload: payload as object });
  const combine = (productId: string) => admin.request({ method: "POST", url: `/api/admin/products/${productId}/combinations` });
  const toolsOf = async (productId: string) => {
    const res = await admin.get(`/api/admin/products/${productId}/tools`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as AdminTool[]).map((tool) => adminToolSchema.parse(tool));
  };
  const created = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Combo ${unique()}`,
      images: ["/images/tools/chainsaw.svg", "/images/tools/claw-hammer.svg"],
      price: 300,
      availableQuantity: 5,
      minimumQuantity: 2,
      description: "Cuts logs.",
      category: "chainsaws",
      active: false,
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as AdminTool;
  };
  const product = async (options: { name: string; values: string[] }[]) => {
    const res = await admin.post("/api/admin/products", { name: `Saw ${unique()}`, options });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { _id: string; name: string };
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.50.3.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates the combinations no tool has, copies of the default with no stock, once", async () => {
    const brand = `combo-${unique()}`;
    expect((await admin.post("/api/admin/brands", { slug: brand, name: "Combo" })).statusCode).toBe(201);
    const key = `bar_${unique()}`;
    expect((await admin.post("/api/admin/specs", { key, name: "Bar", unit: "in", kind: "number" })).statusCode).toBe(201);
    const saw = await product([
      { name: "Bar", values: ["16 in", "18 in"] },
      { name: "Chain", values: ["Standard", "Pro"] },
    ]);
    const first = await created({ brand, specs: { [key]: 16 } });
    const other = await created({ price: 350 });
    expect((await patch(`/api/admin/tools/${other._id}`, { productId: saw._id, optionValues: { Chain: "Pro", Bar: "18 in" } })).statusCode).toBe(200);
    expect((await patch(`/api/admin/tools/${first._id}`, { productId: saw._id, optionValues: { Bar: "16 in", Chain: "Standard" } })).statusCode).toBe(200);
    expect((await patch(`/api/admin/products/${saw._id}`, { defaultToolId: first._id })).statusCode).toBe(200);

    const res = await combine(saw._id);
    expect(res.statusCode, res.body).toBe(201);
    const made = productCombinationsResultSchema.parse(res.json()).created;
    expect(made.map((tool) => tool.optionValues)).toEqual([
      { Bar: "16 in", Chain: "Pro" },
      { Bar: "18 in", Chain: "Standard" },
    ]);
    for (const tool of made) {
      expect(tool).toMatchObject({
        name: `${saw.name} (${tool.optionValues.Bar}, ${tool.optionValues.Chain})`,
        price: 300,
        availableQuantity: 0,
        minimumQuantity: 2,
        description: "Cuts logs.",
        category: "chainsaws",
        active: false,
        brand: { slug: brand, name: "Combo" },
        images: ["/images/tools/chainsaw.svg", "/images/tools/claw-hammer.svg"],
        image: "/images/tools/chainsaw.svg",
        product: { _id: saw._id },
      });
      expect(tool.specs).toEqual([{ key, name: "Bar", value: 16, unit: "in" }]);
      expect(tool.sku).toMatch(/^TY-[0-9A-F]{12}$/);
    }
    expect(new Set([first.sku, other.sku, ...made.map((tool) => tool.sku)]).size).toBe(4);

    // The product's tools in its options' order, stock and price side by side.
    const listed = await toolsOf(saw._id);
    expect(listed.map((tool) => [tool.optionValues.Bar, tool.optionValues.Chain, tool.price, tool.availableQuantity])).toEqual([
      ["16 in", "Standard", 300, 5],
      ["16 in", "Pro", 300, 0],
      ["18 in", "Standard", 300, 0],
      ["18 in", "Pro", 350, 5],
    ]);

    // Nothing missing: nothing made. A tool joining with values a made tool has: 409 VARIANT_EXISTS, nothing saved.
    const again = await combine(saw._id);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ created: [] });
    const late = await created();
    const twin = await patch(`/api/admin/tools/${late._id}`, { productId: saw._id, optionValues: { Bar: "16 in", Chain: "Pro" }, name: "Not saved" });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toBe("VARIANT_EXISTS");
    expect(await toolsOf(saw._id)).toHaveLength(4);

    const audit = (await admin.get(`/api/admin/audit?entityId=${saw._id}`)).json() as { action: string }[];
    expect(audit.map((entry) => entry.action)).toContain("product.combinations");
  });

  it("a tool joining while the combinations are made: each combination has exactly one tool", async () => {
    const saw = await product([{ name: "Bar", values: ["16 in", "18 in", "20 in"] }]);
    const first = await created();
    expect((await patch(`/api/admin/tools/${first._id}`, { productId: saw._id, optionValues: { Bar: "16 in" } })).statusCode).toBe(200);
    const joiner = await created({ price: 999 });
    const [combined, joined] = await Promise.all([combine(saw._id), patch(`/api/admin/tools/${joiner._id}`, { productId: saw._id, optionValues: { Bar: "20 in" } })]);
    // Whichever comes second with the 20 in is refused as a whole with VARIANT_EXISTS; never a 500, never two 20 in.
    for (const res of [combined, joined]) {
      if (res.statusCode >= 300) {
        expect(res.statusCode, res.body).toBe(409);
        expect(res.json().error).toBe("VARIANT_EXISTS");
      }
    }
    expect(combined.statusCode < 300 || joined.statusCode < 300, `${combined.body} ${joined.body}`).toBe(true);
    const listed = await toolsOf(saw._id);
    const bars = listed.map((tool) => tool.optionValues.Bar);
    if (combined.statusCode === 201) {
      expect(bars).toEqual(["16 in", "18 in", "20 in"]);
      expect(listed[2]?._id === joiner._id).toBe(joined.statusCode === 200);
    } else {
      // The join won and the call made nothing: the 18 in is still missing, and a second call makes it.
      expect(bars).toEqual(["16 in", "20 in"]);
      expect((await combine(saw._id)).statusCode).toBe(201);
      expect((await toolsOf(saw._id)).map((tool) => tool.optionValues.Bar)).toEqual(["16 in", "18 in", "20 in"]);
    }
  });

  it("refuses a product without a tool (409) and an unknown one (404)", async () => {
    const empty = await product([{ name: "Size", values: ["S", "M"] }]);
    const res = await combine(empty._id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe("PRODUCT_HAS_NO_TOOLS");
    expect(await toolsOf(empty._id)).toEqual([]);
    expect((await combine(randomUUID())).statusCode).toBe(404);
    expect((await admin.get(`/api/admin/products/${randomUUID()}/tools`)).statusCode).toBe(404);
  });
});
