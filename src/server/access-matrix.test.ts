/**
 * Who may call what, for every /api route outside the console (admin/matrix.test.ts walks
 * /api/admin/*). The routes are collected with an onRoute hook as the app registers them, and
 * each must be in ACCESS below with its class; a route nobody classified, or a classified one
 * the app no longer has, fails the first test by name. Every classified route is then called
 * for real by five callers, with bodies that pass validation, and the exact status asserted:
 *
 * | class       | visitor | customer (cookie) | customer (bearer) | other customer     | admin            |
 * |-------------|---------|-------------------|-------------------|--------------------|------------------|
 * | public      | ok      | ok                | ok                | ok                 | ok               |
 * | signed-in   | 401     | ok, own data      | ok, own data      | ok, own data only  | ok, own data     |
 * | owner       | 401     | ok                | ok                | 404, as if none    | 404, as if none  |
 * | owner+admin | 401     | ok                | ok                | 404, as if none    | ok               |
 * | self        | 401     | ok                | ok                | 403, as if none    | 403, as if none  |
 * | admin       | 401     | 403               | 403               | 403                | ok               |
 * | better-auth | its own tests (auth/*.test.ts)                                                          |
 *
 * "Owner" records are the customer's (their orders); the other customer and the admin act on
 * them. "Owner+admin" records are the owner's too, and the store's: an order's invoice. The personal routes are scoped to the caller even for an admin, who manages others'
 * orders in the console. A refused call changes nothing, and answers exactly as it does for a
 * record that does not exist (no oracle).
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cart, Order, Profile, Tool } from "../contract/schemas";
import { orders, stockAlerts, tools } from "./db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "./test-support";

const ADMIN = "access-admin@toolyard.example";
/** A second admin, who deletes their own account (the store keeps its first). */
const LEAVING_ADMIN = "access-admin-leaving@toolyard.example";
const PASSWORD = "Str0ng!pass";
const DELIVERY = { address: "1 Main St, Springfield", phone: "+1 555 0100", paymentMethod: "cash_on_delivery" as const };

type Access = "public" | "signed-in" | "owner" | "owner+admin" | "self" | "admin" | "better-auth";
type CallerName = "visitor" | "customer" | "customer by bearer token" | "other customer" | "admin";

interface Req {
  method: string;
  url: string;
  payload?: object;
  headers?: Record<string, string>;
}
type Res = Awaited<ReturnType<Client["request"]>>;

interface Account {
  email: string;
  /** The account's cookie session. */
  client: Client;
  /** A tool only this account puts in its cart: another account's cart never shows it. */
  marker: string;
}

interface Caller {
  name: CallerName;
  /** Who the caller is signed in as; none for a visitor. */
  account?: Account;
  send: (request: Req) => Promise<Res>;
}

interface Ctx {
  t: TestApp;
  admin: Client;
  /** The customer whose records the others try: the owner of `owner` routes' records. */
  owner: Account;
  /** Every account's marker (the cart test looks for the others' in a caller's cart). */
  markers: Set<string>;
  /** A tool with plenty of stock, to order and put in carts. */
  stocked: string;
  /** Per account (by e-mail): the order it placed last. */
  lastOrder: Map<string, string>;
  newTool: (overrides?: { availableQuantity?: number }) => Promise<Tool>;
  /** The trade account whose admin the owner is (it has no rules: the owner's other orders are as anyone's). */
  tradeAccount: string;
  /** A new customer, signed in, and (with a role) a member of the owner's trade account. */
  newMember: (role?: "buyer" | "approver", limits?: { orderLimit?: number }) => Promise<{ email: string; client: Client; userId: string }>;
}

interface Spec {
  access: Exclude<Access, "better-auth">;
  /** The status of an allowed call. */
  ok: number;
  /**
   * The target the call acts on, made anew before each caller's call: an owner route's record
   * (the owner's order), a self route's e-mail, an admin route's tool.
   */
  record?: (ctx: Ctx) => Promise<string>;
  /** The request; it may first prepare the caller's own state (fill its cart) with `who.send`. */
  request: (ctx: Ctx, who: Caller, record: string) => Req | Promise<Req>;
  /** Checks an allowed answer: it is the caller's own, and did what it says. */
  check?: (ctx: Ctx, who: Caller, res: Res, record: string) => void | Promise<void>;
  /** After a refused call: nothing changed. */
  unchanged?: (ctx: Ctx, record: string) => Promise<void>;
  /** The call ends the caller's account: it gets callers of its own, made for it. */
  consumesCallers?: true;
}
type Classified = { access: "better-auth"; why: string } | Spec;

