/**
 * Card payments through the API (issue 32, DESIGN "Payments"), on PGlite and on Postgres, with
 * the Stripe stand-in (tests/support/stripe.ts) driven through the official SDK: checkout opens
 * the provider's page and holds the stock; the webhook alone makes the order paid, once per
 * event; a wrong amount is flagged, not paid; an expired page or a hold that runs out cancels
 * with the stock back once; a late payment is refunded; the owner's cancel refunds, and a
 * refused refund leaves the order paid. Without the Stripe variables the store works as before.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutResultSchema, orderSchema, type Order, type Tool } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { mailOutbox, paymentEvents, tools } from "../db/schema";
import { prepareStore } from "../start-up";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe";

const ADMIN = "payments-admin@toolyard.example";
const WEBHOOK_SECRET = "whsec_test_payments_0123456789";
const DELIVERY = { address: "1 Main St", phone: "+1 555 0100" };

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/stripe/webhook`;
}

describe.each(drivers())("card payments on %s", (driver) => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let admin: Client;

  const db = () => t.app.store.db;
  const stock = async (id: string) => (await db().select({ q: tools.availableQuantity }).from(tools).where(eq(tools.id, id)))[0]?.q;
  const newTool = async (price = 25, availableQuantity = 10) => {
    const res = await admin.post("/api/tool", {
      name: `Card tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity,
      minimumQuantity: 1,
      description: "For payment tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json() as Tool;
  };
  const customer = async (app = t, email = uniqueEmail("card")) => {
    const c = new Client(app.app, `10.32.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp("Card Shopper", email)).statusCode).toBe(200);
    return c;
  };
  /** A card order of `quantity` of a new tool: the order, its session at the stand-in, its customer and tool. */
  const cardOrder = async (quantity = 2, email = uniqueEmail("card")) => {
    const tool = await newTool();
    const c = await customer(t, email);
    await c.put(`/api/cart/lines/${tool._id}`, { quantity });
    const res = await c.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
    expect(res.statusCode, res.body).toBe(201);
    const result = checkoutResultSchema.parse(res.json());
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === result.order._id);
    if (!session) throw new Error("no session at the stand-in for the order");
    return { ...result, session, c, tool, email };
  };
  const sessionOf = (orderId: string) => {
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === orderId);
    if (!session) throw new Error("no session at the stand-in for the order");
    return session;
  };
  /** The outbox's messages about order `number` (the customer's name it, the admins' too), as [to, kind]. */
  const mailAbout = async (number: number) =>
    (await db().select().from(mailOutbox))
      .filter((m) => new RegExp(`#${number}\\b`).test(m.subject))
      .map((m) => `${m.to} ${m.kind}`)
      .sort();
  const orderOf = async (c: Client, id: string): Promise<Order> => orderSchema.parse((await c.get(`/api/order/${id}`)).json());

  beforeAll(async () => {
    stripe = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      // Long enough for every test below but the hold's own (which waits it out on its own order).
      PAYMENT_HOLD_MINUTES: "0.1",
    });
    stripe.setWebhookUrl(await listen(t));
    admin = new Client(t.app, "10.32.0.1");
    await admin.signUp("Admin", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it("offers the card, opens the provider's page and holds the stock while the order awaits its payment", async () => {
    expect((await new Client(t.app).get("/api/payments/methods")).json()).toEqual({ methods: ["cash_on_delivery", "bank_transfer", "card"], holdMinutes: 0.1 });
    const { order, payment, session, c, tool } = await cardOrder(2);
    expect(order).toMatchObject({ status: "awaiting_payment", paymentMethod: "card", payment: { status: "open", url: session.url } });
    expect(payment).toEqual({ url: session.url });
    expect(session).toMatchObject({ amount_total: 5000, currency: "usd", metadata: { orderId: order._id } });
    expect(await stock(tool._id)).toBe(8);
    // The return URL alone changes nothing: the order waits for the webhook.
    expect((await orderOf(c, order._id)).status).toBe("awaiting_payment");
  });

  it("marks the order paid on the signed webhook, once however often the event comes", async () => {
    const { order, session, c } = await cardOrder();
    const event = await stripe.complete(session.id);
    const again = await stripe.resend(event.id);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.responseBody)).toEqual({ received: true, outcome: "duplicate" });
    const paid = await orderOf(c, order._id);
    expect(paid).toMatchObject({ status: "paid", payment: { status: "paid", url: null }, paymentProblem: null });
    expect(paid.history.map((h) => [h.status, h.by])).toEqual([
      ["awaiting_payment", "customer"],
      ["paid", "store"],
    ]);
    // An expired event after the payment (out of order) changes nothing.
    await stripe.deliver(stripe.makeEvent("checkout.session.expired", { ...session, status: "expired" }));
    expect((await orderOf(c, order._id)).status).toBe("paid");
  });

  it("mails a card order when it is paid, not when it is placed, on every placement path; an abandoned checkout mails nobody (issue 40)", async () => {
    const sorted = (mails: (readonly [string, string])[]) => mails.map((m) => m.join(" ")).sort();
    // The cart's checkout: nothing while the order waits; the paid event writes the customer's message (its invoice attached) and the admins', once.
    const { order, session, c, email } = await cardOrder(1);
    expect(await mailAbout(order.number)).toEqual([]);
    const event = await stripe.complete(session.id);
    await stripe.resend(event.id);
    const paid = await orderOf(c, order._id);
    expect(paid.invoiceNumber).toMatch(/^INV-/);
    expect(await mailAbout(order.number)).toEqual(sorted([[email, "order-placed"], [ADMIN, "admin-new-order"]]));
    const [placedMail] = (await db().select().from(mailOutbox)).filter((m) => m.to === email && m.kind === "order-placed");
    expect(placedMail?.attachments).toEqual([{ kind: "invoice", orderId: order._id }]);
    expect(placedMail?.text).toContain(paid.invoiceNumber);
    expect(placedMail?.text).toContain(PAYMENT_TEXT.status.paid);
    expect(placedMail?.text).not.toContain(PAYMENT_TEXT.status.open);

    // A paid card order the owner cancels: its customer hears of the cancel, as before.
    expect((await admin.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" })).json()).toMatchObject({ status: "refunding" });
    await t.app.payments.refundWorker.runOnce();
    expect((await orderOf(c, order._id)).status).toBe("cancelled");
    expect(await mailAbout(order.number)).toEqual(sorted([[email, "order-placed"], [ADMIN, "admin-new-order"], [email, "order-cancelled"]]));

    // An abandoned checkout (its page expired, never paid): cancelled without a word to anyone.
    const abandoned = await cardOrder(1);
    await stripe.expire(abandoned.session.id);
    expect((await orderOf(abandoned.c, abandoned.order._id)).status).toBe("cancelled");
    expect(await mailAbout(abandoned.order.number)).toEqual([]);

    // A quote accepted by card: the order's mail, and the owners' "quote accepted" with it (issue 49), wait for the payment. (The purchase page takes no card.)
    const tool = await newTool();
    const buyerEmail = uniqueEmail("card");
    const buyer = await customer(t, buyerEmail);
    const requested = await buyer.post("/api/quotes", { lines: [{ toolId: tool._id, quantity: 2 }] });
    expect(requested.statusCode, requested.body).toBe(201);
    const quoteId = requested.json()._id as string;
    const revision = await admin.post(`/api/admin/quotes/${quoteId}/revisions`, {
      lines: [{ toolId: tool._id, quantity: 2, unitPrice: 20 }],
      shipping: 0,
      validUntil: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(revision.statusCode, revision.body).toBe(201);
    const accepted = await buyer.request({ method: "POST", url: `/api/quotes/${quoteId}/accept`, payload: { revision: 1, paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
    expect(accepted.statusCode, accepted.body).toBe(201);
    const quoted = orderSchema.parse(accepted.json().order);
    expect(await mailAbout(quoted.number)).toEqual([]);
    await stripe.complete(sessionOf(quoted._id).id);
    expect(await mailAbout(quoted.number)).toEqual(sorted([[buyerEmail, "order-placed"], [ADMIN, "admin-new-order"]]));

    // A trade order over its buyer's limit: its approver is asked (approval-needed, not an order's mail); approved, it waits for the card like any other.
    const account = (await admin.post("/api/admin/accounts", { name: `Card firm ${randomUUID().slice(0, 6)}` })).json() as { _id: string };
    const approverEmail = uniqueEmail("card");
    const approver = await customer(t, approverEmail);
    const memberEmail = uniqueEmail("card");
    const member = await customer(t, memberEmail);
    expect((await admin.post(`/api/admin/accounts/${account._id}/members`, { email: approverEmail, role: "approver" })).statusCode).toBe(201);
    expect((await admin.post(`/api/admin/accounts/${account._id}/members`, { email: memberEmail, role: "buyer", orderLimit: 10 })).statusCode).toBe(201);
    await member.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const over = await member.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
    expect(over.statusCode, over.body).toBe(201);
    const waiting = checkoutResultSchema.parse(over.json()).order;
    expect(waiting.status).toBe("awaiting_approval");
    expect(sorted((await db().select().from(mailOutbox)).filter((m) => (m.to === memberEmail || m.to === approverEmail) && m.kind !== "verify-email").map((m) => [m.to, m.kind] as const))).toEqual(
      sorted([[approverEmail, "approval-needed"]]),
    );
    const approved = await approver.post(`/api/account/orders/${waiting._id}/approve`, {});
    expect(approved.json()).toMatchObject({ status: "awaiting_payment" });
    expect(await mailAbout(waiting.number)).toEqual(sorted([[approverEmail, "approval-needed"]]));
    await stripe.complete(sessionOf(waiting._id).id);
    expect((await orderOf(member, waiting._id)).status).toBe("paid");
    expect(await mailAbout(waiting.number)).toEqual(sorted([[approverEmail, "approval-needed"], [memberEmail, "order-placed"], [ADMIN, "admin-new-order"]]));
  });

  it("refuses a webhook whose signature does not match, changing nothing", async () => {
    const { order, session, c } = await cardOrder();
    const forged = stripe.makeEvent("checkout.session.completed", { ...session, status: "complete", payment_status: "paid" });
    const delivery = await stripe.deliver(forged, { secret: "whsec_someone_else" });
    expect(delivery.status).toBe(400);
    expect((await orderOf(c, order._id)).status).toBe("awaiting_payment");
  });

  it("flags a payment whose amount does not match the order for the owner, and does not mark it paid", async () => {
    const { order, session, c } = await cardOrder();
    await stripe.complete(session.id, { amountTotal: 100 });
    const flagged = await orderOf(c, order._id);
    expect(flagged).toMatchObject({ status: "awaiting_payment", paymentProblem: "AMOUNT_MISMATCH" });
  });

  it("cancels on an expired page with the stock back once, and refunds a payment that arrives after", async () => {
    const { order, session, c, tool } = await cardOrder(3);
    expect(await stock(tool._id)).toBe(7);
    const expired = await stripe.expire(session.id);
    await stripe.resend(expired.id);
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled" });
    expect(await stock(tool._id)).toBe(10);

    await stripe.complete(session.id, { force: true });
    // The refund is owed from the event's transaction and sent by the refund worker.
    await t.app.payments.refundWorker.runOnce();
    const late = await orderOf(c, order._id);
    expect(late).toMatchObject({ status: "cancelled", paymentProblem: "LATE_PAYMENT_REFUNDED", payment: { status: "refunded" } });
    expect(late.history.at(-1)?.note).toBe(PAYMENT_TEXT.lateRefunded("$75.00"));
    expect(stripe.refunds.filter((r) => r.metadata?.orderId === order._id)).toHaveLength(1);
    expect(await stock(tool._id)).toBe(10);
  });

  it("refunds a paid card order the owner cancels; a refund the provider refuses leaves it paid and says why", async () => {
    const { order, session, c, tool } = await cardOrder(1);
    await stripe.complete(session.id);
    stripe.refuseRefunds("The charge was disputed");
    // The cancel waits for the refund (`refunding`); the refusal gives the order back, paid (decision 0016).
    const refused = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ status: "refunding" });
    await t.app.payments.refundWorker.runOnce();
    expect(await orderOf(c, order._id)).toMatchObject({ status: "paid", payment: { status: "refund_failed", refundError: expect.stringContaining("disputed") } });
    expect(await stock(tool._id)).toBe(9);

    stripe.refuseRefunds(null);
    const cancelled = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await t.app.payments.refundWorker.runOnce();
    const after = await orderOf(c, order._id);
    expect(after).toMatchObject({ status: "cancelled", payment: { status: "refunded", refundError: null } });
    expect(after.history.at(-1)).toMatchObject({ status: "cancelled", by: "store", note: expect.stringMatching(/^Refunded \$25\.00 to the card/) });
    expect(after.history.find((h) => h.status === "refunding")).toMatchObject({ by: "admin" });
    expect(stripe.refunds.filter((r) => r.metadata?.orderId === order._id && r.status === "succeeded")).toHaveLength(1);
    expect(await stock(tool._id)).toBe(10);
  });

  it("applies an event once when it arrives three times at the same moment", async () => {
    const { order, session, c } = await cardOrder();
    stripe.hold();
    const event = await stripe.complete(session.id);
    const copies = Promise.all([stripe.resend(event.id), stripe.resend(event.id)]);
    await stripe.release();
    await copies;
    await stripe.idle();
    const outcomes = stripe.deliveries.filter((d) => d.eventId === event.id).map((d) => JSON.parse(d.responseBody).outcome as string);
    expect(outcomes.sort()).toEqual(["applied", "duplicate", "duplicate"]);
    const paid = await orderOf(c, order._id);
    expect(paid.history.filter((h) => h.status === "paid")).toHaveLength(1);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, event.id))).toHaveLength(1);
  });

  it("cancels a card order unpaid past its hold, with its stock back, when no event ever comes", async () => {
    const { order, c, tool } = await cardOrder(4);
    expect(await stock(tool._id)).toBe(6);
    const deadline = Date.now() + 20_000;
    let status = "awaiting_payment";
    while (status === "awaiting_payment" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await orderOf(c, order._id)).status;
    }
    const cancelled = await orderOf(c, order._id);
    expect(cancelled).toMatchObject({ status: "cancelled", payment: { status: "expired" } });
    // The sweep closes the page first: Stripe's expiry event may cancel the order before the sweep does.
    expect(cancelled.history.at(-1)?.by).toBe("store");
    expect([PAYMENT_TEXT.holdExpired, PAYMENT_TEXT.sessionExpired]).toContain(cancelled.history.at(-1)?.note);
    expect(await stock(tool._id)).toBe(10);
    // An abandoned checkout mails nobody, placed or cancelled (issue 40).
    expect(await mailAbout(order.number)).toEqual([]);
  });

  it("keeps working without the Stripe variables: no card, and a card checkout is refused", async () => {
    const plain = await startTestApp(driver, { AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    try {
      expect((await new Client(plain.app).get("/api/payments/methods")).json().methods).toEqual(["cash_on_delivery", "bank_transfer"]);
      const c = new Client(plain.app, "10.32.9.9");
      await c.signUp("Plain", uniqueEmail("plain"));
      const res = await c.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toContainEqual({ path: "body.paymentMethod", message: PAYMENT_TEXT.cardUnavailable });
      const hook = await c.request({ method: "POST", url: "/api/payments/stripe/webhook", payload: "{}", headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=x" } });
      expect(hook.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("answers 503 when the provider does not answer, and keeps the order and its stock: a page may be live (issue 40)", async () => {
    // Nothing listens on port 9: every call to the provider fails without an answer.
    const down = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      STRIPE_SECRET_KEY: "sk_test_down",
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: "http://127.0.0.1:9",
    });
    try {
      const owner = new Client(down.app, "10.32.8.1");
      await owner.signUp("Admin", ADMIN);
      const created = await owner.post("/api/tool", {
        name: "Unpaid saw",
        image: "/images/tools/jigsaw.svg",
        price: 30,
        availableQuantity: 5,
        minimumQuantity: 1,
        description: "For payment tests.",
        category: "power-tools",
      });
      const tool = created.json() as Tool;
      const c = await customer(down);
      await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
      const res = await c.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "card" }, headers: { "idempotency-key": randomUUID() } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: "PAYMENT_UNAVAILABLE", message: PAYMENT_TEXT.providerUnsure });
      const [order] = (await c.get("/api/order")).json() as Order[];
      expect(order).toMatchObject({ status: "awaiting_payment" });
      expect(((await c.get(`/api/tool/${tool._id}`)).json() as Tool).availableQuantity).toBe(3);
    } finally {
      await down.close();
    }
  }, 30_000);

  it.runIf(driver === "postgres")("applies an event once when two instances receive it at the same moment", async () => {
    const second = await buildApp(
      loadConfig({
        NODE_ENV: "test",
        AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
        PUBLIC_URL: "http://localhost:3999",
        DATA_DIR: "memory://",
        DATABASE_URL: t.config.databaseUrl as string,
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: stripe.url,
      }),
    );
    await prepareStore(second);
    await second.listen({ port: 0, host: "127.0.0.1" });
    try {
      const { order, session, c } = await cardOrder();
      stripe.hold();
      const event = await stripe.complete(session.id);
      const other = `http://127.0.0.1:${(second.server.address() as AddressInfo).port}/api/payments/stripe/webhook`;
      const copies = Promise.all([stripe.resend(event.id, { url: other }), stripe.resend(event.id, { url: other })]);
      await stripe.release();
      await copies;
      await stripe.idle();
      // The first delivery went to this instance, the two copies to the other: one applied in all.
      const outcomes = stripe.deliveries.filter((d) => d.eventId === event.id).map((d) => JSON.parse(d.responseBody).outcome as string);
      expect(outcomes.sort()).toEqual(["applied", "duplicate", "duplicate"]);
      const paid = await orderOf(c, order._id);
      expect(paid.status).toBe("paid");
      expect(paid.history.filter((h) => h.status === "paid")).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
