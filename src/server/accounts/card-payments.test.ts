/**
 * A member pays open invoices of their trade account by card, several at once (issue 43), over
 * the raw API against the stand-in Stripe, on PGlite and on Postgres: one page for their open
 * balance, the same page for a retried key, the payment applied by the webhook once however
 * often it comes, a cheque recorded meanwhile leaving the difference on the account, an invoice
 * of another account refused, an expired page changing nothing.
 */
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderSchema } from "../../contract/schemas";
import { invoicePaymentSchema, openInvoiceSchema, statementSchema, type TradeAccount } from "../../contract/trade";
import { accountPayments, taxRates } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startStripeStandIn, type StripeStandIn } from "../../../tests/support/stripe";

const ADMIN = "invoice-card-admin@toolyard.example";
const WEBHOOK_SECRET = "whsec_test_invoice_card_0123456789";

describe.each(drivers())("paying trade invoices by card on %s", (driver) => {
  let stripe: StripeStandIn;
  let t: TestApp;
  let admin: Client;
  let ip = 0;

  const newCustomer = async () => {
    ip += 1;
    const client = new Client(t.app, `10.45.${Math.floor(ip / 250)}.${ip % 250}`);
    const email = uniqueEmail("invoice-card");
    expect((await client.signUp("Invoice payer", email)).statusCode).toBe(200);
    return { client, email };
  };
  /** An account on terms with a buyer, an admin and `count` invoices of $108 a unit ($100 and New York's 8 %). */
  const accountWithInvoices = async (count: number, quantity = 1) => {
    const created = await admin.post("/api/admin/accounts", { name: `Card payer ${randomUUID().slice(0, 6)}`, terms: "net30", creditLimit: 10_000 });
    expect(created.statusCode, created.body).toBe(201);
    const { _id: id } = created.json() as TradeAccount;
    const join = async (role: string) => {
      const c = await newCustomer();
      expect((await admin.post(`/api/admin/accounts/${id}/members`, { email: c.email, role })).statusCode).toBe(201);
      return c;
    };
    const buyer = await join("buyer");
    const tool = await admin.post("/api/admin/tools", {
      name: `Invoice card tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 100,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For paying invoices.",
      category: "hand-tools",
    });
    expect(tool.statusCode).toBe(201);
    const invoices: string[] = [];
    const orderIds: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await buyer.client.post("/api/order", { toolId: tool.json()._id, quantity, paymentMethod: "terms" });
      expect(res.statusCode, res.body).toBe(201);
      const order = orderSchema.parse(res.json());
      invoices.push(order.invoiceNumber as string);
      orderIds.push(order._id);
    }
    return { id, buyer, invoices, orderIds, toolId: tool.json()._id as string, join };
  };
  const pay = (client: Client, invoiceNumbers: unknown, key = randomUUID()) =>
    client.request({ method: "POST", url: "/api/account/invoices/pay", payload: { invoiceNumbers }, headers: { "idempotency-key": key } });
  const sessionOf = (paymentId: string) => {
    const session = [...stripe.sessions.values()].find((s) => s.metadata?.invoicePaymentId === paymentId);
    if (!session) throw new Error("no session at the stand-in for the invoice payment");
    return session;
  };
  const creditUsed = async (id: string) => (await admin.get(`/api/admin/accounts/${id}`)).json().creditUsed as number;

  beforeAll(async () => {
    stripe = await startStripeStandIn({ webhookSecret: WEBHOOK_SECRET });
    t = await startTestApp(driver, {
      ADMIN_EMAILS: ADMIN,
      AUTH_RATE_LIMIT_ADDRESS_MAX: "1000",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    stripe.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/payments/stripe/webhook`);
    admin = new Client(t.app, "10.45.250.1");
    await admin.signUp("Admin", ADMIN);
    await t.app.store.db.insert(taxRates).values({ country: "US", region: "NY", name: "New York", rateBasisPoints: 800 });
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  it("a member pays two invoices at once: one page for their open balance, applied by the webhook once, the credit freed", async () => {
    const { id, buyer, invoices } = await accountWithInvoices(3);
    const open = (await buyer.client.get("/api/account/invoices")).json().map((o: unknown) => openInvoiceSchema.parse(o));
    expect(open.map((o: { invoiceNumber: string; open: number }) => [o.invoiceNumber, o.open])).toEqual(invoices.map((n) => [n, 108]));
    expect(await creditUsed(id)).toBe(324);

    const key = randomUUID();
    const res = await pay(buyer.client, [invoices[0], invoices[2]], key);
    expect(res.statusCode, res.body).toBe(201);
    const payment = invoicePaymentSchema.parse(res.json());
    expect(payment).toMatchObject({ invoiceNumbers: [invoices[0], invoices[2]], amount: 216, status: "open" });
    const session = sessionOf(payment._id);
    expect(session).toMatchObject({ amount_total: 21_600, currency: "usd", url: payment.payment?.url });
    // A retry with the same key: the same payment and page, nothing opened twice.
    const again = await pay(buyer.client, [invoices[0], invoices[2]], key);
    expect(invoicePaymentSchema.parse(again.json())).toEqual(payment);
    expect([...stripe.sessions.values()].filter((s) => s.metadata?.invoicePaymentId === payment._id)).toHaveLength(1);

    const event = await stripe.complete(session.id);
    expect(JSON.parse((await stripe.resend(event.id)).responseBody)).toEqual({ received: true, outcome: "duplicate" });
    expect(await creditUsed(id)).toBe(108);
    const left = (await buyer.client.get("/api/account/invoices")).json() as { invoiceNumber: string }[];
    expect(left.map((o) => o.invoiceNumber)).toEqual([invoices[1]]);
    const statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
    expect(statement.lines.filter((l) => l.type === "payment").map((l) => l.amount)).toEqual([-216]);
    expect(statement.balance).toBe(108);
    // The key, used again after the payment: the payment as it is now, with no page to pay on.
    expect(invoicePaymentSchema.parse((await pay(buyer.client, [invoices[2], invoices[0]], key)).json())).toMatchObject({ _id: payment._id, status: "paid", payment: null });
  });

  it("the same Idempotency-Key with other invoices is 409 IDEMPOTENCY_KEY_REUSED, nothing opened; the same invoices in another order are the same payment (issue 40)", async () => {
    const { buyer, invoices } = await accountWithInvoices(3);
    const key = randomUUID();
    const first = await pay(buyer.client, [invoices[0], invoices[1]], key);
    expect(first.statusCode, first.body).toBe(201);
    const payment = invoicePaymentSchema.parse(first.json());
    for (const other of [[invoices[2]], [invoices[0]], [invoices[0], invoices[1], invoices[2]]]) {
      const reused = await pay(buyer.client, other, key);
      expect(reused.statusCode, reused.body).toBe(409);
      expect(reused.json().error).toBe("IDEMPOTENCY_KEY_REUSED");
    }
    const same = await pay(buyer.client, [invoices[1], invoices[0], invoices[1]], key);
    expect(same.statusCode, same.body).toBe(201);
    expect(invoicePaymentSchema.parse(same.json())).toEqual(payment);
    expect([...stripe.sessions.values()].filter((s) => s.metadata?.invoicePaymentId === payment._id)).toHaveLength(1);
    // Another key for the third invoice opens its own payment.
    expect(invoicePaymentSchema.parse((await pay(buyer.client, [invoices[2]])).json())).toMatchObject({ invoiceNumbers: [invoices[2]], amount: 108 });
  });

  it("an Idempotency-Key is its member's: another member of the account sending the same key gets their own payment and page, never the first member's (issue 49)", async () => {
    const { buyer, invoices, join } = await accountWithInvoices(2);
    const colleague = await join("admin");
    const key = randomUUID();
    const first = invoicePaymentSchema.parse((await pay(buyer.client, invoices, key)).json());
    const theirs = await pay(colleague.client, invoices, key);
    expect(theirs.statusCode, theirs.body).toBe(201);
    const second = invoicePaymentSchema.parse(theirs.json());
    expect(second._id).not.toBe(first._id);
    expect(second).toMatchObject({ invoiceNumbers: invoices, amount: 216, status: "open" });
    expect(second.payment?.url).not.toBe(first.payment?.url);
    // Each member's retry with the key answers their own payment; theirs with other invoices is 409 as for anyone.
    expect(invoicePaymentSchema.parse((await pay(buyer.client, invoices, key)).json())._id).toBe(first._id);
    expect(invoicePaymentSchema.parse((await pay(colleague.client, invoices, key)).json())._id).toBe(second._id);
    expect((await pay(colleague.client, [invoices[0]], key)).json().error).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("a cheque recorded while the page was open: the card payment pays what is still open and the rest stays on the account", async () => {
    const { id, buyer, invoices } = await accountWithInvoices(2);
    const payment = invoicePaymentSchema.parse((await pay(buyer.client, invoices)).json());
    expect((await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 108, reference: "CHK-9", invoiceNumbers: [invoices[0]] })).statusCode).toBe(201);
    await stripe.complete(sessionOf(payment._id).id);
    const rows = (await t.app.store.db.select().from(accountPayments)).filter((p) => p.accountId === id);
    const card = rows.find((p) => p.reference.startsWith("Card "));
    expect(card).toMatchObject({ amountCents: 21_600, applied: [{ invoiceNumber: invoices[1], amountCents: 10_800 }] });
    expect(await creditUsed(id)).toBe(0);
    expect(statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json()).balance).toBe(-108);
  });

  it("a partly refunded invoice is paid by card for exactly the rest; one refunded whole is not open (issue 40)", async () => {
    const { id, buyer, invoices, orderIds, toolId } = await accountWithInvoices(2, 2);
    const refund = async (orderId: string, quantity: number) => {
      expect((await admin.post(`/api/admin/orders/${orderId}/status`, { status: "paid" })).statusCode).toBeLessThan(300);
      const res = await admin.request({
        method: "POST",
        url: `/api/admin/orders/${orderId}/refunds`,
        payload: { lines: [{ toolId, quantity }], reason: "One came back" },
        headers: { "idempotency-key": randomUUID() },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await refund(orderIds[0] as string, 1);
    await refund(orderIds[1] as string, 2);
    expect((await buyer.client.get("/api/account/invoices")).json().map((o: { invoiceNumber: string; open: number }) => [o.invoiceNumber, o.open])).toEqual([[invoices[0], 108]]);
    expect((await pay(buyer.client, [invoices[1]])).statusCode).toBe(400);
    const payment = invoicePaymentSchema.parse((await pay(buyer.client, [invoices[0]])).json());
    expect(payment).toMatchObject({ amount: 108 });
    expect(sessionOf(payment._id)).toMatchObject({ amount_total: 10_800 });
    await stripe.complete(sessionOf(payment._id).id);
    const card = (await t.app.store.db.select().from(accountPayments)).find((p) => p.accountId === id && p.reference.startsWith("Card "));
    expect(card).toMatchObject({ amountCents: 10_800, applied: [{ invoiceNumber: invoices[0], amountCents: 10_800 }] });
    expect(await creditUsed(id)).toBe(0);
    expect((await buyer.client.get("/api/account/invoices")).json()).toEqual([]);
    expect(statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json()).balance).toBe(0);
  });

  it("refuses an invoice that is not open on the caller's account, a customer in no account and an empty choice; an expired page pays nothing", async () => {
    const mine = await accountWithInvoices(1);
    const theirs = await accountWithInvoices(1);
    const refused = await pay(mine.buyer.client, [mine.invoices[0], theirs.invoices[0]]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0].path).toBe("body.invoiceNumbers.1");
    expect((await pay(mine.buyer.client, [])).statusCode).toBe(400);
    const outsider = await newCustomer();
    expect((await pay(outsider.client, [theirs.invoices[0]])).statusCode).toBe(404);
    expect((await outsider.client.get("/api/account/invoices")).statusCode).toBe(404);
    expect((await new Client(t.app).get("/api/account/invoices")).statusCode).toBe(401);

    const payment = invoicePaymentSchema.parse((await pay(mine.buyer.client, mine.invoices)).json());
    await stripe.expire(sessionOf(payment._id).id);
    expect(await creditUsed(mine.id)).toBe(108);
    const again = await pay(mine.buyer.client, mine.invoices);
    expect(invoicePaymentSchema.parse(again.json())).toMatchObject({ status: "open", amount: 108 });
  });
});
