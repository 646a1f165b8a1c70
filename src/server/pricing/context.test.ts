/**
 * pricing_context reads the tax rates that can apply to the places asked about (migration 0026,
 * issue 40), on PGlite and on Postgres: the country's, the region's and the postal prefixes the
 * place's code starts with, for the destination, the store's address and the customers'
 * profiles; never the rest of a ZIP-level table. A bare country code (an older caller) still
 * reads the whole country.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateFor } from "./price";
import { taxRates } from "../db/schema";
import { drivers, startTestApp, type TestApp } from "../test-support";
import { loadPricingContext } from "./context";

describe.each(drivers())("the tax rates pricing_context reads on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(driver);
    const db = t.app.store.db;
    // The store is in Brooklyn (the demo's address), so its own rates are read for pickup too.
    await db.execute(sql`update store_settings set country = 'US', region = 'NY', postal_code = '11201' where id = 1`);
    await db.insert(taxRates).values([
      { country: "US", region: "", postalPrefix: "", name: "US federal", rateBasisPoints: 0 },
      { country: "US", region: "NY", postalPrefix: "", name: "New York State", rateBasisPoints: 400 },
      { country: "US", region: "NY", postalPrefix: "100", name: "Manhattan", rateBasisPoints: 888 },
      { country: "US", region: "NY", postalPrefix: "112", name: "Brooklyn", rateBasisPoints: 887 },
      { country: "US", region: "NY", postalPrefix: "146", name: "Rochester", rateBasisPoints: 800 },
      { country: "US", region: "CA", postalPrefix: "", name: "California", rateBasisPoints: 725 },
      { country: "US", region: "CA", postalPrefix: "900", name: "Los Angeles", rateBasisPoints: 950 },
      { country: "CA", region: "ON", postalPrefix: "", name: "Ontario", rateBasisPoints: 1300 },
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const names = async (places: { country: string; region: string; postalCode: string }[]) =>
    (await loadPricingContext(t.app.store.db, { places, toolIds: [], userIds: [] })).rates.map((r) => r.name).sort();

  it("a destination's country, region and postal prefix, and the store's own, not the rest of the table", async () => {
    expect(await names([{ country: "US", region: "NY", postalCode: "10001" }])).toEqual(["Brooklyn", "Manhattan", "New York State", "US federal"]);
    expect(await names([{ country: "US", region: "CA", postalCode: "90012" }])).toEqual(["Brooklyn", "California", "Los Angeles", "New York State", "US federal"]);
    expect(await names([{ country: "CA", region: "ON", postalCode: "M5V 2T6" }])).toEqual(["Brooklyn", "New York State", "Ontario", "US federal"]);
    // Pickup: the store's address alone.
    expect(await names([])).toEqual(["Brooklyn", "New York State", "US federal"]);
  });

  it("a postal code with spaces matches as price.ts's rateFor does, and the rate picked is the same as from the whole table", async () => {
    const all = (await t.app.store.db.select().from(taxRates)).map((r) => ({ ...r, taxShipping: r.taxShipping }));
    for (const place of [
      { country: "US", region: "NY", postalCode: "1 00 01" },
      { country: "US", region: "NY", postalCode: "14604" },
      { country: "US", region: "CA", postalCode: "94103" },
      { country: "US", region: "TX", postalCode: "73301" },
    ]) {
      const read = (await loadPricingContext(t.app.store.db, { places: [place], toolIds: [], userIds: [] })).rates;
      expect(rateFor(read, place)?.name, place.postalCode).toBe(rateFor(all, place)?.name);
    }
  });

  it("a bare country code reads its whole country (callers from before migration 0026)", async () => {
    const result = await t.app.store.db.execute(sql`select pricing_context('["US"]'::jsonb, '[]'::jsonb, '[]'::jsonb) as context`);
    const context = (result as unknown as { rows: { context: { rates: { name: string }[] } | string }[] }).rows[0]?.context;
    const parsed = typeof context === "string" ? (JSON.parse(context) as { rates: { name: string }[] }) : context;
    expect(parsed?.rates.map((r) => r.name).sort()).toEqual(["Brooklyn", "California", "Los Angeles", "Manhattan", "New York State", "Rochester", "US federal"]);
  });
});
