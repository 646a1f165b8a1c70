/**
 * A trade member's quotes (DESIGN "Quotes", "Trade accounts", "One way to place an order", issue
 * 49) over the raw API, on PGlite and on Postgres, the app's clock injected and the stand-in Stripe
 * answering card payments: the account's exemption certificate recorded on the revision and its
 * order as a cart checkout records it; a quote's order rejected by the account's approver
 * re-opening the quote; acceptance reading the app's clock; the owners' "quote accepted" mail for a
 * card acceptance written when it is paid; a card trade order rejected before anyone was told of it
 * mailing nobody.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quoteAcceptResultSchema, quoteRevisionSchema, quoteSchema } from "../../contract/quote-schemas";
import { checkoutResultSchema, orderSchema } from "../../contract/schemas";
import { addDays, storeDate } from "../../contract/store-calendar";
import { tradeAccountSchema, type TradeAccount } from "../../contract/trade";
import { mailOutbox, taxRates } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe";

const ADMIN = "trade-quotes-admin@toolyard.example";
const WEBHOOK_SECRET = "whsec_test_trade_quotes_0123456789";
const PRICE = 40;
const DAY = 86_400_000;

interface Member {
  client: Client;
  email: string;
  userId: string;
}

describe.each(drivers())("a trade member's quotes on %s", (driver) => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let admin: Client;
  const T = new Date();
  let now = T;
  let ip = 0;
  const at = (days: number) => {
    now = new Date(T.getTime() + days * DAY);
  };

  const db = () => t.app.store.db;
  const newCustomer = async (name = "Trade quoter"): Promise<Member> => {
    ip += 1;
    const client = new Client(t.app, `10.49.${Math.floor(ip / 250)}.${ip % 250}`);
    const email = uniqueEmail("trade-quote");
    expect((await client.signUp(name, email)).statusCode).toBe(200);
    const userId = (await client.get("/api/auth/get-session")).json().user.id as string;
    return { client, email, userId };
  };
  const newTool = async () => {
    const res = await admin.post("/api/admin/tools", {
      name: `Trade quote tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: PRICE,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For a trade member's quotes.",
      category: "hand-tools",
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  const newAccount = async (body: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/accounts", { name: `Quoting firm ${randomUUID().slice(0, 6)}`, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return tradeAccountSchema.parse(res.json());
  };
  const join = async (account: TradeAccount, role: string, limits: Record<string, number | null> = {}) => {
    const m = await newCustomer(`${role} ${ip}`);
    const res = await admin.post(`/api/admin/accounts/${account._id}/members`, { email: m.email, role, ...limits });
    expect(res.statusCode, res.body).toBe(201);
    return m;
  };
  /** A quote for `quantity` of the tool at the list price, collected at the store (taxed there: New York, 8 %), answered with one revision. */
  const sentQuote = async (buyer: Member, toolId: string, quantity: number, validUntil = new Date(Date.now() + 30 * DAY)) => {
    const requested = await buyer.client.post("/api/quotes", { lines: [{ toolId, quantity }] });
    expect(requested.statusCode, requested.body).toBe(201);
    const quoteId = requested.json()._id as string;
    const revision = await admin.post(`/api/admin/quotes/${quoteId}/revisions`, { lines: [{ toolId, quantity, unitPrice: PRICE }], shipping: 0, validUntil: validUntil.toISOString() });
    expect(revision.statusCode, revision.body).toBe(201);
    return { quoteId, number: requested.json().number as string, revision: quoteRevisionSchema.parse(revision.json()) };
  };
  const accept = (buyer: Member, quoteId: string, revision = 1, paymentMethod = "cash_on_delivery") =>
    buyer.client.request({ method: "POST", url: `/api/quotes/${quoteId}/accept`, payload: { revision, paymentMethod }, headers: { "idempotency-key": randomUUID() } });
  /** The member's cart of one line, checked out for pickup (taxed at the store's address). */
  const checkout = async (buyer: Member, toolId: string, quantity: number, paymentMethod: string) => {
    expect((await buyer.client.put(`/api/cart/lines/${toolId}`, { quantity })).statusCode).toBe(200);
    const res = await buyer.client.request({
      method: "POST",
      url: "/api/checkout",
      payload: { address: "1 Main St", phone: "+1 555 0100", paymentMethod },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    return checkoutResultSchema.parse(res.json()).order;
  };
  const quoteOf = async (buyer: Member, quoteId: string) => quoteSchema.parse((await buyer.client.get(`/api/quotes/${quoteId}`)).json());
  const mailTo = async (to: string) => (await db().select().from(mailOutbox).where(eq(mailOutbox.to, to.toLowerCase()))).map((m) => m.subject);
  const about = (number: number) => (subject: string) => new RegExp(`#${number}(?!\\d)`).test(subject);
  const quoteAcceptedMail = async (number: string) => (await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Quote ${number} accepted`))).length;
  const sessionOf = (orderId: string) => {
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === orderId);
    if (!session) throw new Error("no session at the stand-in for the order");
    return session;
  };

  beforeAll(async () => {
    stripe = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp(
      driver,
      { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000", STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
      { clock: () => now },
    );
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    stripe.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/stripe/webhook`);
    admin = new Client(t.app, "10.49.250.1");
    await admin.signUp("Admin", ADMIN);
    // Collected at the store, taxed at its address (New York, 8 %).
    await db().insert(taxRates).values({ country: "US", region: "NY", name: "New York", rateBasisPoints: 800 });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it("the account's exemption certificate: the revision is priced exempt and records it, its order records {certificate, region} as a cart checkout does; after its expiry a new revision is taxed", async () => {
    const account = await newAccount();
    const buyer = await join(account, "buyer");
    const toolId = await newTool();
    const expiresOn = addDays(storeDate(T), 10);
    expect((await admin.post(`/api/admin/accounts/${account._id}/exemptions`, { country: "US", region: "NY", certificate: "NY-QT-4471", expiresOn })).statusCode).toBe(201);
    try {
      at(10);
      const { quoteId, revision } = await sentQuote(buyer, toolId, 3);
      expect(revision).toMatchObject({ subtotal: 120, tax: 0, total: 120, taxExemptCertificate: "NY-QT-4471", taxExemption: { certificate: "NY-QT-4471", region: "NY" } });
      const res = await accept(buyer, quoteId);
      expect(res.statusCode, res.body).toBe(201);
      const order = orderSchema.parse(quoteAcceptResultSchema.parse(res.json()).order);
      expect(order).toMatchObject({ tax: 0, total: 120, taxExemptCertificate: "NY-QT-4471", taxExemption: { certificate: "NY-QT-4471", region: "NY" } });
      expect(orderSchema.parse((await buyer.client.get(`/api/order/${order._id}`)).json()).taxExemption).toEqual({ certificate: "NY-QT-4471", region: "NY" });

      // The same member's cart checkout, the same day: the same exemption, recorded the same way.
      const carted = await checkout(buyer, toolId, 3, "cash_on_delivery");
      expect({ tax: carted.tax, taxExemptCertificate: carted.taxExemptCertificate, taxExemption: carted.taxExemption }).toEqual({
        tax: order.tax,
        taxExemptCertificate: order.taxExemptCertificate,
        taxExemption: order.taxExemption,
      });

      // The day after the expiry: a new quote's revision is taxed, with no certificate.
      at(11);
      const later = await sentQuote(buyer, toolId, 3);
      expect(later.revision).toMatchObject({ tax: 9.6, total: 129.6, taxExemptCertificate: null });
      expect(later.revision.taxExemption).toBeUndefined();
      const taxed = orderSchema.parse(quoteAcceptResultSchema.parse((await accept(buyer, later.quoteId)).json()).order);
      expect(taxed).toMatchObject({ tax: 9.6, taxExemptCertificate: null });
      expect(taxed.taxExemption).toBeUndefined();
    } finally {
      at(0);
    }
  });

  it("a quote's order rejected by the account's approver re-opens the quote (its revision sent again, no order), and it can be accepted again", async () => {
    const account = await newAccount();
    const approver = await join(account, "approver");
    const buyer = await join(account, "buyer", { orderLimit: 100 });
    const toolId = await newTool();
    const { quoteId } = await sentQuote(buyer, toolId, 3);
    const res = await accept(buyer, quoteId);
    expect(res.statusCode, res.body).toBe(201);
    const waiting = quoteAcceptResultSchema.parse(res.json()).order;
    expect(waiting.status).toBe("awaiting_approval");
    expect(await quoteOf(buyer, quoteId)).toMatchObject({ status: "accepted", orderId: waiting._id });

    const rejected = await approver.client.post(`/api/account/orders/${waiting._id}/reject`, { reason: "Not this month" });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().status).toBe("cancelled");
    expect(await quoteOf(buyer, quoteId)).toMatchObject({ status: "sent", orderId: null, revisions: [{ revision: 1, status: "sent" }] });
    const again = await accept(buyer, quoteId);
    expect(again.statusCode, again.body).toBe(201);
    expect(quoteAcceptResultSchema.parse(again.json()).order.status).toBe("awaiting_approval");
  });

  it("acceptance reads the app's clock, as the placement does: a revision whose validity has passed by the app's clock is expired", async () => {
    const account = await newAccount();
    const buyer = await join(account, "buyer");
    const toolId = await newTool();
    const { quoteId } = await sentQuote(buyer, toolId, 2, new Date(Date.now() + DAY));
    try {
      at(2);
      expect(await quoteOf(buyer, quoteId)).toMatchObject({ status: "expired", revisions: [{ status: "expired" }] });
      const late = await accept(buyer, quoteId);
      expect(late.statusCode, late.body).toBe(409);
      expect(late.json().error).toBe("QUOTE_EXPIRED");
      at(0);
      expect((await accept(buyer, quoteId)).statusCode).toBe(201);
    } finally {
      at(0);
    }
  });

  it("by card: the owners hear of the acceptance when it is paid, once; an abandoned card acceptance tells them nothing", async () => {
    const buyer = await newCustomer();
    const toolId = await newTool();
    const paid = await sentQuote(buyer, toolId, 2);
    const res = await accept(buyer, paid.quoteId, 1, "card");
    expect(res.statusCode, res.body).toBe(201);
    const order = quoteAcceptResultSchema.parse(res.json()).order;
    expect(order.status).toBe("awaiting_payment");
    expect(await quoteAcceptedMail(paid.number)).toBe(0);
    await stripe.complete(sessionOf(order._id).id);
    expect(orderSchema.parse((await buyer.client.get(`/api/order/${order._id}`)).json()).status).toBe("paid");
    const told = await db().select().from(mailOutbox).where(eq(mailOutbox.subject, `Quote ${paid.number} accepted`));
    expect(told.map((m) => m.to)).toEqual([ADMIN]);
    expect(told[0]?.text).toContain(`order #${order.number}`);

    const abandoned = await sentQuote(buyer, toolId, 2);
    const unpaid = quoteAcceptResultSchema.parse((await accept(buyer, abandoned.quoteId, 1, "card")).json()).order;
    await stripe.expire(sessionOf(unpaid._id).id);
    expect(orderSchema.parse((await buyer.client.get(`/api/order/${unpaid._id}`)).json()).status).toBe("cancelled");
    expect(await quoteAcceptedMail(abandoned.number)).toBe(0);
    expect((await quoteOf(buyer, abandoned.quoteId)).status).toBe("sent");

    // Not by card: told at acceptance, as before.
    const cash = await sentQuote(buyer, toolId, 2);
    expect((await accept(buyer, cash.quoteId)).statusCode).toBe(201);
    expect(await quoteAcceptedMail(cash.number)).toBe(1);
  });

  it("a card trade order rejected while awaiting approval mails its buyer nothing (they were never told of it); a cash one is told of its cancel", async () => {
    const account = await newAccount();
    const approver = await join(account, "approver");
    const buyer = await join(account, "buyer", { orderLimit: 50 });
    const toolId = await newTool();
    const card = await checkout(buyer, toolId, 2, "card");
    expect(card.status).toBe("awaiting_approval");
    expect((await approver.client.post(`/api/account/orders/${card._id}/reject`, { reason: "No" })).statusCode).toBe(200);
    expect((await mailTo(buyer.email)).filter(about(card.number))).toEqual([]);

    const byCash = await checkout(buyer, toolId, 2, "cash_on_delivery");
    expect(byCash.status).toBe("awaiting_approval");
    expect((await approver.client.post(`/api/account/orders/${byCash._id}/reject`, { reason: "No" })).statusCode).toBe(200);
    expect((await mailTo(buyer.email)).filter(about(byCash.number)).sort()).toEqual([`Your Toolyard order #${byCash.number}`, `Your Toolyard order #${byCash.number} was cancelled`]);
  });
});
