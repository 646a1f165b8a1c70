/**
 * A trade account's money over the raw API, on PGlite and on Postgres (DESIGN "Trade accounts"):
 * payments against invoices, the hold on an overdue invoice and its release when paid, the
 * statement's running balance and ageing by its numbers (and its PDF by its text), reminders at
 * the due date, +7 and +30 sent once however many sweeps race, and exemption certificates per
 * region with an expiry. The clock is injected: days pass without waiting.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../../../tests/support/pdf-text";
import { orderSchema } from "../../contract/schemas";
import { addDays, storeDate } from "../../contract/store-calendar";
import { MONEY_TEXT } from "../../contract/texts/money";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { statementSchema, type TradeAccount } from "../../contract/trade";
import { mailOutbox, taxRates } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { sendDueReminders } from "./reminders";

const ADMIN = "ledger-admin@toolyard.example";
const DAY = 86_400_000;

describe.each(drivers())("a trade account's money on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const T = new Date();
  let now = T;
  let ip = 0;
  const at = (days: number) => {
    now = new Date(T.getTime() + days * DAY);
  };

  const newCustomer = async () => {
    ip += 1;
    const client = new Client(t.app, `10.44.${Math.floor(ip / 250)}.${ip % 250}`);
    const email = uniqueEmail("ledger");
    expect((await client.signUp("Ledger customer", email)).statusCode).toBe(200);
    return { client, email };
  };
  const setup = async (account: Record<string, unknown>) => {
    const created = await admin.post("/api/admin/accounts", { name: `Ledger ${randomUUID().slice(0, 6)}`, ...account });
    expect(created.statusCode, created.body).toBe(201);
    const { _id: id } = created.json() as TradeAccount;
    const member = async (role: string, limits: Record<string, number> = {}) => {
      const c = await newCustomer();
      expect((await admin.post(`/api/admin/accounts/${id}/members`, { email: c.email, role, ...limits })).statusCode).toBe(201);
      return c;
    };
    const tool = await admin.post("/api/admin/tools", {
      name: `Ledger tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 100,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For the ledger.",
      category: "hand-tools",
    });
    expect(tool.statusCode).toBe(201);
    return { id, member, toolId: tool.json()._id as string };
  };
  const patch = (id: string, payload: object) => admin.request({ method: "PATCH", url: `/api/admin/accounts/${id}`, payload });

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" }, { clock: () => now });
    admin = new Client(t.app, "10.44.250.1");
    await admin.signUp("Admin", ADMIN);
    // Pickup is taxed at the store's address: New York, 8 %, so one $100 tool is a $108 invoice.
    await t.app.store.db.insert(taxRates).values({ country: "US", region: "NY", name: "New York", rateBasisPoints: 800 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("statement: invoices, payments and the running balance; ageing current, 1–30, 31–60, over 60 by its numbers; the hold until the overdue invoices are paid", async () => {
    const { id, member, toolId } = await setup({ terms: "net15", creditLimit: 10_000 });
    const buyer = await member("buyer", { orderLimit: 150 });
    const approver = await member("approver");
    const place = async (quantity = 1) => {
      const res = await buyer.client.post("/api/order", { toolId, quantity, paymentMethod: "terms" });
      expect(res.statusCode, res.body).toBe(201);
      return orderSchema.parse(res.json());
    };
    try {
      at(-100);
      const a = await place(); // net15: due T−85, 85 days late at T
      expect((await patch(id, { terms: "net60" })).statusCode).toBe(200);
      at(-95);
      const b = await place(); // due T−35
      at(-90);
      const c = await place(); // due T−30
      at(-89);
      const d = await place(2); // $216, over the buyer's $150: waits, invoiced when approved
      expect(d.status).toBe("awaiting_approval");
      at(0);
      expect((await admin.get(`/api/admin/accounts/${id}`)).json()).toMatchObject({ onHold: true, creditUsed: 540 });
      const approved = await approver.client.post(`/api/account/orders/${d._id}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ dueDate: addDays(storeDate(T), 60), balanceDue: 216 });
      // A terms order while on hold: refused, whatever the path.
      expect((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json().error).toBe("ACCOUNT_ON_HOLD");

      const paid = await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 50, reference: "CHK-1001", invoiceNumbers: [b.invoiceNumber] });
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.json()).toMatchObject({ amount: 50, applied: [{ invoiceNumber: b.invoiceNumber, amount: 50 }], unapplied: 0 });
      expect((await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 10, reference: "X", invoiceNumbers: ["INV-1999-000001"] })).statusCode).toBe(400);
      expect((await admin.post(`/api/admin/accounts/${id}/payments`, { amount: -10, reference: "X" })).statusCode).toBe(400);

      const statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
      expect(statement.lines.map((l) => [l.type, l.number, l.amount, l.balance])).toEqual([
        ["invoice", a.invoiceNumber, 108, 108],
        ["invoice", b.invoiceNumber, 108, 216],
        ["invoice", c.invoiceNumber, 108, 324],
        ["invoice", approved.json().invoiceNumber, 216, 540],
        ["payment", "CHK-1001", -50, 490],
      ]);
      expect(statement.balance).toBe(490);
      expect(statement.ageing).toEqual({ current: 216, days1to30: 108, days31to60: 58, over60: 108 });
      expect(statement.lines[0]?.date).toBe(storeDate(new Date(T.getTime() - 100 * DAY)));

      // The account's admin reads the same statement from the dashboard; a buyer may not.
      const boss = await member("admin");
      expect(statementSchema.parse((await boss.client.get("/api/account/statement")).json())).toEqual(statement);
      expect((await buyer.client.get("/api/account/statement")).statusCode).toBe(403);
      // The PDF says the same, read by its text.
      const pdf = await admin.get(`/api/admin/accounts/${id}/statement.pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers["content-type"]).toBe("application/pdf");
      const text = pdfText(pdf.rawPayload);
      for (const words of ["Statement", String(a.invoiceNumber), "CHK-1001", "$490.00", "-$50.00", "Over 60 days", "$216.00", "$58.00"]) expect(text).toContain(words);
      expect(pdfText((await boss.client.get("/api/account/statement.pdf")).rawPayload)).toContain("$490.00");

      // Paying the overdue invoices (oldest first) releases the hold: A $108, B's $58 left, C $108.
      const rest = await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 274, reference: "WIRE-7" });
      expect(rest.json().applied.map((x: { amount: number }) => x.amount)).toEqual([108, 58, 108]);
      expect((await admin.get(`/api/admin/accounts/${id}`)).json()).toMatchObject({ onHold: false, creditUsed: 216 });
      expect((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).statusCode).toBe(201);
      const after = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
      expect(after.ageing).toEqual({ current: 324, days1to30: 0, days31to60: 0, over60: 0 });
    } finally {
      at(0);
    }
  });

  it("a cancelled terms invoice is a credit note on the statement, and frees its credit", async () => {
    const { id, member, toolId } = await setup({ terms: "net30", creditLimit: 1000 });
    const buyer = await member("buyer");
    const order = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json());
    expect((await buyer.client.delete(`/api/order/${order._id}`)).statusCode).toBe(200);
    const statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
    expect(statement.lines.map((l) => [l.type, l.amount, l.balance])).toEqual([
      ["invoice", 108, 108],
      ["credit_note", -108, 0],
    ]);
    expect((await admin.get(`/api/admin/accounts/${id}`)).json().creditUsed).toBe(0);
  });

  it("a terms order with payments against its invoice is not cancelled (409 INVOICE_PAID, nothing written): the statement never owes back money the customer did not get; a refund gives it back (issue 49)", async () => {
    const { id, member, toolId } = await setup({ terms: "net30", creditLimit: 1000 });
    const buyer = await member("buyer");
    const statement = async () => statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
    for (const amount of [108, 50]) {
      const order = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json());
      const paid = await admin.post(`/api/admin/accounts/${id}/payments`, { amount, reference: `CHK-${amount}`, invoiceNumbers: [order.invoiceNumber] });
      expect(paid.statusCode, paid.body).toBe(201);
      const before = await statement();
      const byCustomer = await buyer.client.delete(`/api/order/${order._id}`);
      expect(byCustomer.statusCode, byCustomer.body).toBe(409);
      expect(byCustomer.json()).toMatchObject({ error: "INVOICE_PAID", message: TRADE_TEXT.invoicePaidCancel });
      const byOwner = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" });
      expect(byOwner.statusCode, byOwner.body).toBe(409);
      expect(byOwner.json()).toMatchObject({ error: "INVOICE_PAID" });
      expect(orderSchema.parse((await buyer.client.get(`/api/order/${order._id}`)).json())).toMatchObject({ status: "pending", creditNoteNumber: null });
      expect(await statement()).toEqual(before);
      expect((await statement()).balance).toBeGreaterThanOrEqual(0);
    }
    // Refunded instead (marked paid, then every unit given back): the credit note and the money paid back; the balance stays ≥ 0.
    const order = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json());
    expect((await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 108, reference: "CHK-R", invoiceNumbers: [order.invoiceNumber] })).statusCode).toBe(201);
    const balance = (await statement()).balance;
    expect((await admin.post(`/api/admin/orders/${order._id}/status`, { status: "paid" })).statusCode).toBe(200);
    const refund = await admin.request({
      method: "POST",
      url: `/api/admin/orders/${order._id}/refunds`,
      payload: { lines: [{ toolId, quantity: 1 }], reason: "Cancelled by the customer" },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const after = await statement();
    expect(after.lines.slice(-2).map((l) => [l.type, l.amount])).toEqual([
      ["credit_note", -108],
      ["refund", 108],
    ]);
    expect(after.balance).toBe(balance);
  });

  it("a refund of a terms invoice lowers what it owes: credit, balance due, open invoices, statement and ageing, the hold and reminders; the rest is paid exactly (issue 40)", async () => {
    const { id, member, toolId } = await setup({ terms: "net15", creditLimit: 1000 });
    const buyer = await member("buyer");
    const boss = await member("admin");
    const db = t.app.store.db;
    const account = async () => (await admin.get(`/api/admin/accounts/${id}`)).json() as TradeAccount;
    const refund = async (orderId: string, quantity: number) => {
      expect((await admin.post(`/api/admin/orders/${orderId}/status`, { status: "paid" })).statusCode).toBeLessThan(300);
      const res = await admin.request({
        method: "POST",
        url: `/api/admin/orders/${orderId}/refunds`,
        payload: { lines: [{ toolId, quantity }], restock: false, reason: "Damaged in transit" },
        headers: { "idempotency-key": randomUUID() },
      });
      expect(res.statusCode, res.body).toBe(201);
      const order = orderSchema.parse((await buyer.client.get(`/api/order/${orderId}`)).json());
      return { order, creditNote: order.refunds?.at(-1)?.creditNoteNumber as string };
    };
    const openInvoices = async () => ((await boss.client.get("/api/account/invoices")).json() as { invoiceNumber: string; open: number }[]).map((o) => [o.invoiceNumber, o.open]);
    const remindedOf = async (invoiceNumber: string) => (await db.select().from(mailOutbox)).filter((m) => m.kind === "invoice-reminder" && m.subject.includes(invoiceNumber)).length;
    try {
      at(-30);
      const a = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 2, paymentMethod: "terms" })).json()); // $216, due T−15
      const b = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json()); // $108, due T−15
      at(0);
      expect(await account()).toMatchObject({ onHold: true, creditUsed: 324, creditAvailable: 676 });

      // Half of A given back: it owes $108, and the account's credit rises by as much.
      const refundA = await refund(a._id, 1);
      expect(refundA.order).toMatchObject({ refundedTotal: 108, balanceDue: 108 });
      expect(await account()).toMatchObject({ onHold: true, creditUsed: 216, creditAvailable: 784 });
      expect(await openInvoices()).toEqual([
        [a.invoiceNumber, 108],
        [b.invoiceNumber, 108],
      ]);
      let statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
      expect(statement.lines.map((l) => [l.type, l.number, l.amount, l.balance])).toEqual([
        ["invoice", a.invoiceNumber, 216, 216],
        ["invoice", b.invoiceNumber, 108, 324],
        ["credit_note", refundA.creditNote, -108, 216],
      ]);
      expect(statement.balance).toBe(216);
      expect(statement.ageing).toEqual({ current: 0, days1to30: 216, days31to60: 0, over60: 0 });

      // The owner's payment of A takes exactly what is left of it; the rest stays on the account.
      const paid = await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 150, reference: "CHK-REST", invoiceNumbers: [a.invoiceNumber] });
      expect(paid.json()).toMatchObject({ applied: [{ invoiceNumber: a.invoiceNumber, amount: 108 }], unapplied: 42 });
      expect(orderSchema.parse((await buyer.client.get(`/api/order/${a._id}`)).json()).balanceDue).toBe(0);
      expect(await openInvoices()).toEqual([[b.invoiceNumber, 108]]);

      // B, overdue, given back whole: no longer owed, so no hold, no reminder, nothing to pay.
      const refundB = await refund(b._id, 1);
      expect(refundB.order.balanceDue).toBe(0);
      expect(await account()).toMatchObject({ onHold: false, creditUsed: 0, creditAvailable: 1000 });
      expect(await openInvoices()).toEqual([]);
      await sendDueReminders(db, now, "http://localhost:3999");
      expect(await remindedOf(b.invoiceNumber as string)).toBe(0);
      const pay = await boss.client.request({ method: "POST", url: "/api/account/invoices/pay", payload: { invoiceNumbers: [b.invoiceNumber] }, headers: { "idempotency-key": randomUUID() } });
      expect(pay.statusCode).toBe(400);
      expect((await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 10, reference: "CHK-B", invoiceNumbers: [b.invoiceNumber] })).statusCode).toBe(400);
      expect((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).statusCode).toBe(201);

      // A paid invoice refunded: its credit note, and the money paid back to the customer, leave the balance as it was.
      statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
      const before = statement.balance;
      const refundA2 = await refund(a._id, 1);
      statement = statementSchema.parse((await admin.get(`/api/admin/accounts/${id}/statement`)).json());
      expect(statement.lines.slice(-2).map((l) => [l.type, l.number, l.amount])).toEqual([
        ["credit_note", refundA2.creditNote, -108],
        ["refund", refundA2.creditNote, 108],
      ]);
      expect(statement.balance).toBe(before);
      expect(statement.ageing).toEqual({ current: 108, days1to30: 0, days31to60: 0, over60: 0 });
      expect(statement.balance).toBe(108 - 42);
    } finally {
      at(0);
    }
  });

  it("an invoice named twice in one payment is paid once: the rest stays unapplied on the account", async () => {
    const { id, member, toolId } = await setup({ terms: "net30", creditLimit: 1000 });
    const buyer = await member("buyer");
    const order = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json());
    const paid = await admin.post(`/api/admin/accounts/${id}/payments`, { amount: 200, reference: "CHK-TWICE", invoiceNumbers: [order.invoiceNumber, order.invoiceNumber] });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({ amount: 200, applied: [{ invoiceNumber: order.invoiceNumber, amount: 108 }], unapplied: 92 });
    expect((await admin.get(`/api/admin/accounts/${id}`)).json().creditUsed).toBe(0);
  });

  it("reminders at the due date, +7 and +30 days, each once however many sweeps race", async () => {
    const { member, toolId } = await setup({ terms: "net15", creditLimit: 1000 });
    const buyer = await member("buyer");
    const order = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1, paymentMethod: "terms" })).json());
    const db = t.app.store.db;
    const sweep = (days: number) => Promise.all([0, 1, 2].map(() => sendDueReminders(db, new Date(T.getTime() + days * DAY), "http://localhost:3999")));
    // In the order they were written: the mail worker updates rows, and Postgres returns an unordered
    // select in whatever order its heap holds them.
    const mine = async () => (await db.select().from(mailOutbox).orderBy(mailOutbox.id)).filter((m) => m.kind === "invoice-reminder" && m.subject.includes(order.invoiceNumber as string)).map((m) => m.subject);
    // Other tests' invoices may be reminded too: count this one's mail after each day's racing sweeps.
    const counts: number[] = [];
    for (const day of [14, 15, 16, 22, 45, 60]) {
      await sweep(day);
      counts.push((await mine()).length);
    }
    expect(counts).toEqual([0, 1, 1, 2, 3, 3]);
    expect(await mine()).toEqual([`Invoice ${order.invoiceNumber} is due today`, `Invoice ${order.invoiceNumber} is 7 days overdue`, `Invoice ${order.invoiceNumber} is 30 days overdue`]);
  });

  it("an exemption certificate per region: exempt through its expiry (said on the order and its invoice), taxed after; the owner sees it about to expire", async () => {
    const { id, member, toolId } = await setup({});
    const buyer = await member("buyer");
    const expiresOn = addDays(storeDate(T), 10);
    expect((await admin.post(`/api/admin/accounts/${id}/exemptions`, { country: "US", region: "NY", certificate: "NY-ST-120-778", expiresOn: "2026-02-30x" })).statusCode).toBe(400);
    const added = await admin.post(`/api/admin/accounts/${id}/exemptions`, { country: "US", region: "NY", certificate: "NY-ST-120-778", expiresOn });
    expect(added.statusCode, added.body).toBe(201);
    try {
      at(10);
      const exempt = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1 })).json());
      expect(exempt).toMatchObject({ tax: 0, total: 100, taxExemptCertificate: "NY-ST-120-778", taxExemption: { certificate: "NY-ST-120-778", region: "NY" } });
      const invoice = await buyer.client.get(`/api/order/${exempt._id}/invoice`);
      expect(pdfText(invoice.rawPayload)).toContain(MONEY_TEXT.taxExempt("NY-ST-120-778"));
      const expiring = await admin.get("/api/admin/accounts/exemptions/expiring?days=30");
      expect(expiring.json().map((e: { certificate: string }) => e.certificate)).toContain("NY-ST-120-778");
      at(11);
      const taxed = orderSchema.parse((await buyer.client.post("/api/order", { toolId, quantity: 1 })).json());
      expect(taxed).toMatchObject({ tax: 8, total: 108, taxExemptCertificate: null });
      expect(taxed.taxExemption).toBeUndefined();
      expect((await admin.delete(`/api/admin/accounts/${id}/exemptions/${added.json()._id}`)).statusCode).toBe(204);
      expect((await admin.get(`/api/admin/accounts/${id}/exemptions`)).json()).toEqual([]);
    } finally {
      at(0);
    }
  });
});
