/**
 * Quotes through the API (issue 41, DESIGN "Quotes"), on PGlite and on Postgres: a request, the
 * owner's revisions (each priced by the Money rules for the quote's address, the previous one
 * superseded), acceptance (exactly one order at the quoted prices, under racing accepts, a repeated
 * key returning it), decline and withdrawal, expiry, the optional stock hold (released exactly
 * once, or used by the order), a card order never paid re-opening the revision, the PDF, and bad
 * input (nothing half-done).
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteAcceptResultSchema, quoteRevisionSchema, quoteSchema, type Quote } from "../../contract/quote-schemas";
import { orderSchema, type Tool } from "../../contract/schemas";
import { QUOTE_API_TEXT } from "../../contract/texts/quotes";
import { mailOutbox, quoteRevisions, stockMovements, taxRates, tools } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe";
import { expireDueQuotes } from "./service";

const ADMIN = "quotes-admin@toolyard.example";
const WEBHOOK_SECRET = "whsec_test_quotes_0123456789";
const SF = { address: "1 Market St", city: "San Francisco", region: "CA", postalCode: "94103", country: "US" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe.each(drivers())("quotes on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let stripe: StripeStandIn;

  const db = () => t.app.store.db;
  const stockOf = async (id: string) => (await db().select({ q: tools.availableQuantity }).from(tools).where(eq(tools.id, id)))[0]?.q as number;
  const ledgerOf = async (id: string) =>
    Number((await db().select({ s: sql<number>`coalesce(sum(${stockMovements.delta}), 0)` }).from(stockMovements).where(eq(stockMovements.toolId, id)))[0]?.s);
  const newTool = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Quote tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/chainsaw.svg",
      price: 349,
      availableQuantity: 100,
      minimumQuantity: 2,
      description: "For the quote tests.",
      category: "chainsaws",
      priceTiers: [{ minQuantity: 10, price: 329 }],
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  const customer = async () => {
    const c = new Client(t.app, `10.41.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp("Contractor", uniqueEmail("quote"))).statusCode).toBe(200);
    return c;
  };
  const request = async (c: Client, lines: { toolId: string; quantity: number }[], over: Record<string, unknown> = {}) => {
    const res = await c.post("/api/quotes", { lines, message: "Twenty saws for the crew, please.", neededBy: inDays(30).slice(0, 10), ...SF, ...over });
    expect(res.statusCode, res.body).toBe(201);
    return quoteSchema.parse(res.json());
  };
  const revise = (quoteId: string, body: Record<string, unknown>) => admin.post(`/api/admin/quotes/${quoteId}/revisions`, { shipping: 50, validUntil: inDays(14), message: "Our best price.", ...body });
  const accept = (c: Client, quoteId: string, revision: number, key = randomUUID(), paymentMethod = "bank_transfer") =>
    c.request({ method: "POST", url: `/api/quotes/${quoteId}/accept`, payload: { revision, paymentMethod }, headers: { "idempotency-key": key } });
  /** A quote for 20 of a new tool, answered with one revision at $300.00 each and $50.00 shipping. */
  const sentQuote = async (revision: Record<string, unknown> = {}, tool?: Tool) => {
    const saw = tool ?? (await newTool());
    const c = await customer();
    const quote = await request(c, [{ toolId: saw._id, quantity: 20 }]);
    const res = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 300 }], ...revision });
    expect(res.statusCode, res.body).toBe(201);
    return { c, quote, saw, revision: quoteRevisionSchema.parse(res.json()) };
  };
  const quoteOf = async (c: Client, id: string) => quoteSchema.parse((await c.get(`/api/quotes/${id}`)).json());

  beforeAll(async () => {
    stripe = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    });
    admin = new Client(t.app, "10.41.0.1");
    await admin.signUp("Admin", ADMIN);
    // California 7.25 %, San Francisco 8.625 % with delivery taxed (DESIGN "Money": the quote's address decides).
    await db()
      .insert(taxRates)
      .values([
        { country: "US", region: "CA", name: "California", rateBasisPoints: 725 },
        { country: "US", region: "CA", postalPrefix: "941", name: "San Francisco", rateBasisPoints: 863, taxShipping: true },
        { country: "US", region: "NY", name: "New York", rateBasisPoints: 800 },
      ]);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it("a request is numbered, kept as sent, mailed to the owners and listed; someone else's quote is not found", async () => {
    const saw = await newTool();
    const c = await customer();
    const quote = await request(c, [{ toolId: saw._id, quantity: 20 }], { message: "<b>bold</b> & <script>x</script>" });
    expect(quote).toMatchObject({ status: "requested", lines: [{ toolId: saw._id, name: saw.name, quantity: 20 }], revisions: [], orderId: null, ...SF });
    expect(quote.number).toMatch(/^Q-\d{4}-\d{6}$/);
    // HTML is kept as text: the API returns it as typed; the owners' mail escapes it where it is HTML.
    expect(quote.message).toBe("<b>bold</b> & <script>x</script>");
    const mail = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, "quote-requested"));
    expect(mail.map((m) => m.subject)).toContain(`New quote request ${quote.number}`);
    expect((await c.get("/api/quotes")).json().map((q: Quote) => q._id)).toEqual([quote._id]);
    expect(await quoteOf(c, quote._id)).toEqual(quote);

    const other = await customer();
    for (const res of [
      await other.get(`/api/quotes/${quote._id}`),
      await other.post(`/api/quotes/${quote._id}/decline`, {}),
      await accept(other, quote._id, 1),
      await other.get(`/api/quotes/${quote._id}/pdf`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("NOT_FOUND");
    }
    expect((await other.get("/api/quotes")).json()).toEqual([]);
    expect((await new Client(t.app).post("/api/quotes", { lines: [{ toolId: saw._id, quantity: 2 }] })).statusCode).toBe(401);
    // Numbers are gapless: the next request takes the next one.
    const next = await request(c, [{ toolId: saw._id, quantity: 2 }]);
    expect(Number(next.number.slice(-6))).toBe(Number(quote.number.slice(-6)) + 1);
  });

  it("refuses bad requests naming the field, and writes nothing", async () => {
    const saw = await newTool();
    const archived = await newTool({ active: false });
    const c = await customer();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ lines: [{ toolId: saw._id, quantity: 1 }] }, "body.lines.0.quantity", "BELOW_MINIMUM"],
      [{ lines: [{ toolId: archived._id, quantity: 5 }] }, "body.lines.0.toolId", "VALIDATION"],
      [{ lines: [{ toolId: "no-such-tool", quantity: 5 }] }, "body.lines.0.toolId", "VALIDATION"],
      [{ lines: [] }, "body.lines", "VALIDATION"],
      [{ lines: [{ toolId: saw._id, quantity: 2 }, { toolId: saw._id, quantity: 3 }] }, "body.lines.1.toolId", "VALIDATION"],
      [{ lines: [{ toolId: saw._id, quantity: 2 }], neededBy: "2000-01-01" }, "body.neededBy", "VALIDATION"],
      [{ lines: [{ toolId: saw._id, quantity: 2 }], country: "US", region: "CA", postalCode: "abc" }, "body.postalCode", "VALIDATION"],
      [{ lines: [{ toolId: saw._id, quantity: 2 }], message: "x".repeat(2001) }, "body.message", "VALIDATION"],
    ];
    for (const [body, path, error] of cases) {
      const res = await c.post("/api/quotes", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error, JSON.stringify(body)).toBe(error);
      expect(res.json().details.map((d: { path: string }) => d.path), JSON.stringify(body)).toContain(path);
    }
    expect((await c.get("/api/quotes")).json()).toEqual([]);
  });

  it("the owner's revision is priced for the quote's address and mailed with its PDF; a new one supersedes it and says what changed", async () => {
    const { c, quote, saw, revision } = await sentQuote();
    // 20 × 300 = 6,000 + 50 shipping; San Francisco 8.63 % (delivery taxed): 6,050 × 8.63 % = 522.115 → 522.12.
    expect(revision).toMatchObject({
      revision: 1,
      status: "sent",
      lines: [{ toolId: saw._id, name: saw.name, quantity: 20, unitPrice: 300, lineTotal: 6000 }],
      subtotal: 6000,
      shipping: 50,
      tax: 522.12,
      total: 6572.12,
      holdStock: false,
      message: "Our best price.",
      taxRate: { name: "San Francisco", rateBasisPoints: 863 },
    });
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "sent", revisions: [{ revision: 1, status: "sent" }] });
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Your quote ${quote.number}, revision 1`));
    expect(mail?.attachments).toEqual([{ kind: "quote", quoteId: quote._id, revision: 1 }]);

    const pdf = await c.get(`/api/quotes/${quote._id}/pdf?revision=1`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toContain(`${quote.number}-r1.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await admin.get(`/api/admin/quotes/${quote._id}/pdf?revision=1`)).statusCode).toBe(200);
    expect((await c.get(`/api/quotes/${quote._id}/pdf?revision=9`)).statusCode).toBe(404);

    const second = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 25, unitPrice: 290 }], shipping: 0 });
    expect(second.statusCode, second.body).toBe(201);
    const now = await quoteOf(c, quote._id);
    expect(now.revisions.map((r) => [r.revision, r.status, r.total])).toEqual([
      [1, "superseded", 6572.12],
      [2, "sent", 7875.68],
    ]);
    // The superseded revision cannot be accepted; the admin list shows the quote as sent.
    const stale = await accept(c, quote._id, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: "QUOTE_SUPERSEDED", message: QUOTE_API_TEXT.superseded });
    const listed = (await admin.get("/api/admin/quotes?status=sent")).json() as { _id: string; customer: unknown }[];
    expect(listed.find((q) => q._id === quote._id)?.customer).toMatchObject({ name: "Contractor" });
  });

  it("refuses a revision that cannot be sent, and sends nothing: past validity, below the minimum, a tool archived since", async () => {
    const saw = await newTool();
    const c = await customer();
    const quote = await request(c, [{ toolId: saw._id, quantity: 20 }]);
    const past = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 300 }], validUntil: "2001-01-01" });
    expect(past.statusCode).toBe(400);
    expect(past.json().details).toContainEqual({ path: "body.validUntil", message: QUOTE_API_TEXT.validUntilPast });
    const below = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 1, unitPrice: 300 }] });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({ error: "BELOW_MINIMUM", details: [{ path: "body.lines.0.quantity" }] });
    expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${saw._id}`, payload: { active: false } })).statusCode).toBe(200);
    const archived = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 300 }] });
    expect(archived.statusCode).toBe(409);
    expect(archived.json()).toMatchObject({ error: "QUOTE_TOOL_UNAVAILABLE", message: QUOTE_API_TEXT.toolUnavailable(saw.name) });
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "requested", revisions: [] });
    expect((await admin.post("/api/admin/quotes/no-such-quote/revisions", { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 1 }], shipping: 0, validUntil: inDays(1) })).statusCode).toBe(404);
  });

  it("accepting makes one order at the quoted prices, never re-priced; a repeated key returns it; any other accept is refused", async () => {
    const { c, quote, saw, revision } = await sentQuote();
    // Whatever the catalogue says now: another price, other tiers, other rates.
    expect((await admin.request({ method: "PATCH", url: `/api/admin/tools/${saw._id}`, payload: { price: 999, priceTiers: [] } })).statusCode).toBe(200);
    await db().update(taxRates).set({ rateBasisPoints: 1000 }).where(eq(taxRates.name, "San Francisco"));
    const key = randomUUID();
    const res = await accept(c, quote._id, 1, key);
    await db().update(taxRates).set({ rateBasisPoints: 863 }).where(eq(taxRates.name, "San Francisco"));
    expect(res.statusCode, res.body).toBe(201);
    const { order, priceChanged } = quoteAcceptResultSchema.parse(res.json());
    expect(priceChanged).toBe(false);
    expect(order).toMatchObject({
      status: "pending",
      quoteNumber: quote.number,
      subtotal: revision.subtotal,
      shipping: revision.shipping,
      tax: revision.tax,
      total: revision.total,
      discount: 0,
      paymentMethod: "bank_transfer",
      lines: [{ toolId: saw._id, quantity: 20, unitPrice: 300, lineTotal: 6000 }],
      ...SF,
    });
    expect(order.invoiceNumber).toMatch(/^INV-/);
    expect(await stockOf(saw._id)).toBe(80);
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "accepted", orderId: order._id, revisions: [{ status: "accepted" }] });
    expect(orderSchema.parse((await c.get(`/api/order/${order._id}`)).json()).quoteNumber).toBe(quote.number);

    const again = await accept(c, quote._id, 1, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.json().order._id).toBe(order._id);
    const other = await accept(c, quote._id, 1);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: "QUOTE_ALREADY_ACCEPTED", message: QUOTE_API_TEXT.alreadyAccepted });
    const reused = await accept(c, quote._id, 1, key, "cash_on_delivery");
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe("IDEMPOTENCY_KEY_REUSED");
    expect((await c.post(`/api/quotes/${quote._id}/decline`, {})).json().error).toBe("QUOTE_ALREADY_ACCEPTED");
    expect((await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 1 }] })).json().error).toBe("QUOTE_ALREADY_ACCEPTED");
    expect((await admin.post(`/api/admin/quotes/${quote._id}/withdraw`, {})).json().error).toBe("QUOTE_ALREADY_ACCEPTED");
    expect(await stockOf(saw._id)).toBe(80);
    // The owners heard of it, with the order.
    const told = await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Quote ${quote.number} accepted`));
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]?.text).toContain(`order #${order.number}`);
  });

  it("racing accepts with different keys make one order; racing retries of one key all get it", async () => {
    const { c, quote, saw } = await sentQuote();
    const results = await Promise.all(Array.from({ length: 12 }, () => accept(c, quote._id, 1)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().error).toBe("QUOTE_ALREADY_ACCEPTED");
    expect(await stockOf(saw._id)).toBe(80);
    expect((await c.get("/api/order")).json()).toHaveLength(1);

    const second = await sentQuote();
    const key = randomUUID();
    const retries = await Promise.all(Array.from({ length: 8 }, () => accept(second.c, second.quote._id, 1, key)));
    expect(retries.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(retries.map((r) => r.json().order._id)).size).toBe(1);
    expect(await stockOf(second.saw._id)).toBe(80);
  });

  it("an expired revision cannot be accepted; the sweep writes it down once; a new revision re-opens the quote", async () => {
    const { c, quote, saw } = await sentQuote();
    await db().update(quoteRevisions).set({ validUntil: new Date(Date.now() - 1000) }).where(eq(quoteRevisions.quoteId, quote._id));
    // It reads expired at once, before the sweep.
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "expired", revisions: [{ status: "expired" }] });
    const late = await accept(c, quote._id, 1);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: "QUOTE_EXPIRED", message: QUOTE_API_TEXT.expired });
    expect(await expireDueQuotes(db())).toBeGreaterThanOrEqual(1);
    expect(await expireDueQuotes(db())).toBe(0);
    expect((await c.post(`/api/quotes/${quote._id}/decline`, {})).json().error).toBe("QUOTE_EXPIRED");
    expect((await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 20, unitPrice: 310 }] })).statusCode).toBe(201);
    expect((await quoteOf(c, quote._id)).status).toBe("sent");
    expect((await accept(c, quote._id, 2)).statusCode).toBe(201);
  });

  it("not enough stock: nothing taken, the quote still open, and the same key works once the stock is back", async () => {
    const saw = await newTool({ availableQuantity: 30 });
    const { c, quote } = await sentQuote({}, saw);
    expect((await admin.post(`/api/admin/tools/${saw._id}/stock`, { delta: -15, reason: "correction", note: "counted" })).statusCode).toBe(200);
    const key = randomUUID();
    const short = await accept(c, quote._id, 1, key);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ error: "NOT_ENOUGH_STOCK", available: 15 });
    expect(await stockOf(saw._id)).toBe(15);
    expect((await quoteOf(c, quote._id)).status).toBe("sent");
    expect((await admin.post(`/api/admin/tools/${saw._id}/stock`, { delta: 10, reason: "restock", note: "delivery" })).statusCode).toBe(200);
    expect((await accept(c, quote._id, 1, key)).statusCode).toBe(201);
    expect(await stockOf(saw._id)).toBe(5);
  });

  it("declining and withdrawing close the quote; repeating either changes nothing", async () => {
    const declined = await sentQuote();
    const first = await declined.c.post(`/api/quotes/${declined.quote._id}/decline`, {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: "declined", revisions: [{ status: "declined" }] });
    expect((await declined.c.post(`/api/quotes/${declined.quote._id}/decline`, {})).json().status).toBe("declined");
    expect((await accept(declined.c, declined.quote._id, 1)).json().error).toBe("QUOTE_CLOSED");

    const withdrawn = await sentQuote();
    const res = await admin.post(`/api/admin/quotes/${withdrawn.quote._id}/withdraw`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: "withdrawn", revisions: [{ status: "withdrawn" }] });
    expect((await admin.post(`/api/admin/quotes/${withdrawn.quote._id}/withdraw`, {})).statusCode).toBe(200);
    expect((await accept(withdrawn.c, withdrawn.quote._id, 1)).json().error).toBe("QUOTE_CLOSED");
    expect((await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Quote ${withdrawn.quote.number} withdrawn`))).length).toBe(1);
    // Before any revision there is nothing to accept or decline.
    const fresh = await request(withdrawn.c, [{ toolId: withdrawn.saw._id, quantity: 2 }]);
    expect((await accept(withdrawn.c, fresh._id, 1)).json().error).toBe("QUOTE_NOT_SENT");
  });

  it("holds the quoted units: released exactly once on supersession, decline, withdrawal or expiry, or used by the order", async () => {
    const saw = await newTool({ availableQuantity: 50 });
    const { c, quote } = await sentQuote({ holdStock: true }, saw);
    expect(await stockOf(saw._id)).toBe(30);
    // Held units are not sold to others.
    const other = await customer();
    const sold = await other.post("/api/order", { toolId: saw._id, quantity: 31 });
    expect(sold.statusCode).toBe(409);
    // A revision that cannot hold all its lines is refused whole; the previous hold stays.
    const tooMany = await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 60, unitPrice: 300 }], holdStock: true });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({ error: "NOT_ENOUGH_STOCK", available: 50 });
    expect(await stockOf(saw._id)).toBe(30);
    // Superseded: its units back, the new revision's held.
    expect((await revise(quote._id, { lines: [{ toolId: saw._id, quantity: 25, unitPrice: 300 }], holdStock: true })).statusCode).toBe(201);
    expect(await stockOf(saw._id)).toBe(25);
    // Accepted: the held units are the order's, taken once.
    expect((await accept(c, quote._id, 2)).statusCode).toBe(201);
    expect(await stockOf(saw._id)).toBe(25);
    expect(await ledgerOf(saw._id)).toBe(25);

    for (const end of ["decline", "withdraw", "expire"] as const) {
      const held = await sentQuote({ holdStock: true }, saw);
      expect(await stockOf(saw._id)).toBe(5);
      if (end === "decline") expect((await held.c.post(`/api/quotes/${held.quote._id}/decline`, {})).statusCode).toBe(200);
      if (end === "withdraw") expect((await admin.post(`/api/admin/quotes/${held.quote._id}/withdraw`, {})).statusCode).toBe(200);
      if (end === "expire") {
        await db().update(quoteRevisions).set({ validUntil: new Date(Date.now() - 1000) }).where(eq(quoteRevisions.quoteId, held.quote._id));
        await Promise.all([expireDueQuotes(db()), expireDueQuotes(db())]);
      }
      expect(await stockOf(saw._id), end).toBe(25);
      // Once: the end again (and the sweep) change nothing.
      await held.c.post(`/api/quotes/${held.quote._id}/decline`, {});
      await admin.post(`/api/admin/quotes/${held.quote._id}/withdraw`, {});
      await expireDueQuotes(db(), new Date(Date.now() + 365 * 86_400_000));
      expect(await stockOf(saw._id), end).toBe(25);
      expect(await ledgerOf(saw._id), end).toBe(25);
    }
  });

  it("by card: the quote stays accepted while the order awaits payment; a hold that runs out cancels it and re-opens the revision", async () => {
    const { c, quote, saw } = await sentQuote({ holdStock: true });
    const res = await accept(c, quote._id, 1, randomUUID(), "card");
    expect(res.statusCode, res.body).toBe(201);
    const result = quoteAcceptResultSchema.parse(res.json());
    expect(result.order.status).toBe("awaiting_payment");
    expect(result.payment?.url).toMatch(/^http/);
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "accepted", orderId: result.order._id });
    expect(await stockOf(saw._id)).toBe(80);

    // Nobody pays: the hold's sweep cancels the order, the stock comes back once, the quote is open again.
    expect(await t.app.payments.expireHolds(new Date(Date.now() + 24 * 3_600_000))).toBeGreaterThanOrEqual(1);
    expect(orderSchema.parse((await c.get(`/api/order/${result.order._id}`)).json()).status).toBe("cancelled");
    expect(await stockOf(saw._id)).toBe(100);
    expect(await quoteOf(c, quote._id)).toMatchObject({ status: "sent", orderId: null, revisions: [{ status: "sent" }] });
    const again = await accept(c, quote._id, 1);
    expect(again.statusCode, again.body).toBe(201);
    expect(await stockOf(saw._id)).toBe(80);
    expect(await ledgerOf(saw._id)).toBe(80);
  });
});
