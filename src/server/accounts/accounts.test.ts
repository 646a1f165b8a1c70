/**
 * Trade accounts (DESIGN "Trade accounts", issue 43) over the raw API, on PGlite and on Postgres:
 * the console's accounts and members, a member's account, the account's admin, applications, and
 * the order policy through every placement path (cart checkout, purchase page, quote acceptance):
 * account prices, PO numbers, terms, credit, limits counting the month, approvals and the hold on
 * an overdue invoice (the clock injected, not waited for).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartSchema, orderSchema, type Order } from "../../contract/schemas";
import { addDays, storeDate } from "../../contract/store-calendar";
import { ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../contract/texts/trade";
import { myAccountSchema, tradeAccountSchema, type TradeAccount } from "../../contract/trade";
import { mailOutbox, taxRates } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "trade-admin@toolyard.example";
const PRICE = 40;

type Res = Awaited<ReturnType<Client["request"]>>;

interface Member {
  client: Client;
  email: string;
  userId: string;
}

/** How an order is placed on each path, with what the buyer sends (PO number, payment method). */
interface Path {
  name: string;
  place(s: { buyer: Member; toolId: string; quantity: number; poNumber?: string; paymentMethod?: string }): Promise<Res>;
}

describe.each(drivers())("trade accounts on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let now = new Date();
  let ip = 0;

  const newCustomer = async (name = "Trade customer"): Promise<Member> => {
    ip += 1;
    const client = new Client(t.app, `10.43.${Math.floor(ip / 250)}.${ip % 250}`);
    const email = uniqueEmail("trade");
    expect((await client.signUp(name, email)).statusCode).toBe(200);
    const userId = (await client.get("/api/auth/get-session")).json().user.id as string;
    return { client, email, userId };
  };
  const newTool = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", {
      name: `Trade tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: PRICE,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For trade accounts.",
      category: "hand-tools",
      ...over,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json()._id as string;
  };
  const stockOf = async (toolId: string) => (await admin.get(`/api/admin/tools/${toolId}`)).json().tool.availableQuantity as number;
  const newAccount = async (body: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/accounts", { name: `Firm ${randomUUID().slice(0, 6)}`, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return tradeAccountSchema.parse(res.json());
  };
  const join = async (account: TradeAccount, role: string, limits: Record<string, number | null> = {}) => {
    const m = await newCustomer(`${role} ${ip}`);
    const res = await admin.post(`/api/admin/accounts/${account._id}/members`, { email: m.email, role, ...limits });
    expect(res.statusCode, res.body).toBe(201);
    return m;
  };

  const PATHS: Path[] = [
    {
      name: "cart checkout",
      async place({ buyer, toolId, quantity, poNumber, paymentMethod }) {
        expect((await buyer.client.request({ method: "DELETE", url: "/api/cart" })).statusCode).toBeLessThan(300);
        expect((await buyer.client.put(`/api/cart/lines/${toolId}`, { quantity })).statusCode).toBe(200);
        const res = await buyer.client.request({
          method: "POST",
          url: "/api/checkout",
          payload: { address: "1 Main St", phone: "+1 555 0100", paymentMethod: paymentMethod ?? "cash_on_delivery", ...(poNumber ? { poNumber } : {}) },
          headers: { "idempotency-key": randomUUID() },
        });
        return res.statusCode === 201 ? ({ ...res, json: () => res.json().order } as Res) : res;
      },
    },
    {
      name: "purchase page",
      place: ({ buyer, toolId, quantity, poNumber, paymentMethod }) =>
        buyer.client.post("/api/order", { toolId, quantity, ...(poNumber ? { poNumber } : {}), ...(paymentMethod ? { paymentMethod } : {}) }),
    },
    {
      name: "quote acceptance",
      async place({ buyer, toolId, quantity, poNumber, paymentMethod }) {
        const requested = await buyer.client.post("/api/quotes", { lines: [{ toolId, quantity }] });
        expect(requested.statusCode, requested.body).toBe(201);
        const quoteId = requested.json()._id as string;
        const revision = await admin.post(`/api/admin/quotes/${quoteId}/revisions`, {
          lines: [{ toolId, quantity, unitPrice: PRICE }],
          shipping: 0,
          validUntil: new Date(Date.now() + 86_400_000).toISOString(),
        });
        expect(revision.statusCode, revision.body).toBe(201);
        const res = await buyer.client.request({
          method: "POST",
          url: `/api/quotes/${quoteId}/accept`,
          payload: { revision: 1, paymentMethod: paymentMethod ?? "cash_on_delivery", ...(poNumber ? { poNumber } : {}) },
          headers: { "idempotency-key": randomUUID() },
        });
        return res.statusCode === 201 ? ({ ...res, json: () => res.json().order } as Res) : res;
      },
    },
  ];

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" }, { clock: () => now });
    admin = new Client(t.app, "10.43.250.1");
    await admin.signUp("Admin", ADMIN);
    // Pickup is taxed at the store's address (New York, 8 %): the totals below include it.
    await t.app.store.db.insert(taxRates).values({ country: "US", region: "NY", name: "New York", rateBasisPoints: 800 });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("the console's accounts and members", () => {
    it("creates and edits an account; a negative credit limit or discount is refused and nothing is saved", async () => {
      const bad = await admin.post("/api/admin/accounts", { name: "Negative Ltd", creditLimit: -1 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details[0].path).toBe("body.creditLimit");
      expect((await admin.get("/api/admin/accounts?q=Negative")).json()).toEqual([]);

      const account = await newAccount({ name: "Green Acres Landscaping", taxId: "12-3456789", terms: "net30", creditLimit: 5000, discountPercent: 12.5, poRequired: true });
      expect(account).toMatchObject({ name: "Green Acres Landscaping", taxId: "12-3456789", terms: "net30", creditLimit: 5000, creditUsed: 0, creditAvailable: 5000, onHold: false, discountPercent: 12.5, poRequired: true, members: [] });
      const patched = await admin.request({ method: "PATCH", url: `/api/admin/accounts/${account._id}`, payload: { creditLimit: 7500, terms: "net60" } });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({ creditLimit: 7500, terms: "net60", creditAvailable: 7500 });
      expect((await admin.request({ method: "PATCH", url: `/api/admin/accounts/${account._id}`, payload: { creditLimit: -5 } })).statusCode).toBe(400);
      expect((await admin.request({ method: "PATCH", url: `/api/admin/accounts/${account._id}`, payload: { terms: "net90" } })).statusCode).toBe(400);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json()).toMatchObject({ creditLimit: 7500, terms: "net60" });
      const listed = await admin.get("/api/admin/accounts?q=green acres");
      expect(listed.json().map((a: TradeAccount) => a._id)).toContain(account._id);
      expect((await admin.get(`/api/admin/accounts/${randomUUID()}`)).statusCode).toBe(404);
    });

    it("adds customers as members with roles and limits; an unknown e-mail is 404, a second account 409 ALREADY_A_MEMBER", async () => {
      const account = await newAccount();
      const other = await newAccount();
      const buyer = await newCustomer();
      const added = await admin.post(`/api/admin/accounts/${account._id}/members`, { email: buyer.email, role: "buyer", orderLimit: 250, monthlyLimit: 1000 });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json().members).toEqual([{ userId: buyer.userId, email: buyer.email, name: "Trade customer", role: "buyer", orderLimit: 250, monthlyLimit: 1000 }]);

      expect((await admin.post(`/api/admin/accounts/${account._id}/members`, { email: "nobody@example.com", role: "buyer" })).statusCode).toBe(404);
      expect((await admin.post(`/api/admin/accounts/${account._id}/members`, { email: buyer.email, role: "boss" })).statusCode).toBe(400);
      expect((await admin.post(`/api/admin/accounts/${account._id}/members`, { email: buyer.email, role: "buyer", orderLimit: -1 })).statusCode).toBe(400);
      const second = await admin.post(`/api/admin/accounts/${other._id}/members`, { email: buyer.email, role: "admin" });
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toBe("ALREADY_A_MEMBER");
      expect((await admin.get(`/api/admin/accounts/${other._id}`)).json().members).toEqual([]);

      // The member sees the account with their role; a customer outside any account gets 404.
      const mine = await buyer.client.get("/api/account");
      expect(mine.statusCode).toBe(200);
      expect(myAccountSchema.parse(mine.json())).toMatchObject({ _id: account._id, role: "buyer" });
      expect((await (await newCustomer()).client.get("/api/account")).statusCode).toBe(404);

      const removed = await admin.delete(`/api/admin/accounts/${account._id}/members/${buyer.userId}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json().members).toEqual([]);
      expect((await buyer.client.get("/api/account")).statusCode).toBe(404);
    });

    it("racing adds of one customer to two accounts: exactly one succeeds", async () => {
      const [a, b] = [await newAccount(), await newAccount()];
      const customer = await newCustomer();
      const results = await Promise.all([a, b].map((acc) => admin.post(`/api/admin/accounts/${acc._id}/members`, { email: customer.email, role: "buyer" })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    });

    it("the account's admin manages members from the dashboard; a buyer may not (403), nor set limits", async () => {
      const account = await newAccount();
      const boss = await join(account, "admin");
      const buyer = await join(account, "buyer");
      const newcomer = await newCustomer();
      const byBuyer = await buyer.client.post("/api/account/members", { email: newcomer.email, role: "buyer", orderLimit: 10 });
      expect(byBuyer.statusCode).toBe(403);
      expect((await buyer.client.delete(`/api/account/members/${boss.userId}`)).statusCode).toBe(403);
      expect((await newcomer.client.post("/api/account/members", { email: newcomer.email, role: "admin" })).statusCode).toBe(404);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json().members).toHaveLength(2);

      const added = await boss.client.post("/api/account/members", { email: newcomer.email, role: "approver", monthlyLimit: 300 });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({ role: "admin" });
      expect(added.json().members.find((m: { userId: string }) => m.userId === newcomer.userId)).toMatchObject({ role: "approver", monthlyLimit: 300 });
      const removed = await boss.client.delete(`/api/account/members/${buyer.userId}`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json().members.map((m: { userId: string }) => m.userId)).not.toContain(buyer.userId);
      // The last admin stays.
      const last = await boss.client.delete(`/api/account/members/${boss.userId}`);
      expect(last.statusCode).toBe(409);
      expect(last.json().error).toBe("LAST_ADMIN");
    });

    it("a customer added to an account is told by mail and may leave it themselves (POST /api/account/leave); its last admin may not (409 LAST_ADMIN)", async () => {
      const account = await newAccount({ name: `Acme Roofing ${randomUUID().slice(0, 6)}` });
      const boss = await join(account, "admin");
      const newcomer = await newCustomer("Newcomer");
      expect((await boss.client.post("/api/account/members", { email: newcomer.email, role: "buyer", orderLimit: 10 })).statusCode).toBe(201);
      const told = (await t.app.store.db.select().from(mailOutbox)).filter((m) => m.to === newcomer.email.toLowerCase() && m.kind === "account-member-added");
      expect(told).toHaveLength(1);
      expect(told[0]?.subject).toBe(TRADE_TEXT.memberAddedSubject(account.name));
      expect(told[0]?.text).toContain(TRADE_TEXT.memberAddedText(account.name, ADMIN_TRADE_TEXT.roles.buyer));

      // The newcomer leaves: out of the account, their next order theirs alone (no approval, no account).
      const left = await newcomer.client.post("/api/account/leave", {});
      expect(left.statusCode, left.body).toBe(204);
      expect((await newcomer.client.get("/api/account")).statusCode).toBe(404);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json().members.map((m: { userId: string }) => m.userId)).not.toContain(newcomer.userId);
      const toolId = await newTool();
      expect(orderSchema.parse((await newcomer.client.post("/api/order", { toolId, quantity: 1 })).json()).status).toBe("pending");
      const again = await newcomer.client.post("/api/account/leave", {});
      expect(again.statusCode).toBe(404);
      expect((await new Client(t.app).post("/api/account/leave", {})).statusCode).toBe(401);

      // The last admin stays; once there is another, they may go.
      const last = await boss.client.post("/api/account/leave", {});
      expect(last.statusCode).toBe(409);
      expect(last.json()).toMatchObject({ error: "LAST_ADMIN", message: TRADE_TEXT.lastAdmin });
      expect((await boss.client.get("/api/account")).statusCode).toBe(200);
      expect((await boss.client.post("/api/account/members", { email: (await newCustomer()).email, role: "admin" })).statusCode).toBe(201);
      expect((await boss.client.post("/api/account/leave", {})).statusCode).toBe(204);
      expect((await boss.client.get("/api/account")).statusCode).toBe(404);
    });

    it("a customer applies from the dashboard; the owner sees the application and is mailed", async () => {
      const customer = await newCustomer();
      const res = await customer.client.post("/api/account/apply", { name: "Oak & Ash Tree Care", taxId: "98-7654321", message: "Three crews, net 30 please" });
      expect(res.statusCode, res.body).toBe(201);
      const listed = await admin.get("/api/admin/accounts/applications");
      expect(listed.statusCode).toBe(200);
      expect(listed.json()[0]).toMatchObject({ name: "Oak & Ash Tree Care", email: customer.email, taxId: "98-7654321", message: "Three crews, net 30 please" });
      const mail = await t.app.store.db.select().from(mailOutbox);
      expect(mail.some((m) => m.to === ADMIN && m.subject.includes("Oak & Ash Tree Care"))).toBe(true);
    });
  });

  describe("a member's prices", () => {
    it("a member's cart shows the price the order will have, marked as the trade price, on every line; an outsider's does not", async () => {
      const account = await newAccount({ discountPercent: 10 });
      const buyer = await join(account, "buyer");
      const plain = await newTool();
      const tiered = await newTool({ priceTiers: [{ minQuantity: 10, price: 35 }] });
      for (const [toolId, quantity] of [
        [plain, 2],
        [tiered, 10],
      ] as const)
        expect((await buyer.client.put(`/api/cart/lines/${toolId}`, { quantity })).statusCode).toBe(200);
      const cart = cartSchema.parse((await buyer.client.get("/api/cart")).json());
      const line = (toolId: string) => cart.lines.find((l) => l.toolId === toolId);
      expect(line(plain)).toMatchObject({ unitPrice: 36, lineTotal: 72, tradePrice: true });
      expect(line(tiered)).toMatchObject({ unitPrice: 31.5, lineTotal: 315, tradePrice: true, tier: { minQuantity: 10, price: 35 } });
      expect(cart.subtotal).toBe(387);
      // The cart carries the account's discount: the tool page's trade price reads it from the
      // navigation bar's cart, with no request of its own (an empty cart too).
      expect(cart.tradeDiscountPercent).toBe(10);
      const member = await join(account, "buyer");
      expect(cartSchema.parse((await member.client.get("/api/cart")).json())).toMatchObject({ lines: [], tradeDiscountPercent: 10 });
      const outsider = await newCustomer();
      expect(cartSchema.parse((await outsider.client.get("/api/cart")).json()).tradeDiscountPercent).toBe(0);
      expect((await outsider.client.put(`/api/cart/lines/${plain}`, { quantity: 2 })).statusCode).toBe(200);
      const theirs = cartSchema.parse((await outsider.client.get("/api/cart")).json());
      expect(theirs.lines[0]).toMatchObject({ unitPrice: PRICE, lineTotal: 2 * PRICE });
      expect(theirs.lines[0]?.tradePrice).toBeUndefined();
      expect(theirs.tradeDiscountPercent).toBe(0);
    });
  });

  describe.each(PATHS)("the order policy through the $name", (path) => {
    it("prices a member at the account's price: the discount off the list price or, where one is reached, the tier's", async () => {
      const account = await newAccount({ discountPercent: 10 });
      const buyer = await join(account, "buyer");
      const toolId = await newTool({ priceTiers: [{ minQuantity: 10, price: 35 }] });
      if (path.name === "quote acceptance") {
        // A quote's prices stay as quoted.
        const res = await path.place({ buyer, toolId, quantity: 2 });
        expect(res.statusCode, res.body).toBe(201);
        expect(orderSchema.parse(res.json()).unitPrice).toBe(PRICE);
        return;
      }
      // 2 units: the list price less 10 % ($36); 10 units: the tier's $35 less 10 % ($31.50).
      const few = await path.place({ buyer, toolId, quantity: 2 });
      expect(few.statusCode, few.body).toBe(201);
      expect(orderSchema.parse(few.json())).toMatchObject({ unitPrice: 36, subtotal: 72 });
      const many = await path.place({ buyer, toolId, quantity: 10 });
      expect(orderSchema.parse(many.json())).toMatchObject({ unitPrice: 31.5, subtotal: 315 });
      // A customer outside the account pays the list price.
      const outsider = await newCustomer();
      const list = await path.place({ buyer: outsider, toolId, quantity: 2 });
      expect(orderSchema.parse(list.json()).unitPrice).toBe(PRICE);
    });

    it("a PO number where required: without one 400 on body.poNumber, nothing taken; with one it is on the order", async () => {
      const account = await newAccount({ poRequired: true });
      const buyer = await join(account, "buyer");
      const toolId = await newTool();
      const missing = await path.place({ buyer, toolId, quantity: 2 });
      expect(missing.statusCode, missing.body).toBe(400);
      expect(missing.json().details[0].path).toBe("body.poNumber");
      expect(await stockOf(toolId)).toBe(100);
      const placed = await path.place({ buyer, toolId, quantity: 2, poNumber: "PO-7781" });
      expect(placed.statusCode, placed.body).toBe(201);
      expect(orderSchema.parse(placed.json()).poNumber).toBe("PO-7781");
    });

    it("terms: refused without an account with terms; placed unpaid, invoiced with a due date; over the credit limit 409 CREDIT_LIMIT with what is available", async () => {
      const toolId = await newTool();
      const outsider = await newCustomer();
      const refused = await path.place({ buyer: outsider, toolId, quantity: 1, paymentMethod: "terms" });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().details[0].path).toBe("body.paymentMethod");
      const noTerms = await join(await newAccount(), "buyer");
      expect((await path.place({ buyer: noTerms, toolId, quantity: 1, paymentMethod: "terms" })).statusCode).toBe(400);

      const account = await newAccount({ terms: "net30", creditLimit: 200 });
      const buyer = await join(account, "buyer");
      // 4 × $40 = $160 + 8 % tax = $172.80.
      const placed = await path.place({ buyer, toolId, quantity: 4, paymentMethod: "terms" });
      expect(placed.statusCode, placed.body).toBe(201);
      const order = orderSchema.parse(placed.json());
      expect(order).toMatchObject({ status: "pending", paymentMethod: "terms", total: 172.8, balanceDue: 172.8, dueDate: addDays(storeDate(now), 30) });
      expect(order.invoiceNumber).toMatch(/^INV-/);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json()).toMatchObject({ creditUsed: 172.8, creditAvailable: 27.2 });

      const over = await path.place({ buyer, toolId, quantity: 1, paymentMethod: "terms" });
      expect(over.statusCode).toBe(409);
      expect(over.json()).toMatchObject({ error: "CREDIT_LIMIT", available: 27.2 });
      expect(await stockOf(toolId)).toBe(96);
      // Cash on delivery is not on credit.
      expect((await path.place({ buyer, toolId, quantity: 1 })).statusCode).toBe(201);
    });

    it("an order over the buyer's order limit waits for approval: stock held, no invoice, approvers mailed; approve and reject", async () => {
      const account = await newAccount();
      const approver = await join(account, "approver");
      const boss = await join(account, "admin");
      const buyer = await join(account, "buyer", { orderLimit: 100 });
      const toolId = await newTool();
      const outbox = async () => (await t.app.store.db.select().from(mailOutbox)).filter((m) => m.kind === "approval-needed").map((m) => m.to);

      const small = await path.place({ buyer, toolId, quantity: 2 });
      expect(orderSchema.parse(small.json()).status).toBe("pending");
      const big = await path.place({ buyer, toolId, quantity: 3 });
      expect(big.statusCode, big.body).toBe(201);
      const waiting = orderSchema.parse(big.json());
      expect(waiting).toMatchObject({ status: "awaiting_approval", invoiceNumber: null });
      expect(await stockOf(toolId)).toBe(95);
      const mailed = await outbox();
      expect(mailed).toContain(approver.email);
      expect(mailed).toContain(boss.email);
      expect(mailed).not.toContain(buyer.email);

      // The buyer cannot approve their own order; a member of another account finds none.
      const own = await buyer.client.post(`/api/account/orders/${waiting._id}/approve`, {});
      expect(own.statusCode).toBe(403);
      expect(own.json().error).toBe("OWN_ORDER");
      const stranger = await join(await newAccount(), "approver");
      expect((await stranger.client.post(`/api/account/orders/${waiting._id}/approve`, {})).statusCode).toBe(404);
      expect((await stranger.client.post(`/api/account/orders/${waiting._id}/reject`, { reason: "no" })).statusCode).toBe(404);
      // The approver sees every member's orders; the buyer their own.
      expect((await approver.client.get("/api/account/orders?status=awaiting_approval")).json().map((o: Order) => o._id)).toEqual([waiting._id]);

      const approved = await approver.client.post(`/api/account/orders/${waiting._id}/approve`, {});
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ status: "pending" });
      expect(approved.json().invoiceNumber).toMatch(/^INV-/);
      expect((await boss.client.post(`/api/account/orders/${waiting._id}/approve`, {})).json().error).toBe("ORDER_NOT_AWAITING_APPROVAL");

      const again = orderSchema.parse((await path.place({ buyer, toolId, quantity: 4 })).json());
      expect(again.status).toBe("awaiting_approval");
      expect((await boss.client.post(`/api/account/orders/${again._id}/reject`, { reason: "Over budget this week" })).json()).toMatchObject({ status: "cancelled", creditNoteNumber: null });
      expect(await stockOf(toolId)).toBe(95);
    });

    it("nobody approves their own order: an approver over their own limit waits for another", async () => {
      const account = await newAccount();
      const first = await join(account, "approver", { orderLimit: 10 });
      const second = await join(account, "approver");
      const toolId = await newTool();
      const order = orderSchema.parse((await path.place({ buyer: first, toolId, quantity: 1 })).json());
      expect(order.status).toBe("awaiting_approval");
      expect((await first.client.post(`/api/account/orders/${order._id}/approve`, {})).json().error).toBe("OWN_ORDER");
      expect((await first.client.post(`/api/account/orders/${order._id}/reject`, { reason: "mine" })).json().error).toBe("OWN_ORDER");
      expect((await second.client.post(`/api/account/orders/${order._id}/approve`, {})).statusCode).toBe(200);
    });

    it("the month's spend counts the month's earlier orders, not cancelled ones nor last month's", async () => {
      const account = await newAccount();
      const buyer = await join(account, "buyer", { monthlyLimit: 200 });
      await join(account, "approver");
      const toolId = await newTool();
      const start = now;
      try {
        // Last month: $86.40 that does not count.
        now = new Date(start.getTime() - 40 * 86_400_000);
        expect(orderSchema.parse((await path.place({ buyer, toolId, quantity: 2 })).json()).status).toBe("pending");
      } finally {
        now = start;
      }
      // This month: $86.40, then $86.40 (172.80 ≤ 200), then $43.20 → 216 > 200 waits; with the first cancelled, $43.20 fits (172.80), the next does not.
      const first = orderSchema.parse((await path.place({ buyer, toolId, quantity: 2 })).json());
      expect(first.status).toBe("pending");
      expect(orderSchema.parse((await path.place({ buyer, toolId, quantity: 2 })).json()).status).toBe("pending");
      const third = orderSchema.parse((await path.place({ buyer, toolId, quantity: 1 })).json());
      expect(third.status).toBe("awaiting_approval");
      expect((await buyer.client.delete(`/api/order/${first._id}`)).statusCode).toBe(200);
      expect(orderSchema.parse((await path.place({ buyer, toolId, quantity: 1 })).json()).status).toBe("pending");
      expect(orderSchema.parse((await path.place({ buyer, toolId, quantity: 1 })).json()).status).toBe("awaiting_approval");
    });
  });

  it("an invoice unpaid past its due date puts the account on hold: terms 409 ACCOUNT_ON_HOLD (the clock moved, not waited for)", async () => {
    const account = await newAccount({ terms: "net15", creditLimit: 10_000 });
    const buyer = await join(account, "buyer");
    const toolId = await newTool();
    const place = () => PATHS[1]?.place({ buyer, toolId, quantity: 1, paymentMethod: "terms" }) as Promise<Res>;
    const order = orderSchema.parse((await place()).json());
    expect(order.dueDate).toBe(addDays(storeDate(now), 15));
    const start = now;
    try {
      now = new Date(start.getTime() + 15 * 86_400_000);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json().onHold).toBe(false);
      now = new Date(start.getTime() + 17 * 86_400_000);
      expect((await admin.get(`/api/admin/accounts/${account._id}`)).json().onHold).toBe(true);
      expect((await buyer.client.get("/api/account")).json().onHold).toBe(true);
      const held = await place();
      expect(held.statusCode).toBe(409);
      expect(held.json().error).toBe("ACCOUNT_ON_HOLD");
      // Not on terms: still taken.
      expect((await PATHS[1]?.place({ buyer, toolId, quantity: 1 }))?.statusCode).toBe(201);
    } finally {
      now = start;
    }
  });

  it("racing terms orders against one credit limit: exactly the ones that fit succeed", async () => {
    // Each order is $43.20 (one $40 tool, 8 % tax); $500 holds 11 of them.
    const account = await newAccount({ terms: "net30", creditLimit: 500 });
    const buyers = await Promise.all(Array.from({ length: 16 }, () => join(account, "buyer")));
    const toolId = await newTool();
    const results = await Promise.all(
      buyers.map((buyer, i) => (PATHS[i % 2] as Path).place({ buyer, toolId, quantity: 1, paymentMethod: "terms" })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(11);
    expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().error)).toEqual(Array(5).fill("CREDIT_LIMIT"));
    expect((await admin.get(`/api/admin/accounts/${account._id}`)).json()).toMatchObject({ creditUsed: 475.2, creditAvailable: 24.8 });
  });
});