const json = <T>(res: Res) => res.json() as T;
const get = (url: string): Req => ({ method: "GET", url });
const putLine = (who: Caller, toolId: string) => who.send({ method: "PUT", url: `/api/cart/lines/${toolId}`, payload: { quantity: 1 } });
/** What only the owner's orders hold: another caller's answer about one never shows it. */
const OWNER_NOTE = "Leave it with the owner's neighbour";
/** A pending order of the owner's, through the checkout so that it has the owner's address, phone and note. */
const ownOrder = async (ctx: Ctx) => {
  expect((await ctx.owner.client.put(`/api/cart/lines/${ctx.stocked}`, { quantity: 1 })).statusCode).toBe(200);
  const res = await ctx.owner.client.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, note: OWNER_NOTE }, headers: { "idempotency-key": randomUUID() } });
  expect(res.statusCode).toBe(201);
  return json<{ order: Order }>(res).order._id;
};
/** A quote of the owner's (its message says whose), answered by the store when `sent`. */
const ownQuote = async (ctx: Ctx, sent: boolean) => {
  const res = await ctx.owner.client.post("/api/quotes", { lines: [{ toolId: ctx.stocked, quantity: 1 }], message: OWNER_NOTE });
  expect(res.statusCode, res.body).toBe(201);
  const id = json<{ _id: string }>(res)._id;
  if (sent) {
    const revision = await ctx.admin.post(`/api/admin/quotes/${id}/revisions`, {
      lines: [{ toolId: ctx.stocked, quantity: 1, unitPrice: 9 }],
      shipping: 0,
      validUntil: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(revision.statusCode, revision.body).toBe(201);
  }
  return id;
};
/** An order of a buyer in the owner's trade account, over the buyer's limit: it waits for the owner (the account's admin) to approve it. */
const waitingOrder = async (ctx: Ctx) => {
  const buyer = await ctx.newMember("buyer", { orderLimit: 1 });
  const res = await buyer.client.post("/api/order", { toolId: ctx.stocked, quantity: 1 });
  expect(res.statusCode, res.body).toBe(201);
  expect(json<Order>(res).status).toBe("awaiting_approval");
  return json<Order>(res)._id;
};
const waitingStatus = async (ctx: Ctx, id: string) => (await ctx.t.app.store.db.select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]?.status;
const orderStatus = async (ctx: Ctx, id: string) => json<Order>(await ctx.owner.client.get(`/api/order/${id}`)).status;
const toolRow = async (ctx: Ctx, id: string) => (await ctx.t.app.store.db.select().from(tools).where(eq(tools.id, id)))[0];
const publicGet = (url: string, ok = 200): Spec => ({ access: "public", ok, request: () => get(url) });

/**
 * Every /api route outside /api/admin, by method and URL as the app registers it. A HEAD route
 * is listed only when it has no GET twin (the GET's own HEAD shares its guard).
 */
const ACCESS: Record<string, Classified> = {
  "GET /api/auth/*": { access: "better-auth", why: "better-auth, own tests (auth/auth.test.ts, auth/gateway.test.ts)" },
  "POST /api/auth/*": { access: "better-auth", why: "better-auth, own tests (auth/auth.test.ts, auth/gateway.test.ts)" },

  "GET /api/health": publicGet("/api/health"),
  "GET /api/sign-in-options": publicGet("/api/sign-in-options"),
  "GET /api/docs": publicGet("/api/docs"),
  "HEAD /api/docs/": { access: "public", ok: 200, request: () => ({ method: "HEAD", url: "/api/docs/" }) },
  "GET /api/docs/static/index.html": publicGet("/api/docs/static/index.html", 302),
  "GET /api/docs/static/swagger-initializer.js": publicGet("/api/docs/static/swagger-initializer.js"),
  "GET /api/docs/static/*": publicGet("/api/docs/static/swagger-ui.css"),
  "GET /api/docs/json": publicGet("/api/docs/json"),
  "GET /api/docs/yaml": publicGet("/api/docs/yaml"),
  "GET /api/docs/*": publicGet("/api/docs/logo.svg"),
  "GET /api/tool": publicGet("/api/tool"),
  "GET /api/tool/suggest": publicGet("/api/tool/suggest?q=access"),
  "GET /api/tool/facets": publicGet("/api/tool/facets"),
  "GET /api/tool/:id": {
    access: "public",
    ok: 200,
    request: (ctx) => get(`/api/tool/${ctx.stocked}`),
    check: (ctx, _who, res) => expect(json<Tool>(res)._id).toBe(ctx.stocked),
  },
  "GET /api/review": publicGet("/api/review"),
  "GET /api/tool/:id/reviews": { access: "public", ok: 200, request: (ctx) => get(`/api/tool/${ctx.stocked}/reviews`) },
  "GET /api/tool/:id/reviews/summary": { access: "public", ok: 200, request: (ctx) => get(`/api/tool/${ctx.stocked}/reviews/summary`) },
  "GET /api/payments/methods": publicGet("/api/payments/methods"),
  // Stripe's, verified by its signature (payments/payments.test.ts); without card payments set up, none has it.
  "POST /api/payments/stripe/webhook": {
    access: "public",
    ok: 404,
    request: () => ({ method: "POST", url: "/api/payments/stripe/webhook", payload: { id: "evt_access" }, headers: { "stripe-signature": "t=1,v1=00" } }),
  },

  "POST /api/tool": {
    access: "admin",
    ok: 201,
    record: async () => `Access tool ${randomUUID()}`,
    request: (_ctx, _who, name) => ({
      method: "POST",
      url: "/api/tool",
      payload: { name, image: "/images/tools/jigsaw.svg", price: 10, availableQuantity: 5, minimumQuantity: 1, description: "Made by the access matrix.", category: "hand-tools" },
    }),
    check: (_ctx, _who, res, name) => expect(json<Tool>(res).name).toBe(name),
    unchanged: async (ctx, name) => expect(await ctx.t.app.store.db.select().from(tools).where(eq(tools.name, name))).toEqual([]),
  },
  "PUT /api/tool/:id": {
    access: "admin",
    ok: 200,
    record: async (ctx) => (await ctx.newTool())._id,
    request: (_ctx, _who, id) => ({ method: "PUT", url: `/api/tool/${id}`, payload: { price: 42 } }),
    check: (_ctx, _who, res) => expect(json<Tool>(res).price).toBe(42),
    unchanged: async (ctx, id) => expect((await toolRow(ctx, id))?.priceCents).toBe(1000),
  },
  "DELETE /api/tool/:id": {
    access: "admin",
    ok: 204,
    record: async (ctx) => (await ctx.newTool())._id,
    request: (_ctx, _who, id) => ({ method: "DELETE", url: `/api/tool/${id}` }),
    check: async (ctx, _who, _res, id) => expect((await ctx.admin.get(`/api/tool/${id}`)).statusCode).toBe(404),
    unchanged: async (ctx, id) => expect((await ctx.admin.get(`/api/tool/${id}`)).statusCode).toBe(200),
  },

  "PUT /api/user/:email": {
    access: "self",
    ok: 200,
    record: async (ctx) => ctx.owner.email,
    request: (_ctx, _who, email) => ({ method: "PUT", url: `/api/user/${encodeURIComponent(email)}`, payload: { email } }),
    check: async (ctx, who, res) => {
      const { token } = json<{ token: string }>(res);
      // The token is the owner's: it reads the owner's profile.
      const profile = await ctx.t.app.inject({ method: "GET", url: "/api/me/profile", headers: { authorization: `Bearer ${token}` } });
      expect(json<Profile>(profile).email).toBe(who.account?.email);
    },
  },

  "POST /api/quotes": {
    access: "signed-in",
    ok: 201,
    request: (ctx) => ({ method: "POST", url: "/api/quotes", payload: { lines: [{ toolId: ctx.stocked, quantity: 1 }], message: "Access matrix" } }),
    check: async (ctx, who, res) => {
      const quote = json<{ _id: string; lines: { toolId: string }[] }>(res);
      expect(quote.lines.map((l) => l.toolId)).toEqual([ctx.stocked]);
      expect((await who.send(get(`/api/quotes/${quote._id}`))).statusCode).toBe(200);
    },
  },
  "GET /api/quotes": {
    access: "signed-in",
    ok: 200,
    request: () => get("/api/quotes"),
    // Only the caller's own: never the owner's quote (its message says whose it is).
    check: (ctx, who, res) => {
      if (who.account?.email !== ctx.owner.email) expect(json<{ message: string }[]>(res).map((q) => q.message)).not.toContain(OWNER_NOTE);
    },
  },
  "GET /api/quotes/:id": {
    access: "owner",
    ok: 200,
    record: (ctx) => ownQuote(ctx, false),
    request: (_ctx, _who, id) => get(`/api/quotes/${id}`),
    check: (_ctx, _who, res, id) => expect(json<{ _id: string; message: string }>(res)).toMatchObject({ _id: id, message: OWNER_NOTE }),
  },
  "POST /api/quotes/:id/accept": {
    access: "owner",
    ok: 201,
    record: (ctx) => ownQuote(ctx, true),
    request: (_ctx, _who, id) => ({ method: "POST", url: `/api/quotes/${id}/accept`, payload: { revision: 1, paymentMethod: "cash_on_delivery" }, headers: { "idempotency-key": randomUUID() } }),
    check: async (ctx, _who, res, id) => {
      const { order } = json<{ order: Order }>(res);
      expect(json<{ orderId: string }>(await ctx.owner.client.get(`/api/quotes/${id}`)).orderId).toBe(order._id);
    },
    unchanged: async (ctx, id) => expect(json<{ status: string }>(await ctx.owner.client.get(`/api/quotes/${id}`)).status).toBe("sent"),
  },
  "POST /api/quotes/:id/decline": {
    access: "owner",
    ok: 200,
    record: (ctx) => ownQuote(ctx, true),
    request: (_ctx, _who, id) => ({ method: "POST", url: `/api/quotes/${id}/decline`, payload: {} }),
    check: (_ctx, _who, res) => expect(json<{ status: string }>(res).status).toBe("declined"),
    unchanged: async (ctx, id) => expect(json<{ status: string }>(await ctx.owner.client.get(`/api/quotes/${id}`)).status).toBe("sent"),
  },
  "GET /api/quotes/:id/pdf": {
    access: "owner+admin",
    ok: 200,
    record: (ctx) => ownQuote(ctx, true),
    request: (_ctx, _who, id) => get(`/api/quotes/${id}/pdf?revision=1`),
    check: (_ctx, _who, res) => {
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.body.startsWith("%PDF-")).toBe(true);
    },
  },

  "GET /api/account": {
    access: "owner",
    ok: 200,
    // The record is the account itself: nobody else's answer names it.
    record: async (ctx) => ctx.tradeAccount,
    request: () => get("/api/account"),
    check: (ctx, _who, res) => expect(json<{ _id: string; role: string }>(res)).toMatchObject({ _id: ctx.tradeAccount, role: "admin" }),
  },
  "POST /api/account/apply": {
    access: "signed-in",
    ok: 201,
    request: () => ({ method: "POST", url: "/api/account/apply", payload: { name: "Access Matrix Ltd" } }),
    check: (_ctx, who, res) => expect(json<{ email: string }>(res).email).toBe(who.account?.email),
  },
  "POST /api/account/members": {
    access: "owner",
    ok: 201,
    record: async (ctx) => (await ctx.newMember()).email,
    // A record that does not exist is an id: as an e-mail, one no customer has.
    request: (_ctx, _who, email) => ({ method: "POST", url: "/api/account/members", payload: { email: email.includes("@") ? email : `${email}@example.com`, role: "buyer", orderLimit: 5 } }),
    check: (_ctx, _who, res, email) => expect(json<{ members: { email: string }[] }>(res).members.map((m) => m.email)).toContain(email),
    unchanged: async (ctx, email) =>
      expect(json<{ members: { email: string }[] }>(await ctx.admin.get(`/api/admin/accounts/${ctx.tradeAccount}`)).members.map((m) => m.email)).not.toContain(email),
  },
  "DELETE /api/account/members/:userId": {
    access: "owner",
    ok: 200,
    record: async (ctx) => (await ctx.newMember("buyer")).userId,
    request: (_ctx, _who, userId) => ({ method: "DELETE", url: `/api/account/members/${userId}` }),
    check: (_ctx, _who, res, userId) => expect(json<{ members: { userId: string }[] }>(res).members.map((m) => m.userId)).not.toContain(userId),
    unchanged: async (ctx, userId) =>
      expect(json<{ members: { userId: string }[] }>(await ctx.admin.get(`/api/admin/accounts/${ctx.tradeAccount}`)).members.map((m) => m.userId)).toContain(userId),
  },
  // The owner is their account's last admin, so their leaving is refused (409): a member's leaving is accounts/accounts.test.ts's.
  "POST /api/account/leave": {
    access: "owner",
    ok: 409,
    record: async (ctx) => ctx.tradeAccount,
    request: () => ({ method: "POST", url: "/api/account/leave", payload: {} }),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("LAST_ADMIN"),
  },
  "GET /api/account/orders": {
    access: "owner",
    ok: 200,
    record: async (ctx) => ctx.tradeAccount,
    request: () => get("/api/account/orders"),
    check: (_ctx, _who, res) => expect(Array.isArray(res.json())).toBe(true),
  },
  "GET /api/account/invoices": {
    access: "owner",
    ok: 200,
    record: async (ctx) => ctx.tradeAccount,
    request: () => get("/api/account/invoices"),
    check: (_ctx, _who, res) => expect(Array.isArray(res.json())).toBe(true),
  },
  // Without card payments set up the member gets as far as the invoices named (none is open here):
  // the paying itself is accounts/card-payments.test.ts's, against the stand-in Stripe.
  "POST /api/account/invoices/pay": {
    access: "owner",
    ok: 400,
    record: async (ctx) => ctx.tradeAccount,
    request: () => ({ method: "POST", url: "/api/account/invoices/pay", payload: { invoiceNumbers: ["INV-1999-000001"] }, headers: { "idempotency-key": randomUUID() } }),
    check: (_ctx, _who, res) => expect(json<{ details: { path: string }[] }>(res).details[0]?.path).toBe("body.invoiceNumbers.0"),
  },
  "GET /api/account/statement": {
    access: "owner",
    ok: 200,
    record: async (ctx) => ctx.tradeAccount,
    request: () => get("/api/account/statement"),
    check: (_ctx, _who, res) => expect(json<{ balance: number; lines: unknown[] }>(res)).toMatchObject({ balance: expect.any(Number), lines: expect.any(Array) }),
  },
  "GET /api/account/statement.pdf": {
    access: "owner",
    ok: 200,
    record: async (ctx) => ctx.tradeAccount,
    request: () => get("/api/account/statement.pdf"),
    check: (_ctx, _who, res) => {
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.body.startsWith("%PDF-")).toBe(true);
    },
  },
  "POST /api/account/orders/:id/approve": {
    access: "owner",
    ok: 200,
    record: (ctx) => waitingOrder(ctx),
    request: (_ctx, _who, id) => ({ method: "POST", url: `/api/account/orders/${id}/approve`, payload: {} }),
    check: (_ctx, _who, res, id) => expect(json<Order>(res)).toMatchObject({ _id: id, status: "pending" }),
    unchanged: async (ctx, id) => expect(await waitingStatus(ctx, id)).toBe("awaiting_approval"),
  },
  "POST /api/account/orders/:id/reject": {
    access: "owner",
    ok: 200,
    record: (ctx) => waitingOrder(ctx),
    request: (_ctx, _who, id) => ({ method: "POST", url: `/api/account/orders/${id}/reject`, payload: { reason: "Not this month" } }),
    check: (_ctx, _who, res, id) => expect(json<Order>(res)).toMatchObject({ _id: id, status: "cancelled" }),
    unchanged: async (ctx, id) => expect(await waitingStatus(ctx, id)).toBe("awaiting_approval"),
  },

  "GET /api/order/:id": {
    access: "owner",
    ok: 200,
    record: ownOrder,
    request: (_ctx, _who, id) => get(`/api/order/${id}`),
    check: (_ctx, _who, res, id) => expect(json<Order>(res)).toMatchObject({ _id: id, status: "pending", address: DELIVERY.address, note: OWNER_NOTE }),
  },
  "DELETE /api/order/:id": {
    access: "owner",
    ok: 200,
    record: ownOrder,
    request: (_ctx, _who, id) => ({ method: "DELETE", url: `/api/order/${id}` }),
    check: (_ctx, _who, res, id) => expect(json<Order>(res)).toMatchObject({ _id: id, status: "cancelled" }),
    unchanged: async (ctx, id) => expect(await orderStatus(ctx, id)).toBe("pending"),
  },

  // A return (issue 40): the owner's pending order cannot be returned (409), which still shows the owner got past the guard.
  "POST /api/order/:id/returns": {
    access: "owner",
    ok: 409,
    record: ownOrder,
    request: (ctx, _who, id) => ({ method: "POST", url: `/api/order/${id}/returns`, payload: { lines: [{ toolId: ctx.stocked, quantity: 1 }], reason: "Checked by the access matrix." } }),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("RETURN_NOT_ALLOWED"),
  },

  "GET /api/order/:id/invoice": {
    access: "owner+admin",
    ok: 200,
    record: ownOrder,
    request: (_ctx, _who, id) => get(`/api/order/${id}/invoice`),
    check: (_ctx, _who, res) => {
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.body.startsWith("%PDF-")).toBe(true);
    },
  },

  "GET /api/order": {
    access: "signed-in",
    ok: 200,
    request: async (ctx, who) => {
      if (who.account) {
        const res = await who.send({ method: "POST", url: "/api/order", payload: { toolId: ctx.stocked, quantity: 1 } });
        expect(res.statusCode).toBe(201);
        ctx.lastOrder.set(who.account.email, json<Order>(res)._id);
      }
      return get("/api/order");
    },
    check: (ctx, who, res) => {
      const ids = json<Order[]>(res).map((o) => o._id);
      for (const [email, id] of ctx.lastOrder) {
        if (email === who.account?.email) expect(ids, "the caller's own newest order").toContain(id);
        else expect(ids, `${email}'s order in ${who.account?.email ?? "?"}'s list`).not.toContain(id);
      }
    },
  },
  "POST /api/order": {
    access: "signed-in",
    ok: 201,
    request: (ctx) => ({ method: "POST", url: "/api/order", payload: { toolId: ctx.stocked, quantity: 1 } }),
    check: async (ctx, who, res) => {
      const { _id } = json<Order>(res);
      expect((await who.send(get(`/api/order/${_id}`))).statusCode).toBe(200);
      if (who.account?.email !== ctx.owner.email) expect((await ctx.owner.client.get(`/api/order/${_id}`)).statusCode).toBe(404);
    },
  },
  "POST /api/checkout": {
    access: "signed-in",
    ok: 201,
    request: async (ctx, who) => {
      if (who.account) expect((await putLine(who, ctx.stocked)).statusCode).toBe(200);
      return { method: "POST", url: "/api/checkout", payload: DELIVERY, headers: { "idempotency-key": randomUUID() } };
    },
    check: async (ctx, who, res) => {
      const { order } = json<{ order: Order }>(res);
      expect(order.lines.map((l) => l.toolId)).toContain(ctx.stocked);
      expect((await who.send(get(`/api/order/${order._id}`))).statusCode).toBe(200);
    },
  },
  "GET /api/cart": {
    access: "signed-in",
    ok: 200,
    request: async (_ctx, who) => {
      if (who.account) expect((await putLine(who, who.account.marker)).statusCode).toBe(200);
      return get("/api/cart");
    },
    check: (ctx, who, res) => {
      const inCart = json<Cart>(res).lines.map((l) => l.toolId);
      for (const marker of ctx.markers) {
        if (marker === who.account?.marker) expect(inCart, "the caller's own line").toContain(marker);
        else expect(inCart, "another account's line").not.toContain(marker);
      }
    },
  },
  "PUT /api/cart/lines/:toolId": {
    access: "signed-in",
    ok: 200,
    request: (ctx) => ({ method: "PUT", url: `/api/cart/lines/${ctx.stocked}`, payload: { quantity: 2 } }),
    check: (ctx, _who, res) => expect(json<Cart>(res).lines).toContainEqual(expect.objectContaining({ toolId: ctx.stocked, quantity: 2 })),
  },
  "DELETE /api/cart/lines/:toolId": {
    access: "signed-in",
    ok: 200,
    request: async (ctx, who) => {
      if (who.account) expect((await putLine(who, ctx.stocked)).statusCode).toBe(200);
      return { method: "DELETE", url: `/api/cart/lines/${ctx.stocked}` };
    },
    check: (ctx, _who, res) => expect(json<Cart>(res).lines.map((l) => l.toolId)).not.toContain(ctx.stocked),
  },
  "DELETE /api/cart": {
    access: "signed-in",
    ok: 200,
    request: async (ctx, who) => {
      if (who.account) expect((await putLine(who, ctx.stocked)).statusCode).toBe(200);
      return { method: "DELETE", url: "/api/cart" };
    },
    check: async (ctx, who, res) => {
      expect(json<Cart>(res)).toMatchObject({ lines: [], count: 0 });
      // Only the caller's cart: the owner's still holds a line when someone else empties theirs.
      if (who.account?.email !== ctx.owner.email) {
        expect((await putLine({ name: "customer", account: ctx.owner, send: (r) => ctx.owner.client.request(r) }, ctx.stocked)).statusCode).toBe(200);
        expect((await who.send({ method: "DELETE", url: "/api/cart" })).statusCode).toBe(200);
        expect(json<Cart>(await ctx.owner.client.get("/api/cart")).lines.map((l) => l.toolId)).toContain(ctx.stocked);
      }
    },
  },
  "POST /api/cart/estimate": {
    access: "signed-in",
    ok: 200,
    request: async (_ctx, who) => {
      if (who.account) expect((await putLine(who, who.account.marker)).statusCode).toBe(200);
      return { method: "POST", url: "/api/cart/estimate", payload: { country: "US", region: "NY", postalCode: "11201" } };
    },
    // The caller's own cart is priced: the same subtotal as their cart shows.
    check: async (_ctx, who, res) => expect(json<Cart>(res).subtotal).toBe(json<Cart>(await who.send(get("/api/cart"))).subtotal),
  },
  "POST /api/cart/merge": {
    access: "signed-in",
    ok: 200,
    request: (ctx) => ({ method: "POST", url: "/api/cart/merge", payload: { lines: [{ toolId: ctx.stocked, quantity: 1 }] } }),
    check: (ctx, _who, res) => expect(json<Cart>(res).lines.map((l) => l.toolId)).toContain(ctx.stocked),
  },

  "POST /api/review": {
    access: "signed-in",
    ok: 201,
    request: (_ctx, who) => ({ method: "POST", url: "/api/review", payload: { name: who.name, rating: 5, description: "Checked by the access matrix." } }),
    check: (_ctx, who, res) => expect(json<{ name: string }>(res).name).toBe(who.name),
  },

  // A tool's review needs a delivered order of it, which no caller of the matrix has (tool-reviews.test.ts has those who do).
  "POST /api/tool/:id/reviews": {
    access: "signed-in",
    ok: 403,
    request: (ctx) => ({ method: "POST", url: `/api/tool/${ctx.stocked}/reviews`, payload: { rating: 5, body: "Checked by the access matrix." } }),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("NOT_A_BUYER"),
  },
  "GET /api/tool/:id/reviews/eligibility": {
    access: "signed-in",
    ok: 200,
    request: (ctx) => get(`/api/tool/${ctx.stocked}/reviews/eligibility`),
    check: (_ctx, _who, res) => expect(json<{ canReview: boolean }>(res)).toEqual({ canReview: false, reason: "NOT_A_BUYER" }),
  },

  // Back-in-stock alerts (issue 42): a visitor's request and the mails' links are anyone's (the token is the proof).
  "POST /api/tool/:id/stock-alerts": {
    access: "public",
    ok: 202,
    record: async (ctx) => (await ctx.newTool({ availableQuantity: 0 }))._id,
    request: (_ctx, _who, id) => ({ method: "POST", url: `/api/tool/${id}/stock-alerts`, payload: { email: uniqueEmail("access-alert") } }),
    check: (_ctx, _who, res, id) => expect(json(res)).toEqual({ toolId: id, status: "confirmation_sent" }),
  },
  "POST /api/stock-alerts/confirm": {
    access: "public",
    ok: 400,
    request: () => ({ method: "POST", url: "/api/stock-alerts/confirm", payload: { token: "not.a.token" } }),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("INVALID_TOKEN"),
  },
  "GET /api/stock-alerts/unsubscribe": {
    access: "public",
    ok: 400,
    request: () => get("/api/stock-alerts/unsubscribe?token=not.a.token"),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("INVALID_TOKEN"),
  },
  "POST /api/stock-alerts/unsubscribe": {
    access: "public",
    ok: 400,
    request: () => ({ method: "POST", url: "/api/stock-alerts/unsubscribe", payload: { token: "not.a.token" } }),
    check: (_ctx, _who, res) => expect(json<{ error: string }>(res).error).toBe("INVALID_TOKEN"),
  },
  // The signed-in customer's own address, one click.
  "GET /api/me/stock-alerts/:toolId": {
    access: "signed-in",
    ok: 200,
    request: (ctx) => get(`/api/me/stock-alerts/${ctx.stocked}`),
    check: (ctx, _who, res) => expect(json(res)).toEqual({ toolId: ctx.stocked, status: "none" }),
  },
  "PUT /api/me/stock-alerts/:toolId": {
    access: "signed-in",
    ok: 200,
    record: async (ctx) => (await ctx.newTool({ availableQuantity: 0 }))._id,
    request: (_ctx, _who, id) => ({ method: "PUT", url: `/api/me/stock-alerts/${id}`, payload: {} }),
    check: async (ctx, who, res, id) => {
      expect(json(res)).toEqual({ toolId: id, status: "subscribed" });
      const [row] = await ctx.t.app.store.db.select().from(stockAlerts).where(eq(stockAlerts.toolId, id));
      expect(row?.email).toBe(who.account?.email.toLowerCase());
    },
    unchanged: async (ctx, id) => expect(await ctx.t.app.store.db.select().from(stockAlerts).where(eq(stockAlerts.toolId, id))).toEqual([]),
  },
  "DELETE /api/me/stock-alerts/:toolId": {
    access: "signed-in",
    ok: 200,
    request: (ctx) => ({ method: "DELETE", url: `/api/me/stock-alerts/${ctx.stocked}` }),
    check: (ctx, _who, res) => expect(json(res)).toEqual({ toolId: ctx.stocked, status: "none" }),
  },

  "GET /api/me/profile": {
    access: "signed-in",
    ok: 200,
    request: () => get("/api/me/profile"),
    check: (_ctx, who, res) => expect(json<Profile>(res).email).toBe(who.account?.email),
  },
  "PUT /api/me/profile": {
    access: "signed-in",
    ok: 200,
    request: (_ctx, who) => ({ method: "PUT", url: "/api/me/profile", payload: { address: `${who.name}'s street 1`, phone: "+1 555 0199" } }),
    check: async (ctx, who, res) => {
      expect(json<Profile>(res)).toMatchObject({ email: who.account?.email, address: `${who.name}'s street 1` });
      if (who.account?.email !== ctx.owner.email) {
        expect(json<Profile>(await ctx.owner.client.get("/api/me/profile")).address).not.toBe(`${who.name}'s street 1`);
      }
    },
  },
  "POST /api/me/delete-account": {
    access: "signed-in",
    ok: 200,
    consumesCallers: true,
    request: () => ({ method: "POST", url: "/api/me/delete-account", payload: { password: PASSWORD } }),
    check: async (_ctx, who, res) => {
      expect(res.json()).toEqual({ deleted: true });
      expect((await who.send(get("/api/me/profile"))).statusCode).toBe(401);
    },
  },
};

