/**
 * Money through the API (issue 31, DESIGN "Money"), on PGlite and on Postgres: the cart's
 * estimate, checkout with delivery, tax and a code, the purchase page, tax-exempt customers,
 * invoice and credit-note numbers, a code's limits under racing checkouts, and bad input.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartEstimateSchema } from "../../contract/money-schemas";
import { cartSchema, checkoutResultSchema, orderSchema, type Order, type Tool } from "../../contract/schemas";
import { MONEY_TEXT } from "../../contract/texts/money";
import { profiles, promotions, shippingMethods, taxRates, user } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "money-admin@toolyard.example";
const STREET = { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "cash_on_delivery" as const };
const SF = { city: "San Francisco", country: "US", region: "CA", postalCode: "94103" };

describe.each(drivers())("money API on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let standardId: string;

  const db = () => t.app.store.db;
  const newTool = async (price: number, over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Money tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity: 1000,
      minimumQuantity: 1,
      description: "For money tests.",
      category: "hand-tools",
      weightGrams: 1500,
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  const customer = async () => {
    const c = new Client(t.app, `10.31.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp("Shopper", uniqueEmail("money"))).statusCode).toBe(200);
    return c;
  };
  const checkout = (c: Client, body: Record<string, unknown>) =>
    c.request({ method: "POST", url: "/api/checkout", payload: { ...STREET, ...body }, headers: { "idempotency-key": randomUUID() } });
  const newCode = async (over: Partial<typeof promotions.$inferInsert> = {}) => {
    const code = `CODE${randomUUID().slice(0, 6).toUpperCase()}`;
    const [row] = await db()
      .insert(promotions)
      .values({ code, kind: "percent", value: 10, ...over })
      .returning();
    return row as typeof promotions.$inferSelect;
  };
  const redemptions = async (id: string) => (await db().select({ n: promotions.redemptions }).from(promotions).where(eq(promotions.id, id)))[0]?.n;
  const sumOf = (o: Order, pick: (l: Order["lines"][number]) => number) => Math.round(o.lines.reduce((s, l) => s + pick(l) * 100, 0)) / 100;
  const expectAddsUp = (o: Order) => {
    expect(Math.round((o.subtotal - o.discount + o.shipping + o.tax) * 100)).toBe(Math.round(o.total * 100));
    for (const [key, pick] of [
      ["subtotal", (l: Order["lines"][number]) => l.subtotal],
      ["discount", (l: Order["lines"][number]) => l.discount],
      ["shipping", (l: Order["lines"][number]) => l.shipping],
      ["tax", (l: Order["lines"][number]) => l.tax],
      ["total", (l: Order["lines"][number]) => l.total],
    ] as const)
      expect(sumOf(o, pick), key).toBe(o[key]);
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.31.0.1");
    await admin.signUp("Admin", ADMIN);
    // California 7.25 %, San Francisco 8.625 % with delivery taxed; the store's own address (NY) 8 %.
    await db()
      .insert(taxRates)
      .values([
        { country: "US", region: "CA", name: "California", rateBasisPoints: 725 },
        { country: "US", region: "CA", postalPrefix: "941", name: "San Francisco", rateBasisPoints: 863, taxShipping: true },
        { country: "US", region: "NY", name: "New York", rateBasisPoints: 800 },
      ]);
    const [standard] = await db()
      .insert(shippingMethods)
      .values({
        name: "Standard delivery",
        freeOverCents: 50_000,
        zones: [{ name: "Mainland US", destinations: [{ country: "US", region: "" }], bands: [{ maxGrams: 5000, priceCents: 799 }, { maxGrams: 50_000, priceCents: 2499 }] }],
      })
      .returning();
    standardId = (standard as { id: string }).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("estimates a cart for an address: methods serving it, tax by the most specific rate, a code, and problems", async () => {
    const tool = await newTool(20);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
    const pickup = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...SF })).json());
    // Pickup is taxed at the store's address (New York, 8 %).
    expect(pickup).toMatchObject({ subtotal: 40, discount: 0, shipping: 0, tax: 3.2, total: 43.2, problems: [] });
    expect(pickup.shippingOptions).toEqual([
      { id: "pickup", name: MONEY_TEXT.pickup, price: 0 },
      { id: standardId, name: "Standard delivery", price: 7.99 },
    ]);
    const code = await newCode({ value: 25 });
    const delivered = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...SF, shippingMethod: standardId, promoCode: code.code.toLowerCase() })).json());
    // 40 − 10 = 30, delivery 7.99, San Francisco 8.63 % on 37.99 = 3.278 → 3.28.
    expect(delivered).toMatchObject({ subtotal: 40, discount: 10, shipping: 7.99, tax: 3.28, total: 41.27, problems: [] });
    const far = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { country: "GB", postalCode: "SW1A 1AA", shippingMethod: standardId, promoCode: "NOPE" })).json());
    expect(far.shippingOptions.map((o) => o.id)).toEqual(["pickup"]);
    expect(far.problems.map((p) => p.code).sort()).toEqual(["NO_SHIPPING", "PROMO_UNKNOWN"]);
    expect(far.problems.find((p) => p.code === "NO_SHIPPING")?.message).toBe(MONEY_TEXT.noShipping);
    // Pickup needs no address: a code can be checked before one is typed.
    expect(cartEstimateSchema.parse((await c.post("/api/cart/estimate", { promoCode: code.code })).json())).toMatchObject({ subtotal: 40, discount: 10, tax: 2.4, total: 32.4, problems: [] });
    expect((await c.post("/api/cart/estimate", { shippingMethod: standardId })).statusCode).toBe(400);
    // GET /api/cart: the profile has no address yet, so pickup at the store.
    expect(cartSchema.parse((await c.get("/api/cart")).json())).toMatchObject({ subtotal: 40, tax: 3.2, total: 43.2 });
  });

  it("refuses unknown countries and regions and postal codes that do not fit, naming the field", async () => {
    const c = await customer();
    for (const [body, field, message] of [
      [{ country: "ZZ" }, "country", MONEY_TEXT.countryUnknown],
      [{ country: "US", region: "XX", postalCode: "94103" }, "region", MONEY_TEXT.regionUnknown],
      [{ country: "US", region: "CA", postalCode: "9410" }, "postalCode", MONEY_TEXT.postalCodeInvalid],
      [{ country: "CA", region: "ON", postalCode: "12345" }, "postalCode", MONEY_TEXT.postalCodeInvalid],
    ] as const) {
      const res = await c.post("/api/cart/estimate", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details).toContainEqual({ path: `body.${field}`, message });
    }
    const tool = await newTool(10);
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const res = await checkout(c, { shippingMethod: standardId, country: "US", region: "CA", postalCode: "abc" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual({ path: "body.postalCode", message: MONEY_TEXT.postalCodeInvalid });
    // Delivery needs a country; a method that does not serve the address is refused naming it.
    expect((await checkout(c, { shippingMethod: standardId })).statusCode).toBe(400);
    const far = await checkout(c, { shippingMethod: standardId, country: "GB", postalCode: "SW1A 1AA" });
    expect(far.statusCode).toBe(400);
    expect(far.json()).toMatchObject({ error: "NO_SHIPPING", details: [{ path: "body.shippingMethod", message: MONEY_TEXT.noShipping }] });
  });

  it("checks out with delivery, tax and a code: the order and its lines carry every amount, and they add up", async () => {
    const a = await newTool(19.99);
    const b = await newTool(333.33, { category: "chainsaws", weightGrams: 6000 });
    const code = await newCode({ value: 15, categories: ["chainsaws"] });
    const c = await customer();
    await c.put(`/api/cart/lines/${a._id}`, { quantity: 3 });
    await c.put(`/api/cart/lines/${b._id}`, { quantity: 1 });
    const estimate = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...SF, shippingMethod: standardId, promoCode: code.code })).json());
    const res = await checkout(c, { ...SF, shippingMethod: standardId, promoCode: code.code, expectedTotal: estimate.total, saveToProfile: true });
    expect(res.statusCode, res.body).toBe(201);
    const { order, priceChanged } = checkoutResultSchema.parse(res.json());
    expect(priceChanged).toBe(false);
    // 59.97 + 333.33 = 393.30; 15 % of 333.33 = 50.00 off the chainsaw; 10.5 kg → 24.99 delivery; SF 8.63 % incl. delivery.
    expect(order).toMatchObject({
      subtotal: 393.3,
      discount: 50,
      shipping: 24.99,
      total: estimate.total,
      ...SF,
      shippingMethod: standardId,
      shippingMethodName: "Standard delivery",
      promoCode: code.code,
      taxRate: { name: "San Francisco", rateBasisPoints: 863 },
      invoiceNumber: expect.stringMatching(/^INV-\d{4}-\d{6}$/),
      creditNoteNumber: null,
    });
    expect(order.lines.map((l) => l.discount)).toEqual([0, 50]);
    expectAddsUp(order);
    expect(await redemptions(code.id)).toBe(1);
    // The order reads back the same, in the list and alone; the profile has the address now.
    const again = orderSchema.parse((await c.get(`/api/order/${order._id}`)).json());
    expect(again).toEqual({ ...order, history: again.history });
    expect((await c.get("/api/order")).json()[0]).toMatchObject({ _id: order._id, total: order.total, tax: order.tax, discount: 50 });
    expect((await c.get("/api/me/profile")).json()).toMatchObject({ address: STREET.address, ...SF });
    // With the address known, GET /api/cart prices delivery-less pickup for the profile (an empty cart: zero).
    expect(cartSchema.parse((await c.get("/api/cart")).json())).toMatchObject({ subtotal: 0, total: 0 });
  });

  it("still takes an order from a client that sends only the street line: pickup, taxed at the store", async () => {
    const tool = await newTool(50);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const res = await checkout(c, {});
    expect(res.statusCode, res.body).toBe(201);
    const { order } = checkoutResultSchema.parse(res.json());
    expect(order).toMatchObject({ subtotal: 50, shipping: 0, tax: 4, total: 54, shippingMethod: "pickup", shippingMethodName: MONEY_TEXT.pickup, country: "", address: STREET.address });
    expectAddsUp(order);
  });

  it("prices the spec's purchase page the same way: pickup, taxed at the store, with an invoice number", async () => {
    const tool = await newTool(12.5);
    const c = await customer();
    const res = await c.post("/api/order", { toolId: tool._id, quantity: 3 });
    expect(res.statusCode, res.body).toBe(201);
    const order = orderSchema.parse(res.json());
    expect(order).toMatchObject({ unitPrice: 12.5, subtotal: 37.5, tax: 3, total: 40.5, invoiceNumber: expect.stringMatching(/^INV-/) });
    expectAddsUp(order);
  });

  it("charges a tax-exempt customer no tax and keeps the certificate on the order", async () => {
    const tool = await newTool(100);
    const c = await customer();
    const me = (await c.get("/api/me/profile")).json() as { email: string };
    const [u] = await db().select({ id: user.id }).from(user).where(eq(user.email, me.email));
    await db()
      .insert(profiles)
      .values({ userId: (u as { id: string }).id, taxExemptCertificate: "RESALE-123" })
      .onConflictDoUpdate({ target: profiles.userId, set: { taxExemptCertificate: "RESALE-123" } });
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const { order } = checkoutResultSchema.parse((await checkout(c, { ...SF, shippingMethod: standardId })).json());
    expect(order).toMatchObject({ subtotal: 100, shipping: 7.99, tax: 0, total: 107.99, taxRate: null, taxExemptCertificate: "RESALE-123" });
  });

  it("says when the total changed between the page and the checkout (a rate changed): ordered at today's", async () => {
    const tool = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const res = await checkout(c, { ...SF, shippingMethod: standardId, expectedTotal: 10 + 7.99 });
    const { order, priceChanged } = checkoutResultSchema.parse(res.json());
    expect(priceChanged).toBe(true);
    expect(order.tax).toBeGreaterThan(0);
  });

  it("refuses a code that cannot apply with 400 naming the field and why, taking nothing", async () => {
    const tool = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const expired = await newCode({ endsAt: new Date(Date.now() - 60_000) });
    const minimum = await newCode({ minSubtotalCents: 5000 });
    const other = await newCode({ categories: ["lawn-mowers"] });
    for (const [code, error, message] of [
      [expired.code, "PROMO_EXPIRED", MONEY_TEXT.promoExpired],
      [minimum.code, "PROMO_BELOW_MINIMUM", MONEY_TEXT.promoBelowMinimum("$50.00")],
      [other.code, "PROMO_OTHER_CATEGORIES", MONEY_TEXT.promoOtherCategories],
      ["NOSUCHCODE", "PROMO_UNKNOWN", MONEY_TEXT.promoUnknown],
    ] as const) {
      const res = await checkout(c, { promoCode: code });
      expect(res.statusCode, code).toBe(400);
      expect(res.json()).toMatchObject({ error, message, details: [{ path: "body.promoCode", message }] });
    }
    expect(cartSchema.parse((await c.get("/api/cart")).json()).lines).toHaveLength(1);
  });

  it("gives a code limited to K uses to exactly K of N racing checkouts; a cancel gives one use back, once", async () => {
    const tool = await newTool(10);
    const K = 3;
    const N = 10;
    const code = await newCode({ usageLimit: K });
    const shoppers = await Promise.all(Array.from({ length: N }, () => customer()));
    await Promise.all(shoppers.map((c) => c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 })));
    const results = await Promise.all(shoppers.map((c) => checkout(c, { promoCode: code.code })));
    const placed = results.filter((r) => r.statusCode === 201);
    expect(placed).toHaveLength(K);
    for (const r of results.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ error: "PROMO_USED_UP", message: MONEY_TEXT.promoUsedUp, details: [{ path: "body.promoCode", message: MONEY_TEXT.promoUsedUp }] });
    }
    expect(await redemptions(code.id)).toBe(K);

    const first = checkoutResultSchema.parse((placed[0] as (typeof placed)[number]).json()).order;
    const owner = shoppers[results.indexOf(placed[0] as (typeof placed)[number])] as Client;
    expect((await owner.request({ method: "DELETE", url: `/api/order/${first._id}` })).statusCode).toBe(200);
    expect((await owner.request({ method: "DELETE", url: `/api/order/${first._id}` })).statusCode).toBe(200);
    expect(await redemptions(code.id)).toBe(K - 1);
    const cancelled = orderSchema.parse((await owner.get(`/api/order/${first._id}`)).json());
    expect(cancelled).toMatchObject({ status: "cancelled", creditNoteNumber: expect.stringMatching(/^CN-\d{4}-\d{6}$/) });
    // The use given back is there for the next checkout.
    const late = shoppers.find((_, i) => (results[i] as (typeof results)[number]).statusCode !== 201) as Client;
    expect((await checkout(late, { promoCode: code.code })).statusCode).toBe(201);
    expect(await redemptions(code.id)).toBe(K);
  });

  it("holds a per-customer limit", async () => {
    const tool = await newTool(10);
    const code = await newCode({ perCustomerLimit: 1 });
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    expect((await checkout(c, { promoCode: code.code })).statusCode).toBe(201);
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const again = await checkout(c, { promoCode: code.code });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: "PROMO_USED_UP_BY_YOU" });
  });

  it("numbers invoices without gaps, in order", async () => {
    const tool = await newTool(10);
    const numbers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await customer();
      await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
      numbers.push(checkoutResultSchema.parse((await checkout(c, {})).json()).order.invoiceNumber as string);
    }
    const seq = numbers.map((n) => Number(n.slice(-6)));
    expect(seq).toEqual([seq[0], (seq[0] as number) + 1, (seq[0] as number) + 2]);
  });
});
