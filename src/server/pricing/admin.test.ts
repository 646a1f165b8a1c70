/**
 * The console's money API: tax rates and their CSV file, promotion codes, delivery methods,
 * the store's details and tax-exempt customers, on PGlite and on Postgres.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adminUserSchema, auditEntrySchema, type AdminUser, type AuditEntry } from "../../contract/admin-schemas";
import { promotionSchema, shippingMethodSchema, TAX_RATE_CSV_MAX_ROWS, taxRateSchema, type Promotion, type ShippingMethod, type TaxRate } from "../../contract/money-schemas";
import { MONEY_TEXT } from "../../contract/texts/money";
import { eq } from "drizzle-orm";
import { profiles, promotions, shippingMethods } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "money-admin@toolyard.example";
const CSV_HEADER = "country,region,postalPrefix,name,rateBasisPoints,taxShipping";

describe.each(drivers())("the console's money API on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let shopper: Client;
  let visitor: Client;
  let n = 0;

  const patch = (c: Client, url: string, payload: unknown) => c.request({ method: "PATCH", url, payload: payload as object });
  const postCsv = (c: Client, body: string, contentType = "text/csv") =>
    c.request({ method: "POST", url: "/api/admin/tax-rates.csv", payload: body, headers: { "content-type": contentType } });
  const rates = async () => ((await admin.get("/api/admin/tax-rates")).json() as TaxRate[]).map((r) => taxRateSchema.parse(r));
  /** The table without its ids, comparable across an import (which makes new rows). */
  const places = (list: TaxRate[]) => list.map((r) => ({ country: r.country, region: r.region, postalPrefix: r.postalPrefix, name: r.name, rateBasisPoints: r.rateBasisPoints, taxShipping: r.taxShipping }));
  const auditOf = async (entityId: string) =>
    ((await admin.get(`/api/admin/audit?entityId=${encodeURIComponent(entityId)}&limit=100`)).json() as AuditEntry[]).map((e) => auditEntrySchema.parse(e));
  const createRate = async (body: Record<string, unknown>) => {
    const res = await admin.post("/api/admin/tax-rates", body);
    expect(res.statusCode, res.body).toBe(201);
    return taxRateSchema.parse(res.json());
  };
  const code = () => `SAVE${(n++).toString(36).toUpperCase()}${Date.now().toString(36).slice(-4).toUpperCase()}`;
  const methodInput = (over: Record<string, unknown> = {}) => ({
    name: "Courier",
    freeOver: 150,
    zones: [
      { name: "New York", destinations: [{ country: "US", region: "NY" }], bands: [{ maxGrams: 5000, price: 9.99 }, { maxGrams: 40_000, price: 29.5 }] },
      { name: "Rest of the US", destinations: [{ country: "us" }], bands: [{ maxGrams: 40_000, price: 49 }] },
    ],
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.31.0.1");
    expect((await admin.signUp("Owner", ADMIN)).statusCode).toBe(200);
    shopper = new Client(t.app, "10.31.0.2");
    expect((await shopper.signUp("Shopper", uniqueEmail("money"))).statusCode).toBe(200);
    visitor = new Client(t.app, "10.31.0.3");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers 401 to a visitor and 403 to a customer on every money route, and changes nothing", async () => {
    const id = "00000000-0000-0000-0000-000000000000";
    const calls: { method: string; url: string; payload?: object }[] = [
      { method: "GET", url: "/api/admin/tax-rates" },
      { method: "POST", url: "/api/admin/tax-rates", payload: { country: "US", region: "NY", name: "Sneaky", rateBasisPoints: 1 } },
      { method: "PATCH", url: `/api/admin/tax-rates/${id}`, payload: { name: "x" } },
      { method: "DELETE", url: `/api/admin/tax-rates/${id}` },
      { method: "GET", url: "/api/admin/tax-rates.csv" },
      { method: "GET", url: "/api/admin/promotions" },
      { method: "POST", url: "/api/admin/promotions", payload: { code: "SNEAKY", kind: "percent", value: 50 } },
      { method: "PATCH", url: `/api/admin/promotions/${id}`, payload: { active: false } },
      { method: "GET", url: "/api/admin/shipping" },
      { method: "POST", url: "/api/admin/shipping", payload: methodInput() },
      { method: "PATCH", url: `/api/admin/shipping/${id}`, payload: { name: "x" } },
      { method: "DELETE", url: `/api/admin/shipping/${id}` },
      { method: "GET", url: "/api/admin/settings" },
      { method: "PUT", url: "/api/admin/settings", payload: { legalName: "Stolen", address: "1 Way", country: "US", region: "NY", postalCode: "10001" } },
      { method: "PATCH", url: `/api/admin/users/${id}/tax-exempt`, payload: { taxExemptCertificate: "X" } },
    ];
    for (const call of calls) {
      const anonymous = await visitor.request(call);
      expect(anonymous.statusCode, `${call.method} ${call.url} as a visitor`).toBe(401);
      const customer = await shopper.request(call);
      expect(customer.statusCode, `${call.method} ${call.url} as a customer`).toBe(403);
    }
    for (const c of [visitor, shopper]) expect((await postCsv(c, `${CSV_HEADER}\nUS,,,Gone,0,false\n`)).statusCode).toBeGreaterThanOrEqual(401);
    expect((await rates()).map((r) => r.name)).not.toContain("Sneaky");
    expect((await rates()).map((r) => r.name)).not.toContain("Gone");
    expect(((await admin.get("/api/admin/promotions")).json() as Promotion[]).map((p) => p.code)).not.toContain("SNEAKY");
    expect((await admin.get("/api/admin/settings")).json()).toMatchObject({ legalName: "Toolyard Inc." });
  });

  describe("tax rates", () => {
    it("creates, lists, edits and deletes a rate, each change audited", async () => {
      const rate = await createRate({ country: "us", region: "ny", postalPrefix: " 100 ", name: "NYC sales tax", rateBasisPoints: 8875, taxShipping: true });
      expect(rate).toMatchObject({ country: "US", region: "NY", postalPrefix: "100", name: "NYC sales tax", rateBasisPoints: 8875, taxShipping: true });
      expect((await rates()).map((r) => r._id)).toContain(rate._id);

      const edited = await patch(admin, `/api/admin/tax-rates/${rate._id}`, { rateBasisPoints: 8900, name: "New York City" });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ _id: rate._id, region: "NY", rateBasisPoints: 8900, name: "New York City", taxShipping: true });

      // Saving it unchanged writes no entry.
      expect((await patch(admin, `/api/admin/tax-rates/${rate._id}`, { name: "New York City" })).statusCode).toBe(200);
      expect((await admin.delete(`/api/admin/tax-rates/${rate._id}`)).json()).toEqual({ deleted: true });
      expect((await rates()).map((r) => r._id)).not.toContain(rate._id);
      expect((await admin.delete(`/api/admin/tax-rates/${rate._id}`)).statusCode).toBe(404);
      expect((await patch(admin, `/api/admin/tax-rates/${rate._id}`, { name: "x" })).statusCode).toBe(404);

      const audit = await auditOf(rate._id);
      expect(audit.map((e) => e.action)).toEqual(["tax-rate.delete", "tax-rate.update", "tax-rate.create"]);
      expect(audit[1]).toMatchObject({ entity: "tax-rate", actorEmail: ADMIN, before: { rateBasisPoints: 8875 }, after: { rateBasisPoints: 8900 } });
    });

    it("takes a country-wide rate (no region) and a prefix without a region", async () => {
      const whole = await createRate({ country: "DE", name: "Umsatzsteuer", rateBasisPoints: 1900 });
      expect(whole).toMatchObject({ region: "", postalPrefix: "", taxShipping: false });
      const prefix = await createRate({ country: "CA", postalPrefix: "h2x", name: "Montreal", rateBasisPoints: 1498 });
      expect(prefix).toMatchObject({ region: "", postalPrefix: "H2X" });
    });

    it("refuses a second rate for the same place (409), on create and on edit", async () => {
      await createRate({ country: "US", region: "TX", name: "Texas", rateBasisPoints: 625 });
      const again = await admin.post("/api/admin/tax-rates", { country: "us", region: "tx", name: "Texas again", rateBasisPoints: 700 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: "TAX_RATE_PLACE_TAKEN" });
      const other = await createRate({ country: "US", region: "OK", name: "Oklahoma", rateBasisPoints: 450 });
      const clash = await patch(admin, `/api/admin/tax-rates/${other._id}`, { region: "TX" });
      expect(clash.statusCode).toBe(409);
      expect((await rates()).find((r) => r._id === other._id)).toMatchObject({ region: "OK", rateBasisPoints: 450 });
    });

    it.each([
      [{ country: "ZZ", name: "Nowhere", rateBasisPoints: 100 }, "body.country", MONEY_TEXT.countryUnknown],
      [{ country: "US", region: "XX", name: "No state", rateBasisPoints: 100 }, "body.region", MONEY_TEXT.regionUnknown],
      [{ country: "US", region: "NY", name: "Negative", rateBasisPoints: -1 }, "body.rateBasisPoints", MONEY_TEXT.rateRange],
      [{ country: "US", region: "NY", name: "Absurd", rateBasisPoints: 10_001 }, "body.rateBasisPoints", MONEY_TEXT.rateRange],
      [{ country: "US", region: "NY", name: "Fraction", rateBasisPoints: 8.5 }, "body.rateBasisPoints", MONEY_TEXT.rateRange],
      [{ country: "US", region: "NY", name: "", rateBasisPoints: 100 }, "body.name", undefined],
      [{ country: "US", region: "NY", postalPrefix: "10;DROP", name: "Odd prefix", rateBasisPoints: 100 }, "body.postalPrefix", undefined],
    ])("refuses %j with a 400 on its field", async (body, path, message) => {
      const before = await rates();
      const res = await admin.post("/api/admin/tax-rates", body);
      expect(res.statusCode, res.body).toBe(400);
      const details = res.json().details as { path: string; message: string }[];
      expect(details.map((d) => d.path)).toContain(path);
      if (message) expect(details.find((d) => d.path === path)?.message).toBe(message);
      expect(await rates()).toEqual(before);
    });

    it("checks an edit with the fields it keeps: a region that does not fit the country is a 400, nothing saved", async () => {
      const rate = await createRate({ country: "AU", region: "NSW", name: "GST NSW", rateBasisPoints: 1000 });
      const res = await patch(admin, `/api/admin/tax-rates/${rate._id}`, { country: "CA", rateBasisPoints: 1500 });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "body.region" })]));
      expect((await rates()).find((r) => r._id === rate._id)).toEqual(rate);
    });
  });

  describe("the tax-rate CSV file", () => {
    beforeEach(async () => {
      // Each test starts from a known table: the import itself replaces it.
      const res = await postCsv(admin, `${CSV_HEADER}\nUS,NY,,New York,400,false\nUS,NY,100,"New York City, NY",8875,true\nUS,CA,,California,725,false\nGB,,,VAT,2000,true\n`);
      expect(res.statusCode, res.body).toBe(200);
    });

    it("exports the table and imports the export back to the same table (the round trip)", async () => {
      const before = await rates();
      expect(before).toHaveLength(4);
      const exported = await admin.get("/api/admin/tax-rates.csv");
      expect(exported.statusCode).toBe(200);
      expect(exported.headers["content-type"]).toMatch(/^text\/csv/);
      expect(exported.headers["content-disposition"]).toContain("tax-rates.csv");
      const lines = exported.body.trim().split("\n");
      expect(lines[0]).toBe(CSV_HEADER);
      expect(lines).toContain('US,NY,100,"New York City, NY",8875,true');

      const imported = await postCsv(admin, exported.body);
      expect(imported.statusCode, imported.body).toBe(200);
      expect(places(imported.json() as TaxRate[])).toEqual(places(before));
      expect(places(await rates())).toEqual(places(before));
      expect((await admin.get("/api/admin/tax-rates.csv")).body).toBe(exported.body);

      const audit = await auditOf("*");
      expect(audit[0]).toMatchObject({ action: "tax-rate.import", entity: "tax-rate", before: { count: 4 }, after: { count: 4 } });
    });

    it("replaces the whole table: rates not in the file are gone, columns in any order, a BOM and CRLF are fine", async () => {
      const res = await postCsv(admin, "\uFEFFname,taxShipping,rateBasisPoints,postalPrefix,region,country\r\nOntario HST,TRUE,1300,,on,ca\r\n");
      expect(res.statusCode, res.body).toBe(200);
      expect(places(await rates())).toEqual([{ country: "CA", region: "ON", postalPrefix: "", name: "Ontario HST", rateBasisPoints: 1300, taxShipping: true }]);
    });

    it.each([
      ["a rate out of range", `${CSV_HEADER}\nUS,TX,,Texas,625,false\nUS,FL,,Florida,60000,false\n`, 3, "rateBasisPoints"],
      ["a negative rate", `${CSV_HEADER}\nUS,FL,,Florida,-6,false\n`, 2, "rateBasisPoints"],
      ["a rate that is not a whole number", `${CSV_HEADER}\nUS,FL,,Florida,6.5%,false\n`, 2, "rateBasisPoints"],
      ["an unknown country", `${CSV_HEADER}\nUS,TX,,Texas,625,false\nUS,FL,,Florida,600,false\nXX,,,Nowhere,100,false\n`, 4, "country"],
      ["an unknown region", `${CSV_HEADER}\nUS,QQ,,Q,100,false\n`, 2, "region"],
      ["a missing name", `${CSV_HEADER}\nUS,TX,,,625,false\n`, 2, "name"],
      ["taxShipping that is not true or false", `${CSV_HEADER}\nUS,TX,,Texas,625,maybe\n`, 2, "taxShipping"],
    ])("refuses a file with %s: 400 naming the row and field, nothing imported", async (_what, csv, row, field) => {
      const before = await rates();
      const res = await postCsv(admin, csv);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json() as { error: string; message: string; details: { path: string; message: string }[] };
      expect(body.error).toBe("VALIDATION");
      expect(body.message).toContain(`Row ${row}, ${field}`);
      expect(body.message).toContain("Nothing was imported");
      expect(body.details[0]?.path).toBe(`row.${row}.${field}`);
      expect(await rates()).toEqual(before);
    });

    it("refuses a file that names one place twice, naming both rows", async () => {
      const before = await rates();
      const res = await postCsv(admin, `${CSV_HEADER}\nUS,TX,,Texas,625,false\nUS,NY,,New York,400,false\nus,tx,,Texas again,700,false\n`);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0]).toMatchObject({ path: "row.4" });
      expect(res.json().message).toMatch(/Row 4: .*row 2/);
      expect(await rates()).toEqual(before);
    });

    it.each([
      ["an empty file", ""],
      ["a header with a missing column", "country,region,name,rateBasisPoints,taxShipping\nUS,TX,Texas,625,false\n"],
      ["a header with an unknown column", `${CSV_HEADER},extra\nUS,TX,,Texas,625,false,1\n`],
      ["a row with too many cells", `${CSV_HEADER}\nUS,TX,,Texas,625,false,oops\n`],
      ["an unclosed quote", `${CSV_HEADER}\nUS,TX,,"Texas,625,false\n`],
      ["JSON instead of CSV", "{}"],
    ])("refuses %s with a 400, nothing imported", async (_what, csv) => {
      const before = await rates();
      const res = await postCsv(admin, csv, csv === "{}" ? "application/json" : "text/csv");
      expect(res.statusCode, res.body).toBe(400);
      expect(await rates()).toEqual(before);
    });

    it("refuses a file of more rows than an import takes, nothing imported", async () => {
      const before = await rates();
      const rows = Array.from({ length: TAX_RATE_CSV_MAX_ROWS + 1 }, (_, i) => `US,,${String(i).padStart(5, "0")},Zip ${i},100,false`);
      const res = await postCsv(admin, `${CSV_HEADER}\n${rows.join("\n")}\n`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(String(TAX_RATE_CSV_MAX_ROWS));
      expect(await rates()).toEqual(before);
    });

    it("takes a header-only file as an empty table", async () => {
      const res = await postCsv(admin, `${CSV_HEADER}\n`);
      expect(res.statusCode).toBe(200);
      expect(await rates()).toEqual([]);
    });
  });

  describe("promotions", () => {
    it("creates percent and amount codes, stores them upper-case and money in cents, and lists their redemptions", async () => {
      const percent = code();
      const res = await admin.post("/api/admin/promotions", { code: percent.toLowerCase(), kind: "percent", value: 15, categories: ["lawn-mowers", "lawn-mowers"] });
      expect(res.statusCode, res.body).toBe(201);
      const created = promotionSchema.parse(res.json());
      expect(created).toMatchObject({ code: percent, kind: "percent", value: 15, minSubtotal: 0, usageLimit: null, categories: ["lawn-mowers"], active: true, redemptions: 0 });

      const amount = code();
      const window = { startsAt: "2026-01-01T00:00:00.000Z", endsAt: "2026-12-31T23:59:59.000Z" };
      const res2 = await admin.post("/api/admin/promotions", { code: amount, kind: "amount", value: 19.99, minSubtotal: 100.5, usageLimit: 10, perCustomerLimit: 1, ...window });
      expect(res2.statusCode, res2.body).toBe(201);
      const fixed = promotionSchema.parse(res2.json());
      expect(fixed).toMatchObject({ kind: "amount", value: 19.99, minSubtotal: 100.5, usageLimit: 10, perCustomerLimit: 1, ...window });
      const [row] = await t.app.store.db.select().from(promotions).where(eq(promotions.id, fixed._id));
      expect(row).toMatchObject({ value: 1999, minSubtotalCents: 10050 });

      // The list's count is the live column the checkout keeps.
      await t.app.store.db.update(promotions).set({ redemptions: 3 }).where(eq(promotions.id, fixed._id));
      const list = ((await admin.get("/api/admin/promotions")).json() as Promotion[]).map((p) => promotionSchema.parse(p));
      expect(list.find((p) => p._id === fixed._id)?.redemptions).toBe(3);
      expect(list.find((p) => p._id === created._id)?.redemptions).toBe(0);
      expect((await auditOf(fixed._id)).map((e) => e.action)).toEqual(["promotion.create"]);
    });

    it("treats codes case-insensitively: a code taken in another case is a 409, on create and on edit", async () => {
      const taken = code();
      expect((await admin.post("/api/admin/promotions", { code: taken, kind: "percent", value: 10 })).statusCode).toBe(201);
      const again = await admin.post("/api/admin/promotions", { code: taken.toLowerCase(), kind: "amount", value: 5 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: "PROMOTION_CODE_TAKEN", message: MONEY_TEXT.codeTaken });
      const other = promotionSchema.parse((await admin.post("/api/admin/promotions", { code: code(), kind: "percent", value: 5 })).json());
      const rename = await patch(admin, `/api/admin/promotions/${other._id}`, { code: taken.toLowerCase() });
      expect(rename.statusCode).toBe(409);
      expect(((await admin.get("/api/admin/promotions")).json() as Promotion[]).filter((p) => p.code === taken)).toHaveLength(1);
    });

    it("gives two racing creates of one code one 201 and one 409, never a 500", async () => {
      const racing = code();
      const answers = await Promise.all([
        admin.post("/api/admin/promotions", { code: racing, kind: "percent", value: 10 }),
        admin.post("/api/admin/promotions", { code: racing.toLowerCase(), kind: "percent", value: 20 }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    });

    it("edits part of a promotion, checked with what it keeps, and audits it", async () => {
      const created = promotionSchema.parse((await admin.post("/api/admin/promotions", { code: code(), kind: "amount", value: 10 })).json());
      const edited = await patch(admin, `/api/admin/promotions/${created._id}`, { value: 12.5, usageLimit: 100, active: false });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ code: created.code, kind: "amount", value: 12.5, usageLimit: 100, active: false });

      // Percent with the stored amount's 12.5 does not fit: the kind needs its own value.
      const kindOnly = await patch(admin, `/api/admin/promotions/${created._id}`, { kind: "percent" });
      expect(kindOnly.statusCode).toBe(400);
      expect(kindOnly.json().details[0]).toMatchObject({ path: "body.value", message: MONEY_TEXT.percentRange });
      expect((await patch(admin, `/api/admin/promotions/${created._id}`, { kind: "percent", value: 20 })).json()).toMatchObject({ kind: "percent", value: 20 });

      const endBeforeStart = await patch(admin, `/api/admin/promotions/${created._id}`, { startsAt: "2026-06-01T00:00:00Z", endsAt: "2026-05-01T00:00:00Z" });
      expect(endBeforeStart.statusCode).toBe(400);
      expect(endBeforeStart.json().details[0]).toMatchObject({ path: "body.endsAt", message: MONEY_TEXT.datesOrder });
      // Only an end, before the start it already has, is refused too.
      await patch(admin, `/api/admin/promotions/${created._id}`, { startsAt: "2026-06-01T00:00:00Z" });
      expect((await patch(admin, `/api/admin/promotions/${created._id}`, { endsAt: "2026-05-01T00:00:00Z" })).statusCode).toBe(400);
      expect((await patch(admin, `/api/admin/promotions/00000000-0000-0000-0000-000000000000`, { active: true })).statusCode).toBe(404);

      const audit = await auditOf(created._id);
      expect(audit.map((e) => e.action)).toEqual(["promotion.update", "promotion.update", "promotion.update", "promotion.create"]);
      expect(audit[3]?.after).toMatchObject({ value: 10 });
    });

    it.each([
      [{ kind: "percent", value: 0 }, "body.value"],
      [{ kind: "percent", value: 101 }, "body.value"],
      [{ kind: "percent", value: 12.5 }, "body.value"],
      [{ kind: "amount", value: -5 }, "body.value"],
      [{ kind: "amount", value: 0 }, "body.value"],
      [{ kind: "amount", value: 2_000_000 }, "body.value"],
      [{ kind: "amount", value: 1.234 }, "body.value"],
      [{ kind: "amount", value: 5, minSubtotal: -1 }, "body.minSubtotal"],
      [{ kind: "amount", value: 5, usageLimit: 0 }, "body.usageLimit"],
      [{ kind: "amount", value: 5, perCustomerLimit: -1 }, "body.perCustomerLimit"],
      [{ kind: "amount", value: 5, categories: ["lasers"] }, "body.categories.0"],
      [{ kind: "amount", value: 5, startsAt: "tomorrow" }, "body.startsAt"],
      [{ kind: "amount", value: 5, startsAt: "2026-02-30T00:00:00Z" }, "body.startsAt"],
      [{ kind: "amount", value: 5, startsAt: "0000-01-01T00:00:00Z" }, "body.startsAt"],
      [{ kind: "amount", value: 5, endsAt: "9999-12-31T23:59:59-14:00" }, "body.endsAt"],
      [{ kind: "amount", value: 5, startsAt: "2026-06-01T00:00:00Z", endsAt: "2026-06-01T00:00:00Z" }, "body.endsAt"],
      [{ kind: "free", value: 5 }, "body.kind"],
      [{ code: "a b", kind: "amount", value: 5 }, "body.code"],
      [{ code: "AB", kind: "amount", value: 5 }, "body.code"],
    ])("refuses %j with a 400 on its field, nothing saved", async (over, path) => {
      const body = { code: code(), ...over };
      const res = await admin.post("/api/admin/promotions", body);
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json().details as { path: string }[]).map((d) => d.path)).toContain(path);
      expect(((await admin.get("/api/admin/promotions")).json() as Promotion[]).map((p) => p.code)).not.toContain(String(body.code).toUpperCase());
    });
  });

  describe("delivery methods", () => {
    it("creates, lists, edits and deletes a method, speaking dollars and storing cents", async () => {
      const res = await admin.post("/api/admin/shipping", methodInput());
      expect(res.statusCode, res.body).toBe(201);
      const method = shippingMethodSchema.parse(res.json());
      expect(method).toMatchObject({ name: "Courier", freeOver: 150, active: true });
      expect(method.zones[1]?.destinations).toEqual([{ country: "US", region: "" }]);
      expect(method.zones[0]?.bands).toEqual([{ maxGrams: 5000, price: 9.99 }, { maxGrams: 40_000, price: 29.5 }]);
      const [row] = await t.app.store.db.select().from(shippingMethods).where(eq(shippingMethods.id, method._id));
      expect(row?.freeOverCents).toBe(15_000);
      expect(row?.zones[0]?.bands).toEqual([{ maxGrams: 5000, priceCents: 999 }, { maxGrams: 40_000, priceCents: 2950 }]);

      const list = ((await admin.get("/api/admin/shipping")).json() as ShippingMethod[]).map((m) => shippingMethodSchema.parse(m));
      expect(list.map((m) => m._id)).toContain(method._id);
      expect(list.map((m) => m.name)).not.toContain(MONEY_TEXT.pickup);

      const renamed = await patch(admin, `/api/admin/shipping/${method._id}`, { name: "Express", freeOver: null, active: false });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({ name: "Express", freeOver: null, active: false, zones: method.zones });
      const rezoned = await patch(admin, `/api/admin/shipping/${method._id}`, {
        zones: [{ name: "Canada", destinations: [{ country: "CA" }], bands: [{ maxGrams: 1000, price: 0 }] }],
      });
      expect(rezoned.json().zones).toEqual([{ name: "Canada", destinations: [{ country: "CA", region: "" }], bands: [{ maxGrams: 1000, price: 0 }] }]);

      expect((await admin.delete(`/api/admin/shipping/${method._id}`)).json()).toEqual({ deleted: true });
      expect((await admin.delete(`/api/admin/shipping/${method._id}`)).statusCode).toBe(404);
      expect((await patch(admin, `/api/admin/shipping/${method._id}`, { name: "x" })).statusCode).toBe(404);
      expect((await auditOf(method._id)).map((e) => e.action)).toEqual(["shipping-method.delete", "shipping-method.update", "shipping-method.update", "shipping-method.create"]);
    });

    const zone = (over: Record<string, unknown>) => ({ name: "Z", destinations: [{ country: "US", region: "NY" }], bands: [{ maxGrams: 1000, price: 5 }], ...over });
    it.each([
      [{ zones: [] }, "body.zones"],
      [{ zones: [zone({ destinations: [{ country: "ZZ" }] })] }, "body.zones.0.destinations.0.country"],
      [{ zones: [zone({ destinations: [{ country: "US", region: "ZZ" }] })] }, "body.zones.0.destinations.0.region"],
      [{ zones: [zone({ bands: [{ maxGrams: -1, price: 5 }] })] }, "body.zones.0.bands.0.maxGrams"],
      [{ zones: [zone({ bands: [{ maxGrams: 2_000_000, price: 5 }] })] }, "body.zones.0.bands.0.maxGrams"],
      [{ zones: [zone({ bands: [{ maxGrams: 1000, price: -5 }] })] }, "body.zones.0.bands.0.price"],
      [{ zones: [zone({ bands: [{ maxGrams: 1000, price: 5 }, { maxGrams: 500, price: 9 }] })] }, "body.zones.0.bands"],
      [{ zones: [zone({}), zone({ name: "Again" })] }, "body.zones.1.destinations.0"],
      [{ freeOver: -1 }, "body.freeOver"],
      [{ name: "" }, "body.name"],
    ])("refuses %j with a 400 on its field, nothing saved", async (over, path) => {
      const count = ((await admin.get("/api/admin/shipping")).json() as ShippingMethod[]).length;
      const res = await admin.post("/api/admin/shipping", methodInput(over));
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json().details as { path: string }[]).map((d) => d.path)).toContain(path);
      expect(((await admin.get("/api/admin/shipping")).json() as ShippingMethod[]).length).toBe(count);
    });

    it("refuses a bad edit with a 400 and keeps the method as it was", async () => {
      const method = shippingMethodSchema.parse((await admin.post("/api/admin/shipping", methodInput())).json());
      const res = await patch(admin, `/api/admin/shipping/${method._id}`, { name: "Kept?", zones: [zone({ destinations: [{ country: "XX" }] })] });
      expect(res.statusCode).toBe(400);
      expect(((await admin.get("/api/admin/shipping")).json() as ShippingMethod[]).find((m) => m._id === method._id)).toEqual(method);
    });
  });

  describe("the store's details", () => {
    it("reads the migration's row, saves a change (audited), and refuses a bad address with nothing saved", async () => {
      const first = await admin.get("/api/admin/settings");
      expect(first.json()).toMatchObject({ legalName: "Toolyard Inc.", country: "US", region: "NY", postalCode: "11201" });
      const next = { legalName: "Toolyard Trading Ltd", address: "4 Anvil Row", city: "Toronto", region: "on", postalCode: "m5v 2t6", country: "ca", taxId: "123456789RT0001" };
      const saved = await admin.put("/api/admin/settings", next);
      expect(saved.statusCode, saved.body).toBe(200);
      // A client that sends no time zone (from before issue 40) leaves the store's as it is.
      const expected = { ...next, region: "ON", postalCode: "M5V 2T6", country: "CA", timeZone: "America/New_York" };
      expect(saved.json()).toEqual(expected);
      expect((await admin.get("/api/admin/settings")).json()).toEqual(expected);
      const zoned = await admin.put("/api/admin/settings", { ...next, timeZone: "America/Toronto" });
      expect(zoned.json()).toEqual({ ...expected, timeZone: "America/Toronto" });
      const reset = await admin.put("/api/admin/settings", next);
      expect(reset.json()).toEqual({ ...expected, timeZone: "America/Toronto" });
      expect((await admin.put("/api/admin/settings", { ...next, timeZone: "Mars/Olympus" })).statusCode).toBe(400);
      await admin.put("/api/admin/settings", { ...next, timeZone: "America/New_York" });

      for (const [bad, path] of [
        [{ ...next, postalCode: "12345" }, "body.postalCode"],
        [{ ...next, country: "ZZ" }, "body.country"],
        [{ ...next, region: "NY" }, "body.region"],
        [{ ...next, legalName: "" }, "body.legalName"],
        [{ ...next, timeZone: "Nowhere/Else" }, "body.timeZone"],
      ] as const) {
        const res = await admin.put("/api/admin/settings", bad);
        expect(res.statusCode).toBe(400);
        expect((res.json().details as { path: string }[]).map((d) => d.path)).toContain(path);
      }
      expect((await admin.get("/api/admin/settings")).json()).toEqual(expected);
      const audit = await auditOf("1");
      expect(audit.filter((e) => e.entity === "settings").map((e) => e.action)).toEqual(["settings.update", "settings.update", "settings.update", "settings.update"]);
      expect(audit.filter((e) => e.entity === "settings").at(-1)).toMatchObject({ before: { legalName: "Toolyard Inc." }, after: { legalName: "Toolyard Trading Ltd" } });
    });
  });

  describe("tax-exempt customers", () => {
    it("marks a customer exempt with a certificate and clears it, shown in the users list and audited", async () => {
      const email = uniqueEmail("trade");
      const trade = new Client(t.app, "10.31.0.9");
      expect((await trade.signUp("Trade Buyer", email)).statusCode).toBe(200);
      const findUser = async () => adminUserSchema.parse(((await admin.get(`/api/admin/users?q=${encodeURIComponent(email)}`)).json() as AdminUser[])[0]);
      const account = await findUser();
      expect(account.taxExemptCertificate).toBeNull();

      const marked = await patch(admin, `/api/admin/users/${account._id}/tax-exempt`, { taxExemptCertificate: "  EX-2026-0042 " });
      expect(marked.statusCode, marked.body).toBe(200);
      expect(adminUserSchema.parse(marked.json())).toMatchObject({ _id: account._id, taxExemptCertificate: "EX-2026-0042" });
      expect((await findUser()).taxExemptCertificate).toBe("EX-2026-0042");
      const [profile] = await t.app.store.db.select().from(profiles).where(eq(profiles.userId, account._id));
      expect(profile?.taxExemptCertificate).toBe("EX-2026-0042");

      // Saving the same certificate again changes nothing and writes no entry.
      await patch(admin, `/api/admin/users/${account._id}/tax-exempt`, { taxExemptCertificate: "EX-2026-0042" });
      const cleared = await patch(admin, `/api/admin/users/${account._id}/tax-exempt`, { taxExemptCertificate: "" });
      expect(cleared.json()).toMatchObject({ taxExemptCertificate: null });
      expect((await findUser()).taxExemptCertificate).toBeNull();

      const audit = await auditOf(account._id);
      expect(audit.map((e) => e.action)).toEqual(["user.tax-exempt-clear", "user.tax-exempt"]);
      expect(audit[1]).toMatchObject({ entity: "user", before: { taxExemptCertificate: null }, after: { taxExemptCertificate: "EX-2026-0042" } });
    });

    it("answers 404 for an unknown user and 400 for a certificate too long", async () => {
      expect((await patch(admin, "/api/admin/users/no-such-user/tax-exempt", { taxExemptCertificate: "X" })).statusCode).toBe(404);
      const me = adminUserSchema.parse(((await admin.get(`/api/admin/users?q=${encodeURIComponent(ADMIN)}`)).json() as AdminUser[])[0]);
      const long = await patch(admin, `/api/admin/users/${me._id}/tax-exempt`, { taxExemptCertificate: "X".repeat(61) });
      expect(long.statusCode).toBe(400);
      expect(long.json().details[0].path).toBe("body.taxExemptCertificate");
    });
  });

  it("lists the money routes in the OpenAPI document", async () => {
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(docs.statusCode).toBe(200);
    const paths = docs.json().paths as Record<string, Record<string, unknown>>;
    for (const path of ["/api/admin/tax-rates", "/api/admin/tax-rates/{id}", "/api/admin/tax-rates.csv", "/api/admin/promotions", "/api/admin/promotions/{id}", "/api/admin/shipping", "/api/admin/shipping/{id}", "/api/admin/settings", "/api/admin/users/{id}/tax-exempt"]) {
      expect(Object.keys(paths), path).toContain(path);
    }
    expect(Object.keys(paths["/api/admin/tax-rates.csv"] ?? {}).sort()).toEqual(["get", "post"]);
  });
});
