/**
 * Price tiers through the API (DESIGN "Money" → "Price tiers"), on PGlite and on Postgres: the
 * console edits a tool's ladder, the catalogue shows it, a bad ladder is refused naming the tier
 * (also when a change of the price or the minimum alone would break the one the tool keeps), and
 * the cart, its estimate and the orders price each line at the tier its quantity reaches.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartEstimateSchema } from "../../contract/money-schemas";
import { cartSchema, checkoutResultSchema, orderSchema, toolSchema, type Tool } from "../../contract/schemas";
import { PRICE_TIER_VALIDATION_TEXT } from "../../contract/texts/price-tiers";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "tiers-admin@toolyard.example";
const LADDER = [
  { minQuantity: 10, price: 119 },
  { minQuantity: 50, price: 109 },
];

describe.each(drivers())("price tiers on %s", (driver) => {
  let t: TestApp;
  let admin: Client;

  const patch = (id: string, payload: unknown) => admin.request({ method: "PATCH", url: `/api/admin/tools/${id}`, payload: payload as object });
  const newTool = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Tier tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/chainsaw.svg",
      price: 129,
      availableQuantity: 500,
      minimumQuantity: 1,
      description: "Cheaper by the dozen.",
      category: "chainsaws",
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  const customer = async () => {
    const c = new Client(t.app, `10.42.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp("Contractor", uniqueEmail("tiers"))).statusCode).toBe(200);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.42.0.1");
    await admin.signUp("Admin", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("the console sets a ladder; the catalogue, the tool and the spec's API show it; a tool without one has none", async () => {
    const plain = await newTool();
    expect(plain.priceTiers).toEqual([]);
    const tool = await newTool({ priceTiers: LADDER });
    expect(tool.priceTiers).toEqual(LADDER);
    const one = toolSchema.parse((await t.app.inject({ method: "GET", url: `/api/tool/${tool._id}` })).json());
    expect(one.priceTiers).toEqual(LADDER);
    const listed = (await t.app.inject({ method: "GET", url: "/api/tool?category=chainsaws&limit=100" })).json() as Tool[];
    expect(listed.find((x) => x._id === tool._id)?.priceTiers).toEqual(LADDER);

    // PATCH replaces the ladder; [] removes it; leaving it out keeps it.
    expect((await patch(tool._id, { priceTiers: [{ minQuantity: 5, price: 120 }] })).json().priceTiers).toEqual([{ minQuantity: 5, price: 120 }]);
    expect((await patch(tool._id, { name: "Renamed" })).json().priceTiers).toEqual([{ minQuantity: 5, price: 120 }]);
    expect((await patch(tool._id, { priceTiers: [] })).json().priceTiers).toEqual([]);

    // The spec's POST and PUT /api/tool take a ladder too.
    const spec = await admin.post("/api/tool", {
      name: "Spec tool",
      image: "/images/tools/chainsaw.svg",
      price: 50,
      availableQuantity: 10,
      minimumQuantity: 2,
      description: "Via the spec's API.",
      category: "chainsaws",
      priceTiers: [{ minQuantity: 3, price: 45 }],
    });
    expect(spec.statusCode, spec.body).toBe(201);
    expect(spec.json().priceTiers).toEqual([{ minQuantity: 3, price: 45 }]);
    const put = await admin.put(`/api/tool/${spec.json()._id}`, { priceTiers: [{ minQuantity: 4, price: 44 }] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().priceTiers).toEqual([{ minQuantity: 4, price: 44 }]);
  });

  it("refuses a ladder that breaks the rules, naming the tier, and changes nothing", async () => {
    const tool = await newTool({ minimumQuantity: 5, priceTiers: LADDER });
    const cases: [unknown, string, string][] = [
      [[{ minQuantity: 5, price: 119 }], "body.priceTiers.0.minQuantity", PRICE_TIER_VALIDATION_TEXT.NOT_ABOVE_MINIMUM(5)],
      [[{ minQuantity: 20, price: 119 }, { minQuantity: 10, price: 109 }], "body.priceTiers.1.minQuantity", PRICE_TIER_VALIDATION_TEXT.NOT_ASCENDING],
      [[{ minQuantity: 10, price: 119 }, { minQuantity: 20, price: 119 }], "body.priceTiers.1.price", PRICE_TIER_VALIDATION_TEXT.NOT_FALLING],
      [[{ minQuantity: 10, price: 129 }], "body.priceTiers.0.price", PRICE_TIER_VALIDATION_TEXT.NOT_BELOW_PRICE],
      [[{ minQuantity: 1.5, price: 100 }], "body.priceTiers.0.minQuantity", PRICE_TIER_VALIDATION_TEXT.minQuantity],
      [[{ minQuantity: 10, price: 100.123 }], "body.priceTiers.0.price", ""],
      [Array.from({ length: 11 }, (_, i) => ({ minQuantity: 10 + i, price: 120 - i })), "body.priceTiers", PRICE_TIER_VALIDATION_TEXT.TOO_MANY(10)],
    ];
    for (const [priceTiers, path, message] of cases) {
      const res = await patch(tool._id, { priceTiers });
      expect(res.statusCode, JSON.stringify(priceTiers)).toBe(400);
      expect(res.json().error).toBe("VALIDATION");
      const detail = (res.json().details as { path: string; message: string }[]).find((d) => d.path === path);
      expect(detail, `${JSON.stringify(priceTiers)}: ${res.body}`).toBeDefined();
      if (message) expect(detail?.message).toBe(message);
    }
    // A price or minimum changed alone is checked against the ladder the tool keeps.
    const cheaper = await patch(tool._id, { price: 115 });
    expect(cheaper.statusCode).toBe(400);
    expect(cheaper.json().details).toContainEqual({ path: "body.priceTiers.0.price", message: PRICE_TIER_VALIDATION_TEXT.NOT_BELOW_PRICE });
    const higher = await patch(tool._id, { minimumQuantity: 10 });
    expect(higher.statusCode).toBe(400);
    expect(higher.json().details).toContainEqual({ path: "body.priceTiers.0.minQuantity", message: PRICE_TIER_VALIDATION_TEXT.NOT_ABOVE_MINIMUM(10) });
    // ... and a ladder changed with them is checked against the new ones.
    expect((await patch(tool._id, { price: 115, priceTiers: [{ minQuantity: 10, price: 110 }] })).statusCode).toBe(200);
    const created = await admin.post("/api/admin/tools", {
      name: "Bad ladder",
      image: "/images/tools/chainsaw.svg",
      price: 10,
      availableQuantity: 1,
      minimumQuantity: 1,
      description: "x",
      category: "chainsaws",
      priceTiers: [{ minQuantity: 2, price: 11 }],
    });
    expect(created.statusCode).toBe(400);
    const after = toolSchema.parse((await t.app.inject({ method: "GET", url: `/api/tool/${tool._id}` })).json());
    expect(after).toMatchObject({ price: 115, minimumQuantity: 5, priceTiers: [{ minQuantity: 10, price: 110 }] });
  });

  it("the cart prices each line at its tier and says how many more reach the next; merge, estimate and checkout agree", async () => {
    const tool = await newTool({ priceTiers: LADDER });
    const other = await newTool({ price: 10.01, priceTiers: [{ minQuantity: 3, price: 9.99 }] });
    const c = await customer();
    const below = cartSchema.parse((await c.put(`/api/cart/lines/${tool._id}`, { quantity: 4 })).json());
    expect(below.lines[0]).toMatchObject({ unitPrice: 129, lineTotal: 516, nextTier: { minQuantity: 10, price: 119, more: 6 } });
    expect(below.lines[0]?.tier).toBeUndefined();

    const at = cartSchema.parse((await c.put(`/api/cart/lines/${tool._id}`, { quantity: 12 })).json());
    expect(at.lines[0]).toMatchObject({ unitPrice: 119, lineTotal: 1428, tier: { minQuantity: 10, price: 119 }, nextTier: { minQuantity: 50, price: 109, more: 38 } });
    expect(at.subtotal).toBe(1428);

    // A merged cart (another statement reads its lines) is priced the same way.
    const merged = cartSchema.parse((await c.post("/api/cart/merge", { lines: [{ toolId: other._id, quantity: 7 }] })).json());
    const line = merged.lines.find((l) => l.toolId === other._id);
    expect(line).toMatchObject({ unitPrice: 9.99, lineTotal: 69.93, tier: { minQuantity: 3, price: 9.99 } });
    expect(line?.nextTier).toBeUndefined();
    expect(merged.subtotal).toBe(1497.93);
    expect(merged.total).toBe(cartSchema.parse((await c.get("/api/cart")).json()).total);
    expect(cartEstimateSchema.parse((await c.post("/api/cart/estimate", {})).json()).subtotal).toBe(1497.93);

    const res = await c.request({
      method: "POST",
      url: "/api/checkout",
      payload: { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "cash_on_delivery", cartVersion: merged.version, expectedTotal: merged.total },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { order, priceChanged } = checkoutResultSchema.parse(res.json());
    expect(priceChanged).toBe(false);
    // Lines keep the tier's unit price, and each line total is exactly unit × quantity.
    expect(order.lines.map((l) => [l.toolId, l.unitPrice, l.quantity, l.lineTotal])).toEqual([
      [tool._id, 119, 12, 1428],
      [other._id, 9.99, 7, 69.93],
    ]);
    expect(order.subtotal).toBe(1497.93);

    // The purchase page too: 50 or more at 109.
    const bought = await c.post("/api/order", { toolId: tool._id, quantity: 50 });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(orderSchema.parse(bought.json())).toMatchObject({ unitPrice: 109, subtotal: 5450, lines: [{ unitPrice: 109, quantity: 50, lineTotal: 5450 }] });
  });
});
