/**
 * The demo store (DESIGN "Running contract": the demo shows the whole shop): a new user's first
 * checkout offers delivery, charges New York's tax and takes the sample code; a store that has
 * tools is never seeded again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartEstimateSchema } from "../../contract/money-schemas";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { seedIfEmpty } from "./seed";
import { SEED_PROMOTION, SEED_SHIPPING_METHODS, SEED_TAX_RATES, SEED_TOOLS } from "./seed-data";
import { SEED_VARIANT_COUNT } from "./seed-catalogue";
import { shippingMethods, taxRates, tools } from "./schema";

const BROOKLYN = { country: "US", region: "NY", postalCode: "11201", city: "Brooklyn" };
const BUFFALO = { country: "US", region: "NY", postalCode: "14201", city: "Buffalo" };
const AUSTIN = { country: "US", region: "TX", postalCode: "78701", city: "Austin" };

describe.each(drivers())("the demo store (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(driver, { AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" }, { demoMoney: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  const toolNamed = async (slug: string) => {
    const name = SEED_TOOLS.find((s) => s.slug === slug)?.name as string;
    const all = (await t.app.inject({ url: "/api/tool?limit=100" })).json() as { _id: string; name: string; price: number }[];
    return all.find((x) => x.name === name) as { _id: string; price: number };
  };

  it("prices a first checkout with delivery by weight, New York's tax by postal code, and the sample code", async () => {
    const c = new Client(t.app, "10.42.0.1");
    await c.signUp("First Buyer", uniqueEmail("demo"));
    const drill = await toolNamed("cordless-drill");
    expect((await c.put(`/api/cart/lines/${drill._id}`, { quantity: 1 })).statusCode).toBe(200);

    const pickup = cartEstimateSchema.parse((await c.post("/api/cart/estimate", BROOKLYN)).json());
    // Pickup in Brooklyn: New York City's 8.88 % on $139.00 = $12.3432 → $12.34.
    expect(pickup).toMatchObject({ subtotal: 139, shipping: 0, tax: 12.34, total: 151.34, problems: [] });
    // 1.6 kg: Standard's first band, $6.95; Freight's first, $79.00.
    expect(Object.fromEntries(pickup.shippingOptions.map((o) => [o.name, o.price]))).toEqual({ "Pickup at the store": 0, "Standard delivery": 6.95, Freight: 79 });

    const standard = pickup.shippingOptions.find((o) => o.name === "Standard delivery")?.id as string;
    const city = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...BROOKLYN, shippingMethod: standard, promoCode: "welcome10" })).json());
    // 139 − 13.90 = 125.10, + 6.95 delivery (taxed in New York) = 132.05; × 8.88 % = 11.726 → 11.73.
    expect(city).toMatchObject({ subtotal: 139, discount: 13.9, shipping: 6.95, tax: 11.73, total: 143.78, problems: [] });
    const upstate = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...BUFFALO, shippingMethod: standard })).json());
    // The state's 4 % outside the city: (139 + 6.95) × 4 % = 5.838 → 5.84.
    expect(upstate).toMatchObject({ shipping: 6.95, tax: 5.84, total: 151.79 });
    const texas = cartEstimateSchema.parse((await c.post("/api/cart/estimate", { ...AUSTIN, shippingMethod: standard })).json());
    expect(texas).toMatchObject({ shipping: 6.95, tax: 0, total: 145.95 });
  });

  it("delivers free over the threshold, and sends a ride-on mower by freight only", async () => {
    const c = new Client(t.app, "10.42.0.2");
    await c.signUp("Mower Buyer", uniqueEmail("demo"));
    const saw = await toolNamed("petrol-chainsaw");
    await c.put(`/api/cart/lines/${saw._id}`, { quantity: 1 });
    const options = cartEstimateSchema.parse((await c.post("/api/cart/estimate", AUSTIN)).json()).shippingOptions;
    expect(options.find((o) => o.name === "Standard delivery")?.price).toBe(0);

    const tractor = await toolNamed("ride-on-mower");
    await c.put(`/api/cart/lines/${tractor._id}`, { quantity: 1 });
    const heavy = cartEstimateSchema.parse((await c.post("/api/cart/estimate", AUSTIN)).json()).shippingOptions;
    // 185 kg + 5.6 kg: past Standard's last band (30 kg); Freight's 250 kg band.
    expect(heavy.map((o) => [o.name, o.price])).toEqual([
      ["Pickup at the store", 0],
      ["Freight", 149],
    ]);
  });

  it("gives every tool a handful of reviews, counted in its rating (none a verified purchase: the demo's authors have no orders)", async () => {
    const all = (await t.app.inject({ url: "/api/tool?limit=100" })).json() as { _id: string; rating: { average: number; count: number } }[];
    expect(all).toHaveLength(SEED_TOOLS.length);
    for (const tool of all) {
      expect(tool.rating.count).toBeGreaterThanOrEqual(3);
      const listed = (await t.app.inject({ url: `/api/tool/${tool._id}/reviews?limit=100` })).json() as { rating: number; verified: boolean }[];
      expect(listed).toHaveLength(tool.rating.count);
      const exact = listed.reduce((sum, r) => sum + r.rating, 0) / listed.length;
      expect(tool.rating.average).toBeCloseTo(exact, 1);
      expect(listed.every((r) => !r.verified)).toBe(true);
    }
  });

  it("fills only an empty store: a second start, or a store with its own rates, keeps what it has", async () => {
    const db = t.app.store.db;
    expect(await db.$count(shippingMethods)).toBe(SEED_SHIPPING_METHODS.length);
    expect(await db.$count(taxRates)).toBe(SEED_TAX_RATES.length);
    const again = await seedIfEmpty(db);
    expect(again).toEqual({ tools: 0, reviews: 0, shippingMethods: 0, taxRates: 0, promotions: 0 });
    // The demo's products add their other variants to the 16 tools (issue 50).
    expect(await db.$count(tools)).toBe(SEED_TOOLS.length + SEED_VARIANT_COUNT);
    expect(await db.$count(taxRates)).toBe(SEED_TAX_RATES.length);
  });
});

describe("the demo's money on a store configured before its first tool", () => {
  it("adds tools but not delivery or tax where the owner already set them up; the code is added once", async () => {
    const t = await startTestApp("pglite", { SEED: "false" });
    try {
      const db = t.app.store.db;
      await db.insert(taxRates).values({ country: "US", region: "CA", name: "California", rateBasisPoints: 725 });
      await db.insert(shippingMethods).values({ name: "Own courier", zones: [{ name: "CA", destinations: [{ country: "US", region: "CA" }], bands: [{ maxGrams: 1000, priceCents: 500 }] }] });
      const seeded = await seedIfEmpty(db);
      expect(seeded).toEqual({ tools: SEED_TOOLS.length + SEED_VARIANT_COUNT, reviews: expect.any(Number) as number, shippingMethods: 0, taxRates: 0, promotions: 1 });
      expect((await db.select({ name: taxRates.name }).from(taxRates)).map((r) => r.name)).toEqual(["California"]);
      expect((await db.select({ name: shippingMethods.name }).from(shippingMethods)).map((r) => r.name)).toEqual(["Own courier"]);
      expect(SEED_PROMOTION.code).toBe("WELCOME10");
    } finally {
      await t.close();
    }
  });
});
