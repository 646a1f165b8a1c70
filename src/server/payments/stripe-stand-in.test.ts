/**
 * The Stripe stand-in (tests/support/stripe.ts) against the official `stripe` SDK, configured as
 * the store configures it: every call the store makes goes through the SDK over HTTP, and every
 * webhook is checked with `stripe.webhooks.constructEvent` on the raw body, so a stand-in that
 * drifted from what the SDK sends or expects fails here rather than in the store's tests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseStripeForm, startStripeStandIn, stripeStandInControls, type StripeStandIn } from "../../../tests/support/stripe";

const WEBHOOK_SECRET = "whsec_test_standin_0123456789abcdef";

interface Received {
  event: Stripe.Event;
  raw: string;
}

/** A tiny webhook endpoint: verifies each delivery as the store must, answering 400 when it does not verify. */
async function startReceiver(stripe: Stripe) {
  const received: Received[] = [];
  const rejected: string[] = [];
  const state = { status: 200 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      try {
        const event = stripe.webhooks.constructEvent(raw, req.headers["stripe-signature"] ?? "", WEBHOOK_SECRET);
        received.push({ event, raw: raw.toString("utf8") });
        res.writeHead(state.status, { "content-type": "application/json" }).end('{"received":true}');
      } catch (error) {
        rejected.push(error instanceof Error ? error.message : String(error));
        res.writeHead(400).end("bad signature");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payments/stripe/webhook`,
    received,
    rejected,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const sessionParams = (orderId: string, unitAmount = 2500): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: unitAmount, product_data: { name: `Order ${orderId}` } } }],
  success_url: `http://127.0.0.1:1/order/${orderId}?paid={CHECKOUT_SESSION_ID}`,
  cancel_url: `http://127.0.0.1:1/order/${orderId}?cancelled=1`,
  client_reference_id: orderId,
  metadata: { orderId },
  payment_intent_data: { metadata: { orderId } },
  expires_at: Math.floor(Date.now() / 1000) + 30 * 60,
});

/** The form the pay page posts, as a browser would. */
const press = (sp: StripeStandIn, sessionId: string, action: "approve" | "decline" | "abandon") =>
  fetch(sp.payUrl(sessionId), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `action=${action}` });

