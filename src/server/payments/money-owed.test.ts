/**
 * Money that is never lost (issue 40, decision 0016), on PGlite and on Postgres, against the
 * Stripe stand-in driven through the official SDK. Each case below was a way to lose a sale or a
 * customer's money on main before the issue: the owner's cancel racing a shipment, a mismatched
 * payment that could not be refunded, a late webhook after the hold, a double-submitted
 * checkout, a retry after a 503, an event of another integration, a second payment, a refund
 * whose answer was lost, a pending or failed refund, the sweep that never asked Stripe.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkoutResultSchema, orderSchema, type Order, type Tool } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { mailOutbox, orders, paymentEvents, refunds, tools } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe";

const ADMIN = "money-owed-admin@toolyard.example";
const WEBHOOK_SECRET = "whsec_test_money_owed_0123456789";
const DELIVERY = { address: "1 Main St", phone: "+1 555 0100" };

describe.each(drivers())("money owed back on %s", (driver) => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let admin: Client;

  const db = () => t.app.store.db;
  const stock = async (id: string) => (await db().select({ q: tools.availableQuantity }).from(tools).where(eq(tools.id, id)))[0]?.q;
  const newTool = async (price = 25, availableQuantity = 10) => {
    const res = await admin.post("/api/tool", {
      name: `Owed tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity,
      minimumQuantity: 1,
      description: "For refund tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json() as Tool;
  };
  const customer = async () => {
    const c = new Client(t.app, `10.40.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    const email = uniqueEmail("owed");
    expect((await c.signUp("Owed Shopper", email)).statusCode).toBe(200);
    return Object.assign(c, { email: email.toLowerCase() });
  };
  const checkout = (c: Client, key: string) => c.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "card" }, headers: { "idempotency-key": key } });
  const sessionOf = (orderId: string) => {
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === orderId);
    if (!session) throw new Error("no session at the stand-in for the order");
    return session;
  };
  const cardOrder = async (quantity = 1) => {
    const tool = await newTool();
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity });
    const res = await checkout(c, randomUUID());
    expect(res.statusCode, res.body).toBe(201);
    const result = checkoutResultSchema.parse(res.json());
    return { ...result, session: sessionOf(result.order._id), c, tool };
  };
  const paidOrder = async (quantity = 1) => {
    const placed = await cardOrder(quantity);
    await stripe.complete(placed.session.id);
    expect((await orderOf(placed.c, placed.order._id)).status).toBe("paid");
    return placed;
  };
  const orderOf = async (c: Client, id: string): Promise<Order> => orderSchema.parse((await c.get(`/api/order/${id}`)).json());
  const refundsOf = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));
  const standInRefunds = (orderId: string) => stripe.refunds.filter((r) => r.metadata?.orderId === orderId);
  /** Makes every pending refund due now and runs one round of the refund worker. */
  const runRefunds = async () => {
    await db().update(refunds).set({ nextAttemptAt: sql`now()` }).where(eq(refunds.status, "pending"));
    await t.app.payments.refundWorker.runOnce();
  };
  /** The customer's mails about money given back for an order, oldest first. */
  const refundMails = async (orderNumber: number) =>
    (await db().select().from(mailOutbox).orderBy(asc(mailOutbox.id))).filter((m) => (m.kind === "refund-owed" || m.kind === "refund-made") && new RegExp(`#${orderNumber}\\b`).test(m.subject));
  const cancel = (id: string) => admin.post(`/api/admin/orders/${id}/status`, { status: "cancelled" });

  beforeAll(async () => {
    stripe = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      // The sweep is driven by the tests (expireHolds with a later clock), not by the timer.
      PAYMENT_HOLD_MINUTES: "30",
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    stripe.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/stripe/webhook`);
    // The tests run the refund worker's rounds themselves (runRefunds): the app's own timer, running
    // rounds beside them, would retry a refund whose backoff ran out between two of a test's looks.
    await t.app.payments.refundWorker.stop();
    admin = new Client(t.app, "10.40.0.1");
    await admin.signUp("Admin", ADMIN);
  });
  // A test that failed while it held the stand-in's events must not leave the next ones waiting.
  afterEach(async () => {
    await stripe?.release();
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it("holds a cancelled paid card order in `refunding`, so nothing ships it, and cancels it once the refund is confirmed", async () => {
    const { order, c, tool } = await paidOrder(2);
    expect(await stock(tool._id)).toBe(8);
    const asked = await cancel(order._id);
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({ status: "refunding" });
    // The refund is written with the decision.
    expect(await refundsOf(order._id)).toEqual([expect.objectContaining({ kind: "cancel", amountCents: 5000 })]);
    const ship = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "shipped" });
    expect([409, 200]).toContain(ship.statusCode);
    expect(ship.statusCode, "a refunding order never ships").toBe(409);
    await runRefunds();
    const after = await orderOf(c, order._id);
    expect(after).toMatchObject({ status: "cancelled", payment: { status: "refunded", refundError: null } });
    expect(after.history.at(-1)).toMatchObject({ status: "cancelled", by: "store", note: expect.stringMatching(/^Refunded \$50\.00 to the card/) });
    expect(standInRefunds(order._id)).toEqual([expect.objectContaining({ amount: 5000, status: "succeeded" })]);
    expect(await stock(tool._id)).toBe(10);
  });

  it("never ships a paid order whose cancel won the race, and never refunds one whose shipment won it", async () => {
    for (let round = 0; round < 3; round++) {
      const { order, c } = await paidOrder();
      const [cancelled, shipped] = await Promise.all([cancel(order._id), admin.post(`/api/admin/orders/${order._id}/status`, { status: "shipped" })]);
      expect([cancelled.statusCode, shipped.statusCode].sort()).toEqual([200, 409]);
      await runRefunds();
      const after = await orderOf(c, order._id);
      if (cancelled.statusCode === 200) {
        expect(after.status).toBe("cancelled");
        expect(standInRefunds(order._id)).toHaveLength(1);
      } else {
        expect(after.status).toBe("shipped");
        expect(standInRefunds(order._id)).toHaveLength(0);
        expect(await refundsOf(order._id)).toHaveLength(0);
      }
    }
  });

  it("gives a refused refund's order back, paid, with the reason; the next cancel uses a new key after reading the provider's refunds", async () => {
    const { order, c, tool } = await paidOrder();
    stripe.refuseRefunds("The charge was disputed");
    expect((await cancel(order._id)).json()).toMatchObject({ status: "refunding" });
    await runRefunds();
    stripe.refuseRefunds(null);
    const refused = await orderOf(c, order._id);
    expect(refused).toMatchObject({ status: "paid", paymentProblem: "REFUND_FAILED", payment: { status: "refund_failed", refundError: expect.stringContaining("disputed") } });
    expect(refused.history.at(-1)).toMatchObject({ status: "paid", by: "store", note: PAYMENT_TEXT.refundRefused("The charge was disputed") });
    expect(await stock(tool._id)).toBe(9);
    // Before giving up, the worker read the refunds the provider holds for the payment.
    const intent = stripe.sessions.get(sessionOf(order._id).id)?.payment_intent;
    expect(stripe.requests.some((r) => r.method === "GET" && r.path === "/v1/refunds" && r.params.payment_intent === intent)).toBe(true);

    expect((await cancel(order._id)).json()).toMatchObject({ status: "refunding" });
    await runRefunds();
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled", paymentProblem: null, payment: { status: "refunded" } });
    const keys = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.method === "POST" && r.params.payment_intent === intent).map((r) => r.idempotencyKey);
    expect(new Set(keys).size).toBe(2);
    expect(standInRefunds(order._id).filter((r) => r.status === "succeeded")).toHaveLength(1);
  });

  it("retries a refund whose answer was lost with the same key, so the provider refunds once", async () => {
    const { order, c } = await paidOrder();
    // Stripe refunds, then the answer never arrives.
    stripe.failRequests({ method: "POST", path: "/v1/refunds" }, "drop-after");
    // The refund's own events are held (they would settle it before the retry, or during it, as the webhook's timing goes): the retry is what is tested here.
    stripe.hold();
    await cancel(order._id);
    await runRefunds();
    const [waiting] = await refundsOf(order._id);
    expect(waiting?.tries).toBeGreaterThanOrEqual(1);
    // The console lists the refund worker's jobs, with their tries and the last error.
    const listed = await admin.get(`/api/admin/refunds`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual(expect.objectContaining({ _id: waiting?.id, orderId: order._id, kind: "cancel", amount: 25 }));
    expect((await admin.get(`/api/admin/refunds?status=bogus`)).statusCode).toBe(400);
    await runRefunds();
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    const calls = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.method === "POST" && r.params.metadata && (r.params.metadata as Record<string, string>).orderId === order._id);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls.map((r) => r.idempotencyKey)).size).toBe(1);
    // The held events, delivered now, change nothing.
    expect((await stripe.release()).every((d) => d.status === 200)).toBe(true);
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    expect(standInRefunds(order._id)).toHaveLength(1);
  });

  it("shows a refund pending at the provider as pending, and settles it by the provider's refund events", async () => {
    stripe.refundStatus("pending");
    try {
      const ok = await paidOrder();
      const failing = await paidOrder();
      await cancel(ok.order._id);
      await cancel(failing.order._id);
      await runRefunds();
      expect(await orderOf(ok.c, ok.order._id)).toMatchObject({ status: "refunding" });
      expect(await refundsOf(ok.order._id)).toEqual([expect.objectContaining({ status: "pending", providerStatus: "pending" })]);

      const [okRefund] = standInRefunds(ok.order._id);
      const [failingRefund] = standInRefunds(failing.order._id);
      await stripe.settleRefund(okRefund?.id ?? "", "succeeded");
      await stripe.settleRefund(failingRefund?.id ?? "", "failed", "expired_or_canceled_card");
      expect(await orderOf(ok.c, ok.order._id)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
      expect(await refundsOf(ok.order._id)).toEqual([expect.objectContaining({ status: "succeeded" })]);
      expect(await orderOf(failing.c, failing.order._id)).toMatchObject({ status: "paid", paymentProblem: "REFUND_FAILED", payment: { refundError: "expired_or_canceled_card" } });
      expect(await refundsOf(failing.order._id)).toEqual([expect.objectContaining({ status: "failed", lastError: "expired_or_canceled_card" })]);
    } finally {
      stripe.refundStatus("succeeded");
    }
  });

  it("refunds what a mismatched payment captured when the owner cancels its order", async () => {
    const { order, session, c, tool } = await cardOrder(2);
    await stripe.complete(session.id, { amountTotal: 1234 });
    expect(await orderOf(c, order._id)).toMatchObject({ status: "awaiting_payment", paymentProblem: "AMOUNT_MISMATCH" });
    const res = await cancel(order._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: "cancelled" });
    expect(await stock(tool._id)).toBe(10);
    await runRefunds();
    expect(standInRefunds(order._id)).toEqual([expect.objectContaining({ amount: 1234, status: "succeeded" })]);
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled", payment: { status: "refunded" } });
    // Its customer paid something: they hear of the cancel (never of the placing, which a card order's payment announces: issue 40).
    const mail = (await db().select().from(mailOutbox)).filter((m) => new RegExp(`#${order.number}\\b`).test(m.subject)).map((m) => m.kind);
    expect(mail).toEqual(["order-cancelled"]);
  });

  it("asks the provider before the hold cancels: a page paid there is applied as paid, and the late event changes nothing", async () => {
    const { order, session, c } = await cardOrder();
    stripe.hold();
    await stripe.complete(session.id);
    const later = new Date(Date.now() + 31 * 60_000);
    expect(await t.app.payments.expireHolds(later)).toBe(0);
    const paid = await orderOf(c, order._id);
    expect(paid).toMatchObject({ status: "paid", paymentProblem: null, payment: { status: "paid" } });
    const [delivery] = await stripe.release();
    expect(delivery?.status).toBe(200);
    await runRefunds();
    expect(await orderOf(c, order._id)).toMatchObject({ status: "paid", paymentProblem: null });
    expect(standInRefunds(order._id)).toHaveLength(0);
    expect(await refundsOf(order._id)).toHaveLength(0);
  });

  it("closes an unpaid page before the hold cancels its order, and goes on past an order the provider cannot answer for", async () => {
    const stuck = await cardOrder();
    const open = await cardOrder();
    const undo = stripe.failRequests({ method: "GET", path: `/v1/checkout/sessions/${stuck.session.id}` }, "error-before", 10);
    try {
      const later = new Date(Date.now() + 31 * 60_000);
      await t.app.payments.expireHolds(later);
      // Closing the page sends its expiry event; whichever of it and the sweep comes first cancels the order.
      await stripe.idle();
      expect(await orderOf(open.c, open.order._id)).toMatchObject({ status: "cancelled" });
      expect(stripe.sessions.get(open.session.id)?.status).toBe("expired");
      expect(await orderOf(stuck.c, stuck.order._id)).toMatchObject({ status: "awaiting_payment" });
    } finally {
      undo();
    }
  });

  it("answers a double-submitted card checkout with one order and one payment page, whatever the timing", async () => {
    const tool = await newTool();
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const key = randomUUID();
    const [first, second] = await Promise.all([checkout(c, key), checkout(c, key)]);
    expect([first.statusCode, second.statusCode], `${first.body}\n${second.body}`).toEqual([201, 201]);
    const a = checkoutResultSchema.parse(first.json());
    const b = checkoutResultSchema.parse(second.json());
    expect(b.order._id).toBe(a.order._id);
    expect(b.payment?.url).toBe(a.payment?.url);
    const third = checkoutResultSchema.parse((await checkout(c, key)).json());
    expect(third.payment?.url).toBe(a.payment?.url);
    expect([...stripe.sessions.values()].filter((s) => s.client_reference_id === a.order._id)).toHaveLength(1);
    expect(stripe.requests.filter((r) => r.status === 400 && r.idempotencyKey === `checkout-${a.order._id}`)).toEqual([]);
    expect((await orderOf(c, a.order._id)).status).toBe("awaiting_payment");
  });

  it("keeps the order when the provider's answer is unknown, and a retry with the same key returns it with the page made meanwhile", async () => {
    const tool = await newTool();
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const key = randomUUID();
    // Stripe makes the session, and every answer (the SDK's own retries too) is a 500.
    stripe.failRequests({ method: "POST", path: "/v1/checkout/sessions" }, "error-after", 3);
    const first = await checkout(c, key);
    expect(first.statusCode, JSON.stringify(stripe.requests.slice(-4).map((r) => [r.method, r.path, r.status, r.replayed]))).toBe(503);
    expect(first.json()).toMatchObject({ error: "PAYMENT_UNAVAILABLE" });
    const [kept] = (await c.get("/api/order")).json() as Order[];
    expect(kept).toMatchObject({ status: "awaiting_payment" });
    const retry = await checkout(c, key);
    expect(retry.statusCode, retry.body).toBe(201);
    const result = checkoutResultSchema.parse(retry.json());
    expect(result.order._id).toBe(kept?._id);
    expect(result.order.status).toBe("awaiting_payment");
    expect([...stripe.sessions.values()].filter((s) => s.client_reference_id === kept?._id)).toHaveLength(1);
    expect(result.payment?.url).toBe(sessionOf(kept?._id ?? "").url);
  });

  it("never answers 201 with a cancelled order after a refused payment: the retry with the same key places the cart again", async () => {
    const tool = await newTool();
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
    const key = randomUUID();
    stripe.failRequests({ method: "POST", path: "/v1/checkout/sessions" }, "refuse-before", 1);
    const first = await checkout(c, key);
    expect(first.statusCode).toBe(503);
    expect(first.json()).toMatchObject({ error: "PAYMENT_UNAVAILABLE", message: PAYMENT_TEXT.providerUnavailable });
    expect(await stock(tool._id)).toBe(10);
    expect((await c.get("/api/cart")).json().lines).toEqual([expect.objectContaining({ toolId: tool._id, quantity: 2 })]);
    const retry = await checkout(c, key);
    expect(retry.statusCode, retry.body).toBe(201);
    const result = checkoutResultSchema.parse(retry.json());
    expect(result.order.status).toBe("awaiting_payment");
    expect(result.payment?.url).toBeTruthy();
  });

  it("answers 200 to a signed event it cannot match, and applies nothing", async () => {
    const { order, session, c } = await cardOrder();
    const foreign = stripe.makeEvent("checkout.session.completed", {
      ...session,
      id: `cs_test_${randomUUID().replace(/-/g, "")}`,
      client_reference_id: "order-of-another-integration",
      metadata: { orderId: "order-of-another-integration" },
      status: "complete",
      payment_status: "paid",
    });
    const delivery = await stripe.deliver(foreign);
    expect(delivery.status).toBe(200);
    expect(JSON.parse(delivery.responseBody)).toEqual({ received: true, outcome: "ignored" });
    const other = await stripe.deliver(stripe.makeEvent("customer.created", { id: "cus_123", object: "customer" }));
    expect(other.status).toBe(200);
    expect(await db().select().from(paymentEvents).where(eq(paymentEvents.id, foreign.id))).toEqual([expect.objectContaining({ orderId: null })]);
    expect((await orderOf(c, order._id)).status).toBe("awaiting_payment");
  });

  it("refunds a second successful payment of a paid order and never flags the order for it", async () => {
    const { order, session, c } = await paidOrder();
    await stripe.complete(session.id, { force: true, amountTotal: 4321 });
    const after = await orderOf(c, order._id);
    expect(after.status).toBe("paid");
    expect(after.paymentProblem).not.toBe("AMOUNT_MISMATCH");
    expect(after.paymentProblem).toBe("DUPLICATE_PAYMENT_REFUNDED");
    await runRefunds();
    expect(standInRefunds(order._id)).toEqual([expect.objectContaining({ amount: 4321, status: "succeeded" })]);
    expect((await orderOf(c, order._id)).history.at(-1)?.note).toBe(PAYMENT_TEXT.duplicateRefunded("$43.21"));
    // The first payment's events again change nothing.
    const [first] = stripe.events.filter((e) => e.type === "checkout.session.completed" && (e.data.object as { id?: string }).id === session.id);
    await stripe.resend(first?.id ?? "");
    expect((await orderOf(c, order._id)).status).toBe("paid");
  });

  it("writes a late payment's refund with the decision, and sends it once", async () => {
    const { order, session, c } = await cardOrder(3);
    await stripe.expire(session.id);
    expect((await orderOf(c, order._id)).status).toBe("cancelled");
    stripe.failRequests({ method: "POST", path: "/v1/refunds" }, "error-after", 1);
    await stripe.complete(session.id, { force: true });
    expect(await refundsOf(order._id)).toEqual([expect.objectContaining({ kind: "late_payment", amountCents: 7500 })]);
    // The refund's events are held: one in flight during the second round would settle the refund
    // itself, its row locked, so the round skips it and what the test reads depends on the webhook's timing.
    stripe.hold();
    try {
      await runRefunds();
      await runRefunds();
      const late = await orderOf(c, order._id);
      expect(late).toMatchObject({ status: "cancelled", paymentProblem: "LATE_PAYMENT_REFUNDED", payment: { status: "refunded" } });
    } finally {
      await stripe.release();
    }
    expect((await orderOf(c, order._id)).payment).toMatchObject({ status: "refunded" });
    expect(standInRefunds(order._id)).toHaveLength(1);
    const [row] = await db().select().from(orders).where(and(eq(orders.id, order._id)));
    expect(row?.status).toBe("cancelled");
  });

  it("mails the customer of a late payment that it is being refunded, with the decision, and again once the refund is confirmed", async () => {
    const { order, session, c } = await cardOrder(2);
    await stripe.expire(session.id);
    stripe.refundStatus("pending");
    try {
      await stripe.complete(session.id, { force: true });
      // Written with the decision: the refund is owed, not sent yet.
      const owed = await refundMails(order.number);
      expect(owed).toEqual([expect.objectContaining({ kind: "refund-owed", to: c.email, subject: REFUND_TEXT.mail.owedSubject(order.number), attachments: null })]);
      expect(owed[0]?.text).toContain(REFUND_TEXT.mail.latePayment(order.number, "$50.00"));
      expect(owed[0]?.text).toContain(REFUND_TEXT.mail.owedCard);
      // Pending at the provider: nothing more yet.
      await runRefunds();
      await stripe.idle();
      expect((await refundMails(order.number)).map((m) => m.kind)).toEqual(["refund-owed"]);
      const [atStripe] = standInRefunds(order._id);
      await stripe.settleRefund(atStripe?.id ?? "", "succeeded");
      await stripe.idle();
    } finally {
      stripe.refundStatus("succeeded");
    }
    const mails = await refundMails(order.number);
    expect(mails.map((m) => m.kind)).toEqual(["refund-owed", "refund-made"]);
    // The line refunds' mail, without a credit note: the order had no invoice to credit.
    expect(mails[1]).toMatchObject({ to: c.email, subject: REFUND_TEXT.mail.subject(order.number), attachments: null });
    expect(mails[1]?.text).toContain(REFUND_TEXT.mail.intro(order.number, "$50.00"));
    expect(mails[1]?.text).toContain(REFUND_TEXT.mail.lateConfirmed);
    expect(mails[1]?.text).not.toMatch(/credit note/i);
    expect(await orderOf(c, order._id)).toMatchObject({ status: "cancelled", paymentProblem: "LATE_PAYMENT_REFUNDED", payment: { status: "refunded" } });
  });

  it("mails the customer of a second payment that it is being refunded, then that it was; a refused refund sends no second mail", async () => {
    const { order, session, c } = await paidOrder();
    await stripe.complete(session.id, { force: true, amountTotal: 4321 });
    const owed = await refundMails(order.number);
    expect(owed).toEqual([expect.objectContaining({ kind: "refund-owed", to: c.email, subject: REFUND_TEXT.mail.owedSubject(order.number) })]);
    expect(owed[0]?.text).toContain(REFUND_TEXT.mail.duplicatePayment(order.number, "$43.21"));
    await runRefunds();
    await stripe.idle();
    const mails = await refundMails(order.number);
    expect(mails.map((m) => m.kind)).toEqual(["refund-owed", "refund-made"]);
    expect(mails[1]).toMatchObject({ to: c.email, attachments: null });
    expect(mails[1]?.text).toContain(REFUND_TEXT.mail.intro(order.number, "$43.21"));
    expect(mails[1]?.text).toContain(REFUND_TEXT.mail.duplicateConfirmed);

    // Refused by the provider: the owner sees it on the order; the customer was told it is being refunded, and nothing more.
    const other = await paidOrder();
    stripe.refuseRefunds("The charge was disputed");
    try {
      await stripe.complete(other.session.id, { force: true, amountTotal: 999 });
      await runRefunds();
      await stripe.idle();
    } finally {
      stripe.refuseRefunds(null);
    }
    expect(await orderOf(other.c, other.order._id)).toMatchObject({ status: "paid", paymentProblem: "DUPLICATE_PAYMENT_REFUND_FAILED" });
    expect((await refundMails(other.order.number)).map((m) => m.kind)).toEqual(["refund-owed"]);
  });

  it("numbers a card order's invoice when it is paid: an abandoned card checkout uses no invoice and no credit note", async () => {
    const paid = await cardOrder();
    expect(paid.order.invoiceNumber).toBeNull();
    await stripe.complete(paid.session.id);
    const numbered = await orderOf(paid.c, paid.order._id);
    expect(numbered.invoiceNumber).toMatch(/^INV-\d{4}-\d{6}$/);
    expect((await paid.c.request({ method: "GET", url: `/api/order/${paid.order._id}/invoice` })).statusCode).toBe(200);

    const abandoned = await cardOrder();
    await stripe.expire(abandoned.session.id);
    expect(await orderOf(abandoned.c, abandoned.order._id)).toMatchObject({ status: "cancelled", invoiceNumber: null, creditNoteNumber: null });
  });
  it("refunds a payment once whatever events of it arrive: a second event of a second payment, or of a late one after another, queues nothing more (issue 49)", async () => {
    // A second payment of a paid order, told twice (its session completed, then its async success).
    const { order, session, c } = await paidOrder();
    await stripe.complete(session.id, { force: true, amountTotal: 4321 });
    expect(await refundsOf(order._id)).toEqual([expect.objectContaining({ kind: "duplicate_payment", amountCents: 4321 })]);
    const again = await stripe.deliver(stripe.makeEvent("checkout.session.async_payment_succeeded", { ...stripe.sessions.get(session.id) }));
    expect(again.status).toBe(200);
    expect(await refundsOf(order._id)).toHaveLength(1);
    await runRefunds();
    await stripe.idle();
    // Told again once it is refunded: still one.
    await stripe.deliver(stripe.makeEvent("checkout.session.async_payment_succeeded", { ...stripe.sessions.get(session.id) }));
    await runRefunds();
    expect(await refundsOf(order._id)).toHaveLength(1);
    expect(standInRefunds(order._id).filter((r) => r.status === "succeeded").map((r) => r.amount)).toEqual([4321]);
    expect((await refundMails(order.number)).map((m) => m.kind)).toEqual(["refund-owed", "refund-made"]);
    expect((await orderOf(c, order._id)).status).toBe("paid");

    // Two late payments of a cancelled order, then the first told again: each refunded once.
    const late = await cardOrder();
    await stripe.expire(late.session.id);
    await stripe.complete(late.session.id, { force: true });
    const first = { ...stripe.sessions.get(late.session.id) };
    await stripe.complete(late.session.id, { force: true, amountTotal: 1234 });
    expect((await refundsOf(late.order._id)).map((r) => r.amountCents).sort()).toEqual([1234, 2500]);
    await stripe.deliver(stripe.makeEvent("checkout.session.async_payment_succeeded", first));
    expect((await refundsOf(late.order._id)).map((r) => r.amountCents).sort()).toEqual([1234, 2500]);
    await runRefunds();
    await stripe.idle();
    expect(standInRefunds(late.order._id).map((r) => r.amount).sort()).toEqual([1234, 2500]);
  });
});
