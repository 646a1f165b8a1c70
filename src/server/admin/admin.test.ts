/**
 * The console's API: tools, the stock ledger, orders, reviews, users, the summary and the
 * audit trail, on PGlite and on Postgres.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartSchema, type Order, type Review, type Tool } from "../../contract/schemas";
import { adminOrderSchema, adminSummarySchema, adminToolSchema, auditEntrySchema, stockLedgerSchema, type AdminOrder, type AdminTool, type AdminUser, type AuditEntry } from "../../contract/admin-schemas";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { creditNotes, tools } from "../db/schema";
import { ledgerStock } from "../stock/ledger";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "console-admin@toolyard.example";
const DELIVERY = { address: "1 Main St, Springfield", phone: "+1 555 0100", paymentMethod: "cash_on_delivery" as const };

describe.each(drivers())("admin API on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let n = 0;

  const patch = (c: Client, url: string, payload: unknown) => c.request({ method: "PATCH", url, payload: payload as object });
  const toolInput = (over: Record<string, unknown> = {}) => ({
    name: `Console tool ${randomUUID().slice(0, 8)}`,
    image: "/images/tools/jigsaw.svg",
    price: 20,
    availableQuantity: 10,
    minimumQuantity: 1,
    description: "For console tests.",
    category: "power-tools",
    ...over,
  });
  const newTool = async (over: Record<string, unknown> = {}) => {
    const res = await admin.post("/api/admin/tools", toolInput(over));
    expect(res.statusCode, res.body).toBe(201);
    return adminToolSchema.parse(res.json());
  };
  const customer = async (name = "Shopper") => {
    n += 1;
    const c = new Client(t.app, `10.30.${n % 250}.${(n * 7) % 250}`);
    const email = uniqueEmail("console");
    expect((await c.signUp(name, email)).statusCode).toBe(200);
    return Object.assign(c, { email });
  };
  const stockOf = async (id: string) => {
    const [row] = await t.app.store.db.select({ q: tools.availableQuantity }).from(tools).where(eq(tools.id, id));
    return row?.q;
  };
  /** The ledger's rule: a tool's stock is the sum of its movements (the first its initial stock). */
  const expectLedgerHolds = async (id: string) => {
    expect(await ledgerStock(t.app.store.db, id)).toBe(await stockOf(id));
  };
  const order = async (c: Client, toolId: string, quantity: number) => {
    const res = await c.post("/api/order", { toolId, quantity });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Order;
  };
  const move = (orderId: string, status: string) => admin.post(`/api/admin/orders/${orderId}/status`, { status });
  const auditOf = async (entityId: string) =>
    ((await admin.get(`/api/admin/audit?entityId=${entityId}&limit=100`)).json() as AuditEntry[]).map((e) => auditEntrySchema.parse(e));

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.30.0.1");
    expect((await admin.signUp("Owner", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("tools", () => {
    it.each([
      ["javascript:alert(1)"],
      ["https://evil.example/x.png"],
      ["//evil.example/x.png"],
      ["data:image/png;base64,AAAA"],
      ["/images/../../etc/passwd"],
      ["images/tools/x.svg"],
    ])("refuses the image %s on POST /api/tool and on the console's routes", async (image) => {
      for (const res of [
        await admin.post("/api/tool", toolInput({ image })),
        await admin.post("/api/admin/tools", toolInput({ image })),
      ]) {
        expect(res.statusCode).toBe(400);
        expect(res.json().details[0].path).toBe("body.image");
      }
      const tool = await newTool();
      expect((await patch(admin, `/api/admin/tools/${tool._id}`, { image })).statusCode).toBe(400);
      expect((await admin.put(`/api/tool/${tool._id}`, { image })).statusCode).toBe(400);
    });

    it("creates, searches, edits, archives and restores; the store's list shows each change at once", async () => {
      const tag = randomUUID().slice(0, 8);
      const tool = await newTool({ name: `Searchable ${tag}`, category: "chainsaws", lowStockThreshold: 4 });
      expect(tool).toMatchObject({ active: true, lowStockThreshold: 4, lowStock: false, category: "chainsaws" });
      const publicNames = async () => ((await t.app.inject({ method: "GET", url: `/api/tool?q=${tag}` })).json() as Tool[]).map((x) => x.name);
      expect(await publicNames()).toEqual([`Searchable ${tag}`]);

      const found = await admin.get(`/api/admin/tools?q=${tag}&category=chainsaws`);
      expect(found.headers["x-total-count"]).toBe("1");
      expect((await admin.get(`/api/admin/tools?q=${tag}&category=hand-tools`)).json()).toEqual([]);

      const edited = await patch(admin, `/api/admin/tools/${tool._id}`, { name: `Renamed ${tag}`, price: 31.5 });
      expect(edited.json()).toMatchObject({ name: `Renamed ${tag}`, price: 31.5 });
      expect(await publicNames()).toEqual([`Renamed ${tag}`]);

      expect((await patch(admin, `/api/admin/tools/${tool._id}`, { active: false })).json()).toMatchObject({ active: false });
      expect(await publicNames()).toEqual([]);
      expect((await t.app.inject({ method: "GET", url: `/api/tool/${tool._id}` })).statusCode).toBe(404);
      expect(((await admin.get(`/api/admin/tools?q=${tag}&status=archived`)).json() as AdminTool[]).map((x) => x._id)).toEqual([tool._id]);
      expect((await admin.get(`/api/admin/tools?q=${tag}&status=active`)).json()).toEqual([]);

      expect((await patch(admin, `/api/admin/tools/${tool._id}`, { active: true })).json()).toMatchObject({ active: true });
      expect(await publicNames()).toEqual([`Renamed ${tag}`]);
      expect((await auditOf(tool._id)).map((e) => e.action)).toEqual(["tool.restore", "tool.archive", "tool.update", "tool.create"]);
    });

    it("deletes a tool never ordered, archives one with orders (its orders keep it)", async () => {
      const unordered = await newTool();
      expect((await admin.delete(`/api/admin/tools/${unordered._id}`)).json()).toEqual({ outcome: "deleted" });
      expect((await admin.get(`/api/admin/tools/${unordered._id}`)).statusCode).toBe(404);

      const ordered = await newTool();
      const c = await customer();
      const placed = await order(c, ordered._id, 2);
      expect((await admin.delete(`/api/admin/tools/${ordered._id}`)).json()).toEqual({ outcome: "archived" });
      expect(stockLedgerSchema.parse((await admin.get(`/api/admin/tools/${ordered._id}`)).json()).tool.active).toBe(false);
      expect((await c.get(`/api/order/${placed._id}`)).json()).toMatchObject({ toolId: ordered._id, quantity: 2 });
      expect((await admin.delete(`/api/admin/tools/${randomUUID()}`)).statusCode).toBe(404);
    });

    it("creates a tool archived when asked, kept out of the store until restored", async () => {
      const tag = randomUUID().slice(0, 8);
      const tool = await newTool({ name: `Draft ${tag}`, active: false });
      expect(tool.active).toBe(false);
      expect((await t.app.inject({ method: "GET", url: `/api/tool?q=${tag}` })).headers["x-total-count"]).toBe("0");
      await patch(admin, `/api/admin/tools/${tool._id}`, { active: true });
      expect((await t.app.inject({ method: "GET", url: `/api/tool?q=${tag}` })).headers["x-total-count"]).toBe("1");
      // The spec's POST /api/tool takes exactly the public fields.
      expect((await admin.post("/api/tool", toolInput({ active: false }))).statusCode).toBe(400);
    });

    it("marks a tool low on stock below its threshold, or below twice its minimum without one", async () => {
      expect((await newTool({ availableQuantity: 5, minimumQuantity: 3 })).lowStock).toBe(true);
      expect((await newTool({ availableQuantity: 6, minimumQuantity: 3 })).lowStock).toBe(false);
      expect((await newTool({ availableQuantity: 6, minimumQuantity: 3, lowStockThreshold: 7 })).lowStock).toBe(true);
    });
  });

  describe("stock ledger", () => {
    it("keeps stock = initial + the sum of movements through every kind of change", async () => {
      const tool = await newTool({ availableQuantity: 20, minimumQuantity: 1 });
      await expectLedgerHolds(tool._id);

      const restock = await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: 15, reason: "restock", note: "Delivery from the supplier" });
      expect(restock.json()).toMatchObject({ availableQuantity: 35 });
      const correction = await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: -3, reason: "correction", note: "Three found broken" });
      expect(correction.json()).toMatchObject({ availableQuantity: 32 });
      await expectLedgerHolds(tool._id);

      // The spec's PUT sets the stock: the difference is a correction.
      expect((await admin.put(`/api/tool/${tool._id}`, { availableQuantity: 30 })).json()).toMatchObject({ availableQuantity: 30 });
      await expectLedgerHolds(tool._id);

      const c = await customer();
      const one = await order(c, tool._id, 4);
      const two = await order(c, tool._id, 2);
      expect((await c.put(`/api/cart/lines/${tool._id}`, { quantity: 5 })).statusCode).toBe(200);
      const cart = cartSchema.parse((await c.get("/api/cart")).json());
      const checkout = await c.request({
        method: "POST",
        url: "/api/checkout",
        payload: { ...DELIVERY, cartVersion: cart.version },
        headers: { "idempotency-key": randomUUID() },
      });
      expect(checkout.statusCode, checkout.body).toBe(201);
      expect(await stockOf(tool._id)).toBe(30 - 4 - 2 - 5);
      await expectLedgerHolds(tool._id);

      // A customer's cancel and an admin's return the stock, each exactly once.
      expect((await c.delete(`/api/order/${one._id}`)).statusCode).toBe(200);
      expect((await c.delete(`/api/order/${one._id}`)).statusCode).toBe(200);
      expect((await move(two._id, "cancelled")).statusCode).toBe(200);
      expect((await move(two._id, "cancelled")).statusCode).toBe(200);
      expect(await stockOf(tool._id)).toBe(30 - 5);
      await expectLedgerHolds(tool._id);

      const ledger = stockLedgerSchema.parse((await admin.get(`/api/admin/tools/${tool._id}?limit=100`)).json());
      expect(ledger.movements.map((m) => [m.reason, m.delta])).toEqual([
        ["cancel", 2],
        ["cancel", 4],
        ["order", -5],
        ["order", -2],
        ["order", -4],
        ["correction", -2],
        ["correction", -3],
        ["restock", 15],
        ["initial", 20],
      ]);
      const restockRow = ledger.movements.find((m) => m.reason === "restock");
      expect(restockRow).toMatchObject({ note: "Delivery from the supplier", by: ADMIN });
      expect(ledger.movements.find((m) => m.reason === "order")).toMatchObject({ by: c.email });
    });

    it("refuses a movement that would take the stock below zero, a zero delta and a missing reason", async () => {
      const tool = await newTool({ availableQuantity: 3 });
      const below = await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: -4, reason: "correction", note: "Count" });
      expect(below.statusCode).toBe(409);
      expect(below.json()).toMatchObject({ error: "STOCK_BELOW_ZERO", available: 3 });
      expect((await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: 0, reason: "restock", note: "x" })).statusCode).toBe(400);
      expect((await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: 2, reason: "restock", note: " " })).statusCode).toBe(400);
      expect((await admin.post(`/api/admin/tools/${tool._id}/stock`, { delta: 2, reason: "order", note: "x" })).statusCode).toBe(400);
      expect((await admin.post(`/api/admin/tools/${randomUUID()}/stock`, { delta: 2, reason: "restock", note: "x" })).statusCode).toBe(404);
      expect(await stockOf(tool._id)).toBe(3);
      await expectLedgerHolds(tool._id);
    });
  });

  describe("orders", () => {
    it("lists every customer's orders newest first, by status and customer, with pages", async () => {
      const tool = await newTool({ availableQuantity: 100 });
      const alice = await customer("Alice Console");
      const bob = await customer("Bob Console");
      const a1 = await order(alice, tool._id, 1);
      const b1 = await order(bob, tool._id, 2);
      const a2 = await order(alice, tool._id, 3);
      expect((await move(a1._id, "paid")).statusCode).toBe(200);

      const byAlice = await admin.get(`/api/admin/orders?customer=${encodeURIComponent(alice.email)}`);
      expect(byAlice.headers["x-total-count"]).toBe("2");
      expect((byAlice.json() as AdminOrder[]).map((o) => o._id)).toEqual([a2._id, a1._id]);
      const paidOfAlice = (await admin.get(`/api/admin/orders?customer=${encodeURIComponent(alice.email)}&status=paid`)).json() as AdminOrder[];
      expect(paidOfAlice.map((o) => o._id)).toEqual([a1._id]);
      const byName = (await admin.get(`/api/admin/orders?customer=bob%20console`)).json() as AdminOrder[];
      expect(byName.map((o) => o._id)).toEqual([b1._id]);
      expect(adminOrderSchema.parse(byName[0]).customer).toMatchObject({ name: "Bob Console", email: bob.email });

      const page2 = await admin.get(`/api/admin/orders?customer=${encodeURIComponent(alice.email)}&limit=1&page=2`);
      expect((page2.json() as AdminOrder[]).map((o) => o._id)).toEqual([a1._id]);
      expect((await admin.get("/api/admin/orders?status=lost")).statusCode).toBe(400);

      const one = adminOrderSchema.parse((await admin.get(`/api/admin/orders/${a1._id}`)).json());
      expect(one).toMatchObject({ address: "", paymentMethod: "cash_on_delivery", status: "paid", customer: { email: alice.email } });
      expect(one.history.map((h) => [h.status, h.by])).toEqual([
        ["pending", "customer"],
        ["paid", "admin"],
      ]);
      expect((await admin.get(`/api/admin/orders/${randomUUID()}`)).statusCode).toBe(404);
    });

    it("moves an order along the lifecycle, refuses forbidden moves (409), and the customer sees the status", async () => {
      const tool = await newTool({ availableQuantity: 10 });
      const c = await customer();
      const placed = await order(c, tool._id, 2);

      const skip = await move(placed._id, "shipped");
      expect(skip.statusCode).toBe(409);
      expect(skip.json()).toEqual({ error: "ORDER_MOVE_FORBIDDEN", message: ADMIN_API_TEXT.orderMoveForbidden("pending", "shipped") });
      for (const status of ["paid", "shipped", "delivered"]) {
        const res = await move(placed._id, status);
        expect(res.statusCode, status).toBe(200);
        expect(res.json().status).toBe(status);
        expect(((await c.get("/api/order")).json() as Order[]).find((o) => o._id === placed._id)?.status).toBe(status);
      }
      expect((await move(placed._id, "cancelled")).statusCode).toBe(409);
      expect((await move(placed._id, "pending")).statusCode).toBe(409);
      expect((await move(placed._id, "lost")).statusCode).toBe(400);
      expect(await stockOf(tool._id)).toBe(8);
      // The customer cannot cancel what the admin has moved on.
      const paid = await order(c, tool._id, 1);
      await move(paid._id, "paid");
      expect((await c.delete(`/api/order/${paid._id}`)).statusCode).toBe(409);
      expect((await auditOf(placed._id)).map((e) => [e.action, e.before, e.after, e.actorEmail])).toEqual([
        ["order.status", { status: "shipped" }, { status: "delivered" }, ADMIN],
        ["order.status", { status: "paid" }, { status: "shipped" }, ADMIN],
        ["order.status", { status: "pending" }, { status: "paid" }, ADMIN],
      ]);
    });

    it("cancels a paid order and returns its stock exactly once, even when two cancels race", async () => {
      const tool = await newTool({ availableQuantity: 10 });
      const c = await customer();
      const placed = await order(c, tool._id, 4);
      await move(placed._id, "paid");
      const [first, second] = await Promise.all([move(placed._id, "cancelled"), move(placed._id, "cancelled")]);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(await stockOf(tool._id)).toBe(10);
      await expectLedgerHolds(tool._id);
      const cancelled = adminOrderSchema.parse((await admin.get(`/api/admin/orders/${placed._id}`)).json());
      expect(cancelled.history.map((h) => h.status)).toEqual(["pending", "paid", "cancelled"]);
      // One credit note, whose number the order shows.
      const notes = await t.app.store.db.select({ number: creditNotes.number }).from(creditNotes).where(eq(creditNotes.orderId, placed._id));
      expect(notes.map((n) => n.number)).toEqual([cancelled.creditNoteNumber]);
    });
  });

  describe("reviews", () => {
    it("hides a review from the home page at once and restores it; marks verified buyers", async () => {
      const c = await customer("Reviewer");
      const text = `Sharp blades ${randomUUID()}`;
      const posted = (await c.post("/api/review", { name: "Reviewer", rating: 5, description: text })).json() as Review;
      expect(posted.verifiedBuyer).toBeUndefined();
      const onHome = async () => ((await t.app.inject({ method: "GET", url: "/api/review?limit=100" })).json() as Review[]).find((r) => r._id === posted._id);
      expect(await onHome()).toBeDefined();

      const hidden = await patch(admin, `/api/admin/reviews/${posted._id}`, { hidden: true });
      expect(hidden.json()).toMatchObject({ hidden: true, authorEmail: c.email });
      expect(await onHome()).toBeUndefined();
      const hiddenList = (await admin.get("/api/admin/reviews?hidden=true&limit=100")).json() as Review[];
      expect(hiddenList.map((r) => r._id)).toContain(posted._id);

      expect((await patch(admin, `/api/admin/reviews/${posted._id}`, { hidden: false })).json()).toMatchObject({ hidden: false });
      expect(await onHome()).toBeDefined();
      expect((await patch(admin, `/api/admin/reviews/${randomUUID()}`, { hidden: true })).statusCode).toBe(404);
      expect((await auditOf(posted._id)).map((e) => e.action)).toEqual(["review.restore", "review.hide"]);

      // Once one of the author's orders is delivered, the review says 'Verified buyer'.
      const tool = await newTool();
      const placed = await order(c, tool._id, 1);
      for (const status of ["paid", "shipped"]) await move(placed._id, status);
      expect((await onHome())?.verifiedBuyer).toBeUndefined();
      await move(placed._id, "delivered");
      expect((await onHome())?.verifiedBuyer).toBe(true);
    });
  });

  describe("users", () => {
    it("searches accounts, grants and removes the admin role (at once), and keeps the last admin", async () => {
      const c = await customer("Future Admin");
      const found = (await admin.get(`/api/admin/users?q=${encodeURIComponent(c.email)}`)).json() as AdminUser[];
      expect(found).toHaveLength(1);
      const id = (found[0] as AdminUser)._id;
      expect(found[0]).toMatchObject({ role: "user", name: "Future Admin" });
      expect((await c.get("/api/admin/summary")).statusCode).toBe(403);

      expect((await patch(admin, `/api/admin/users/${id}`, { role: "admin" })).json()).toMatchObject({ role: "admin" });
      expect((await c.get("/api/admin/summary")).statusCode).toBe(200);
      expect((await patch(admin, `/api/admin/users/${id}`, { role: "user" })).json()).toMatchObject({ role: "user" });
      expect((await c.get("/api/admin/summary")).statusCode).toBe(403);

      const owner = ((await admin.get(`/api/admin/users?q=${encodeURIComponent(ADMIN)}`)).json() as AdminUser[])[0] as AdminUser;
      const last = await patch(admin, `/api/admin/users/${owner._id}`, { role: "user" });
      expect(last.statusCode).toBe(409);
      expect(last.json()).toEqual({ error: "LAST_ADMIN", message: ADMIN_API_TEXT.lastAdmin });
      expect((await admin.get("/api/admin/summary")).statusCode).toBe(200);
      expect((await patch(admin, `/api/admin/users/${randomUUID()}`, { role: "admin" })).statusCode).toBe(404);
      expect((await patch(admin, `/api/admin/users/${id}`, { role: "owner" })).statusCode).toBe(400);
      expect((await auditOf(id)).map((e) => e.action)).toEqual(["user.remove-admin", "user.grant-admin"]);
    });
  });

  describe("summary", () => {
    it("gives sales per day for 30 days, orders by status, top tools and tools low on stock", async () => {
      const before = adminSummarySchema.parse((await admin.get("/api/admin/summary")).json());
      const hot = await newTool({ availableQuantity: 1000, price: 12.5 });
      const low = await newTool({ availableQuantity: 3, minimumQuantity: 2 });
      const c = await customer();
      await order(c, hot._id, 500);
      const cancelled = await order(c, hot._id, 10);
      await move(cancelled._id, "cancelled");

      const after = adminSummarySchema.parse((await admin.get("/api/admin/summary")).json());
      expect(after.salesPerDay).toHaveLength(30);
      const today = new Date().toISOString().slice(0, 10);
      expect(after.salesPerDay.at(-1)?.day).toBe(today);
      const todayBefore = before.salesPerDay.at(-1);
      const todayAfter = after.salesPerDay.at(-1);
      expect((todayAfter?.total ?? 0) - (todayBefore?.total ?? 0)).toBeCloseTo(6250);
      expect((todayAfter?.orders ?? 0) - (todayBefore?.orders ?? 0)).toBe(1);
      const count = (s: typeof before, status: string) => s.ordersByStatus.find((x) => x.status === status)?.count ?? 0;
      expect(count(after, "pending") - count(before, "pending")).toBe(1);
      expect(count(after, "cancelled") - count(before, "cancelled")).toBe(1);
      expect(after.topTools[0]).toEqual({ toolId: hot._id, name: hot.name, quantity: 500, total: 6250 });
      expect(after.lowStock).toContainEqual({ toolId: low._id, name: low.name, availableQuantity: 3, threshold: 4 });
      expect(after.lowStock.map((x) => x.toolId)).not.toContain(hot._id);
    });
  });
});