const GUARDED: ReadonlySet<Access> = new Set(["signed-in", "owner", "owner+admin", "self", "admin"]);

/** What `caller` gets from a route of this class: the allowed status, or the refusal. */
function expectedStatus(access: Spec["access"], caller: CallerName, ok: number): number {
  if (access === "public") return ok;
  if (caller === "visitor") return 401;
  if (access === "signed-in") return ok;
  if (access === "admin") return caller === "admin" ? ok : 403;
  if (access === "owner+admin") return caller === "other customer" ? 404 : ok;
  if (caller === "customer" || caller === "customer by bearer token") return ok;
  return access === "owner" ? 404 : 403;
}
const REFUSAL_CODE: Record<number, string> = { 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND" };

describe.each(drivers())("every /api route outside the console by caller on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let ctx: Ctx;
  let callers: Caller[];
  const markers = new Set<string>();
  const registered: { method: string; url: string }[] = [];
  let nextAddress = 10;

  const newTool: Ctx["newTool"] = async (overrides = {}) => {
    const res = await admin.post("/api/tool", {
      name: `Access tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 10,
      availableQuantity: 1000,
      minimumQuantity: 1,
      description: "For the access matrix.",
      category: "hand-tools",
      ...overrides,
    });
    expect(res.statusCode).toBe(201);
    return json<Tool>(res);
  };

  const account = async (name: string, email = uniqueEmail("access")): Promise<Account> => {
    const client = new Client(t.app, `10.41.0.${nextAddress++}`);
    expect((await client.signUp(name, email, PASSWORD)).statusCode).toBe(200);
    const { _id: marker } = await newTool();
    markers.add(marker);
    return { email, client, marker };
  };
  const cookieCaller = (name: CallerName, a: Account): Caller => ({ name, account: a, send: (r) => a.client.request(r) });
  const bearerCaller = async (a: Account): Promise<Caller> => {
    const res = await a.client.put(`/api/user/${encodeURIComponent(a.email)}`, { email: a.email });
    expect(res.statusCode).toBe(200);
    const { token } = json<{ token: string }>(res);
    // An API client: no cookie and no Origin, only the token.
    const client = new Client(t.app, `10.41.0.${nextAddress++}`, null);
    return { name: "customer by bearer token", account: a, send: (r) => client.request({ ...r, headers: { ...r.headers, authorization: `Bearer ${token}` } }) };
  };
  const visitor = (): Caller => {
    const client = new Client(t.app, `10.41.0.${nextAddress++}`);
    return { name: "visitor", send: (r) => client.request(r) };
  };

  beforeAll(async () => {
    t = await startTestApp(
      driver,
      { ADMIN_EMAILS: `${ADMIN},${LEAVING_ADMIN}`, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" },
      {
        onRoute: (route) => {
          if (!route.url.startsWith("/api/") || route.url.startsWith("/api/admin")) return;
          for (const method of Array.isArray(route.method) ? route.method : [route.method]) registered.push({ method, url: route.url });
        },
      },
    );
    admin = new Client(t.app, "10.41.0.1");
    expect((await admin.signUp("Admin", ADMIN, PASSWORD)).statusCode).toBe(200);
    const owner = await account("Owner");
    // The admin's own cart and orders: the admin is a caller like the others.
    const adminAccount: Account = { email: ADMIN, client: admin, marker: (await newTool())._id };
    markers.add(adminAccount.marker);
    const stocked = (await newTool({ availableQuantity: 100_000 }))._id;
    // The owner is the admin of a trade account without rules (issue 43): their /api/account routes are theirs alone.
    const created = await admin.post("/api/admin/accounts", { name: "Access Matrix Trading" });
    expect(created.statusCode).toBe(201);
    const tradeAccount = json<{ _id: string }>(created)._id;
    expect((await admin.post(`/api/admin/accounts/${tradeAccount}/members`, { email: owner.email, role: "admin" })).statusCode).toBe(201);
    const newMember: Ctx["newMember"] = async (role, limits = {}) => {
      const email = uniqueEmail("access-member");
      const client = new Client(t.app, `10.41.0.${nextAddress++}`);
      expect((await client.signUp("Member", email, PASSWORD)).statusCode).toBe(200);
      const userId = json<{ user: { id: string } }>(await client.get("/api/auth/get-session")).user.id;
      if (role) expect((await admin.post(`/api/admin/accounts/${tradeAccount}/members`, { email, role, ...limits })).statusCode).toBe(201);
      return { email, client, userId };
    };
    ctx = { t, admin, owner, markers, stocked, lastOrder: new Map(), newTool, tradeAccount, newMember };
    callers = [
      visitor(),
      cookieCaller("customer", owner),
      await bearerCaller(owner),
      cookieCaller("other customer", await account("Other")),
      cookieCaller("admin", adminAccount),
    ];
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Callers of their own for a route that ends the caller's account. */
  const freshCallers = async (): Promise<Caller[]> => {
    const leavingAdmin = new Client(t.app, `10.41.0.${nextAddress++}`);
    expect((await leavingAdmin.signUp("Leaving admin", LEAVING_ADMIN, PASSWORD)).statusCode).toBe(200);
    return [
      visitor(),
      cookieCaller("customer", await account("Leaving")),
      await bearerCaller(await account("Leaving by token")),
      cookieCaller("other customer", await account("Leaving too")),
      cookieCaller("admin", { email: LEAVING_ADMIN, client: leavingAdmin, marker: ctx.stocked }),
    ];
  };

  it("classifies every route the app registers, and registers every route it classifies", () => {
    const gets = new Set(registered.filter((r) => r.method === "GET").map((r) => r.url));
    const keys = new Set(registered.filter((r) => r.method !== "HEAD" || !gets.has(r.url)).map((r) => `${r.method} ${r.url}`));
    const unclassified = [...keys].filter((k) => !(k in ACCESS));
    const gone = Object.keys(ACCESS).filter((k) => !keys.has(k));
    expect(unclassified, `routes nobody classified (add them to ACCESS in access-matrix.test.ts): ${unclassified.join(", ")}`).toEqual([]);
    expect(gone, `classified routes the app no longer registers: ${gone.join(", ")}`).toEqual([]);
    expect(keys.size).toBeGreaterThan(30);
  });

  it.each(Object.entries(ACCESS).filter((entry): entry is [string, Spec] => entry[1].access !== "better-auth"))(
    "%s answers each caller as its class says",
    async (route, spec) => {
      const who = spec.consumesCallers ? await freshCallers() : callers;
      for (const caller of who) {
        const label = `${route} (${spec.access}) as ${caller.name}`;
        const record = spec.record ? await spec.record(ctx) : "";
        const expected = expectedStatus(spec.access, caller.name, spec.ok);
        const res = await caller.send(await spec.request(ctx, caller, record));
        expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(expected);
        if (expected === spec.ok) {
          await spec.check?.(ctx, caller, res, record);
          continue;
        }
        expect(res.json(), label).toMatchObject({ error: REFUSAL_CODE[expected] });
        await spec.unchanged?.(ctx, record);
        if (spec.access === "owner" || spec.access === "owner+admin" || spec.access === "self") {
          // Someone else's record answers exactly as one that does not exist, and tells nothing of it.
          expect(res.body, `${label} leaks the record`).not.toContain(record);
          for (const secret of [ctx.owner.email, DELIVERY.address, DELIVERY.phone, OWNER_NOTE]) expect(res.body, `${label} leaks the owner's data`).not.toContain(secret);
          const missing = spec.access === "self" ? uniqueEmail("nobody") : randomUUID();
          const none = await caller.send(await spec.request(ctx, caller, missing));
          expect({ status: none.statusCode, body: none.json() as unknown }, `${label}, compared with a record that does not exist`).toEqual({
            status: res.statusCode,
            body: res.json() as unknown,
          });
        }
      }
      // The automatic HEAD of a guarded GET is guarded the same way.
      const anonymous = who.find((c) => c.name === "visitor");
      if (GUARDED.has(spec.access) && route.startsWith("GET ") && anonymous) {
        const head = await anonymous.send({ ...(await spec.request(ctx, anonymous, spec.record ? await spec.record(ctx) : "")), method: "HEAD" });
        expect(head.statusCode, `HEAD of ${route} as a visitor`).toBe(401);
      }
    },
  );
});