describe("Stripe stand-in with the official SDK", () => {
  let sp: StripeStandIn;
  let stripe: Stripe;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    sp = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    const api = new URL(sp.url);
    // As the store makes it from STRIPE_API_URL.
    stripe = new Stripe(sp.secretKey, { host: api.hostname, port: Number(api.port), protocol: api.protocol === "http:" ? "http" : "https" });
    receiver = await startReceiver(stripe);
    // The store's port is known only after it starts.
    sp.setWebhookUrl(receiver.url);
  });
  afterAll(async () => {
    await sp.close();
    await receiver.close();
  });
  beforeEach(() => {
    receiver.state.status = 200;
  });

  const receivedFor = (sessionId: string) => receiver.received.filter((r) => (r.event.data.object as { id?: string }).id === sessionId);

  it("creates, retrieves and expires a Checkout Session, and the expiry comes as a signed event", async () => {
    const orderId = `ord-${Date.now()}`;
    // One set of parameters for both calls: expires_at is read from the clock, and a second that
    // ticks between two calls makes them differ (Stripe then answers idempotency_error).
    const params = sessionParams(orderId);
    const session = await stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${orderId}` });
    expect(session).toMatchObject({
      object: "checkout.session",
      amount_total: 2500,
      currency: "usd",
      status: "open",
      payment_status: "unpaid",
      client_reference_id: orderId,
      metadata: { orderId },
      payment_intent: null,
      url: sp.payUrl(session.id),
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.lastResponse.idempotencyKey).toBe(`checkout-${orderId}`);

    // The same key and parameters: the same session, not a second one.
    const again = await stripe.checkout.sessions.create(params, { idempotencyKey: `checkout-${orderId}` });
    expect(again.id).toBe(session.id);
    expect(sp.requests.at(-1)?.replayed).toBe(true);

    const retrieved = await stripe.checkout.sessions.retrieve(session.id);
    expect(retrieved).toEqual(expect.objectContaining({ id: session.id, status: "open", expires_at: session.expires_at }));

    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, status: "expired", url: null });
    await sp.idle();
    const events = receivedFor(session.id);
    expect(events.map((r) => r.event.type)).toEqual(["checkout.session.expired"]);
    expect(events[0]?.event.data.object).toMatchObject({ id: session.id, status: "expired", metadata: { orderId } });

    // Stripe's answer for a session that is no longer open, and for one that does not exist.
    const twice = await stripe.checkout.sessions.expire(session.id).catch((e: unknown) => e);
    expect(twice).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((twice as Stripe.errors.StripeError).message).toMatch(/Only Checkout Sessions with a status in \["open"\] can be expired/);
    const none = await stripe.checkout.sessions.retrieve("cs_test_nope").catch((e: unknown) => e);
    expect(none).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 404, code: "resource_missing", message: "No such checkout.session: 'cs_test_nope'" });
  });

  it("answers a wrong API key with 401, and refuses what Stripe refuses", async () => {
    const api = new URL(sp.url);
    const wrong = new Stripe("sk_test_wrong_key_000000", { host: api.hostname, port: Number(api.port), protocol: "http" });
    const denied = await wrong.checkout.sessions.retrieve("cs_test_x").catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((denied as Stripe.errors.StripeError).statusCode).toBe(401);
    expect((denied as Stripe.errors.StripeError).message).toMatch(/^Invalid API Key provided: sk_test_/);

    const soon = await stripe.checkout.sessions.create({ ...sessionParams("ord-soon"), expires_at: Math.floor(Date.now() / 1000) + 60 }).catch((e: unknown) => e);
    expect(soon).toMatchObject({ type: "StripeInvalidRequestError", statusCode: 400, param: "expires_at" });

    const typo = { ...sessionParams("ord-typo"), client_reference: "x" } as Stripe.Checkout.SessionCreateParams;
    const unknown = await stripe.checkout.sessions.create(typo).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "client_reference" });

    const tiny = await stripe.checkout.sessions.create(sessionParams("ord-tiny", 10)).catch((e: unknown) => e);
    expect(tiny).toMatchObject({ statusCode: 400, param: "line_items" });
  });

  it("pay page: shows the amount and three buttons; Decline and Abandon change nothing; Approve pays, tells the store, then returns to success_url", async () => {
    const orderId = `ord-page-${Date.now()}`;
    const session = await stripe.checkout.sessions.create(sessionParams(orderId, 12_345));

    const html = await (await fetch(session.url ?? "")).text();
    expect(html).toContain("$123.45");
    for (const label of ["Approve", "Decline", "Abandon"]) expect(html).toMatch(new RegExp(`<button type="submit" name="action" value="${label.toLowerCase()}">${label}</button>`));
    expect(html).not.toContain("<script");

    const declined = await press(sp, session.id, "decline");
    expect(declined.status).toBe(200);
    expect(await declined.text()).toContain('<p role="alert">Your card was declined.</p>');

    const abandoned = await press(sp, session.id, "abandon");
    expect(abandoned.status).toBe(303);
    expect(abandoned.headers.get("location")).toBe(`http://127.0.0.1:1/order/${orderId}?cancelled=1`);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    expect(sp.events.filter((e) => (e.data.object as { id?: string }).id === session.id)).toEqual([]);

    const approved = await press(sp, session.id, "approve");
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toBe(`http://127.0.0.1:1/order/${orderId}?paid=${session.id}`);
    // Delivered (and verified) before the customer is sent back.
    const events = receivedFor(session.id);
    expect(events.map((r) => r.event.type)).toEqual(["checkout.session.completed"]);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid", amount_total: 12_345, url: null });
    expect(paid.payment_intent).toMatch(/^pi_/);
    expect(events[0]?.event.data.object).toMatchObject({ id: session.id, payment_intent: paid.payment_intent, metadata: { orderId }, client_reference_id: orderId });
    expect(events[0]?.event).toMatchObject({ object: "event", livemode: false, api_version: Stripe.API_VERSION });
    // Pretty-printed as Stripe sends it: a store that verifies a re-serialized body fails.
    expect(events[0]?.raw).toContain('\n  "id": "evt_');

    expect(await (await fetch(sp.payUrl(session.id))).text()).toContain("This payment is complete.");
    expect((await press(sp, session.id, "approve")).status).toBe(200);
    expect(receivedFor(session.id)).toHaveLength(1);
  });

  it("resend delivers the same event again (a duplicate); complete() with another amount makes a mismatching event", async () => {
    const one = await stripe.checkout.sessions.create(sessionParams(`ord-dup-${Date.now()}`));
    const event = await sp.complete(one.id);
    const duplicate = await sp.resend(event.id);
    expect(duplicate.status).toBe(200);
    const got = receivedFor(one.id);
    expect(got.map((r) => r.event.id)).toEqual([event.id, event.id]);
    expect(got[0]?.raw).toBe(got[1]?.raw);
    expect(sp.deliveries.filter((d) => d.eventId === event.id).map((d) => d.status)).toEqual([200, 200]);

    const two = await stripe.checkout.sessions.create(sessionParams(`ord-mismatch-${Date.now()}`, 5000));
    const mismatch = await sp.complete(two.id, { amountTotal: 100, currency: "eur" });
    expect(receivedFor(two.id)[0]?.event.data.object).toMatchObject({ amount_total: 100, currency: "eur", payment_status: "paid" });
    expect(mismatch.type).toBe("checkout.session.completed");
  });

  it("hold and release deliver in the chosen order; a delayed event comes late; non-2xx answers are recorded", async () => {
    const a = await stripe.checkout.sessions.create(sessionParams(`ord-a-${Date.now()}`));
    const b = await stripe.checkout.sessions.create(sessionParams(`ord-b-${Date.now()}`));
    sp.hold();
    const completed = await sp.complete(a.id);
    const expired = await sp.expire(b.id);
    expect(sp.held.map((e) => e.id)).toEqual([completed.id, expired.id]);
    expect(receivedFor(a.id)).toEqual([]);
    const released = await sp.release([expired.id]);
    expect(released.map((d) => d.eventId)).toEqual([expired.id, completed.id]);
    const order = receiver.received.map((r) => r.event.id);
    expect(order.indexOf(expired.id)).toBeLessThan(order.indexOf(completed.id));

    const late = sp.resend(completed.id, { delayMs: 150 });
    await new Promise((r) => setTimeout(r, 50));
    expect(receivedFor(a.id)).toHaveLength(1);
    expect((await late).status).toBe(200);
    expect(receivedFor(a.id)).toHaveLength(2);

    receiver.state.status = 500;
    expect((await sp.resend(completed.id)).status).toBe(500);
  });

  it("signs as Stripe does: an old timestamp or another secret does not verify", async () => {
    const event = sp.makeEvent("checkout.session.completed", { id: "cs_test_forged", object: "checkout.session" });
    const stale = await sp.deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(400);
    expect(receiver.rejected.at(-1)).toMatch(/Timestamp outside the tolerance zone/);
    const forged = await sp.deliver(event, { secret: "whsec_someone_else" });
    expect(forged.status).toBe(400);
    expect(receiver.rejected.at(-1)).toMatch(/No signatures found matching the expected signature/);
    expect(sp.sign("{}", { timestamp: 1700000000 })).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    const ok = await sp.deliver(event);
    expect(ok.status).toBe(200);
  });

  it("refunds: an Idempotency-Key replays the refund, another body with it is an idempotency error, and a refund past the payment is refused", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(`ord-refund-${Date.now()}`, 4000));
    await sp.complete(session.id);
    const paymentIntent = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;

    const partial = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 1000, metadata: { orderId: "o1" } }, { idempotencyKey: `refund-${session.id}-1` });
    expect(partial).toMatchObject({ object: "refund", status: "succeeded", amount: 1000, currency: "usd", payment_intent: paymentIntent, metadata: { orderId: "o1" } });
    expect(partial.id).toMatch(/^re_/);

    const replay = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 1000, metadata: { orderId: "o1" } }, { idempotencyKey: `refund-${session.id}-1` });
    expect(replay.id).toBe(partial.id);
    expect(sp.refunds.filter((r) => r.payment_intent === paymentIntent)).toHaveLength(1);

    const clash = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 500 }, { idempotencyKey: `refund-${session.id}-1` }).catch((e: unknown) => e);
    expect(clash).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(clash).toMatchObject({ statusCode: 400, type: "StripeIdempotencyError" });
    expect((clash as Stripe.errors.StripeError).message).toMatch(/Keys for idempotent requests can only be used with the same parameters/);

    const rest = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `refund-${session.id}-2` });
    expect(rest.amount).toBe(3000);
    const more = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 1 }).catch((e: unknown) => e);
    expect(more).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });

    await sp.idle();
    expect(receiver.received.filter((r) => r.event.type === "refund.created").map((r) => (r.event.data.object as Stripe.Refund).id)).toEqual(expect.arrayContaining([partial.id, rest.id]));

    const missing = await stripe.refunds.create({ payment_intent: "pi_nope" }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ statusCode: 400, code: "resource_missing", param: "payment_intent" });
  });

  it("refuseRefunds makes refunds fail as Stripe answers them; the refusal is kept under its Idempotency-Key", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams(`ord-refuse-${Date.now()}`));
    await sp.complete(session.id);
    const paymentIntent = (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;

    sp.refuseRefunds("This charge is disputed and cannot be refunded.", "charge_disputed");
    const refused = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `refuse-${session.id}` }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ statusCode: 400, code: "charge_disputed", message: "This charge is disputed and cannot be refunded." });

    sp.refuseRefunds(null);
    const sameKey = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `refuse-${session.id}` }).catch((e: unknown) => e);
    expect(sameKey).toMatchObject({ statusCode: 400, code: "charge_disputed" });
    const newKey = await stripe.refunds.create({ payment_intent: paymentIntent }, { idempotencyKey: `refuse-${session.id}-again` });
    expect(newKey.status).toBe("succeeded");
  });

  it("the same controls work over HTTP, for Playwright workers in other processes", async () => {
    const remote = stripeStandInControls(sp.url);
    const one = await stripe.checkout.sessions.create(sessionParams(`ord-remote-${Date.now()}`));
    const two = await stripe.checkout.sessions.create(sessionParams(`ord-remote2-${Date.now()}`));
    await remote.hold();
    const paid = await remote.complete(one.id, { amountTotal: 99 });
    const gone = await remote.expire(two.id);
    expect((await remote.state()).held).toEqual([paid.id, gone.id]);
    expect((await remote.release([gone.id])).map((d) => [d.eventId, d.status])).toEqual([
      [gone.id, 200],
      [paid.id, 200],
    ]);
    expect(receivedFor(one.id)[0]?.event.data.object).toMatchObject({ amount_total: 99 });
    expect((await remote.resend(paid.id)).status).toBe(200);
    const state = await remote.state();
    expect(state.sessions.find((x) => x.id === one.id)).toMatchObject({ status: "complete" });
    expect(state.deliveries.filter((d) => d.eventId === paid.id)).toHaveLength(2);
    await expect(remote.expire(one.id)).rejects.toThrow(/is complete, not open/);
  });

  it("close() ends deliveries still waiting", async () => {
    const other = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET, webhookUrl: receiver.url });
    const event = other.makeEvent("checkout.session.completed", { id: "cs_test_never" });
    const waiting = other.deliver(event, { delayMs: 10_000 });
    other.hold();
    const held = other.deliver(event);
    await other.close();
    expect(await waiting).toMatchObject({ status: null, error: "stand-in closed" });
    expect(await held).toMatchObject({ status: null, error: "stand-in closed" });
    expect(receiver.received.some((r) => r.event.id === event.id)).toBe(false);
  });
});

describe("parseStripeForm", () => {
  it("reads the SDK's bracket notation into objects and arrays", () => {
    const body = "mode=payment&line_items[0][quantity]=1&line_items[0][price_data][unit_amount]=2500&line_items[1][quantity]=2&metadata[orderId]=o%20%26%201&expand[0]=x";
    expect(parseStripeForm(body)).toEqual({
      mode: "payment",
      line_items: [{ quantity: "1", price_data: { unit_amount: "2500" } }, { quantity: "2" }],
      metadata: { orderId: "o & 1" },
      expand: ["x"],
    });
    expect(() => parseStripeForm("a[__proto__][x]=1")).toThrow(/Invalid parameter name/);
  });
});
