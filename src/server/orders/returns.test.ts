/**
 * Returns (issue 40, DESIGN "Refunds and returns"), on PGlite and on Postgres: a customer asks to
 * return units of a delivered order within RETURN_DAYS; the owner approves or refuses, marks the
 * parcel received and refunds it with a refund that names the return; the customer is mailed each
 * move and sees the state on the order. Refused: someone else's order (404), an order not
 * delivered, after the window, more than was bought less what is returned or refunded (409
 * RETURN_NOT_ALLOWED), a non-admin on the console's routes (403).
 */
import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminReturnSchema, refundResultSchema } from "../../contract/refund-schemas";
import { checkoutResultSchema, orderReturnSchema, orderSchema, type Tool } from "../../contract/schemas";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { mailOutbox, orderEvents, refunds } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "returns-admin@toolyard.example";
const DELIVERY = { address: "1 Main St", phone: "+1 555 0100" };

describe.each(drivers())("returns on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  const db = () => t.app.store.db;

  const customer = async () => {
    const c = new Client(t.app, `10.42.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp("Return Shopper", uniqueEmail("return"))).statusCode).toBe(200);
    return c;
  };
  /** A cash order of `quantity` units the owner moved to delivered. */
  const newTool = async () =>
    (
      await admin.post("/api/tool", {
        name: `Return tool ${randomUUID().slice(0, 8)}`,
        image: "/images/tools/jigsaw.svg",
        price: 20,
        availableQuantity: 50,
        minimumQuantity: 1,
        description: "For return tests.",
        category: "power-tools",
      })
    ).json() as Tool;
  /** …and with `others` units of a second tool on a second line. */
  const delivered = async (quantity = 3, stopAt: "paid" | "delivered" = "delivered", others = 0) => {
    const tool = await newTool();
    const second = others > 0 ? await newTool() : undefined;
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity });
    if (second) await c.put(`/api/cart/lines/${second._id}`, { quantity: others });
    const res = await c.request({ method: "POST", url: "/api/checkout", payload: { ...DELIVERY, paymentMethod: "cash_on_delivery" }, headers: { "idempotency-key": randomUUID() } });
    expect(res.statusCode, res.body).toBe(201);
    const { order } = checkoutResultSchema.parse(res.json());
    for (const status of stopAt === "paid" ? ["paid"] : ["paid", "shipped", "delivered"]) {
      expect((await admin.post(`/api/admin/orders/${order._id}/status`, { status })).statusCode).toBe(200);
    }
    return { order, c, tool, second };
  };
  const refundOf = (orderId: string, payload: Record<string, unknown>) =>
    admin.request({ method: "POST", url: `/api/admin/orders/${orderId}/refunds`, payload, headers: { "idempotency-key": randomUUID() } });
  const ask = (c: Client, orderId: string, body: Record<string, unknown>) => c.post(`/api/order/${orderId}/returns`, body);
  const move = (id: string, status: string, note?: string, as: Client = admin) => as.post(`/api/admin/returns/${id}/status`, { status, ...(note ? { note } : {}) });

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.42.0.1");
    await admin.signUp("Admin", ADMIN);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it("takes a return from request to refund: approved, received, refunded by a refund naming it; the customer is mailed each move and sees it", async () => {
    const { order, c, tool } = await delivered(3);
    const res = await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 2 }], reason: "Wrong size" });
    expect(res.statusCode, res.body).toBe(201);
    const made = orderReturnSchema.parse(res.json());
    expect(made).toMatchObject({ status: "requested", reason: "Wrong size", lines: [{ toolId: tool._id, name: tool.name, quantity: 2 }] });

    // Not received yet: a refund naming it is refused.
    const early = await admin.request({
      method: "POST",
      url: `/api/admin/orders/${order._id}/refunds`,
      payload: { lines: [{ toolId: tool._id, quantity: 2 }], reason: "return", returnId: made._id },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: "RETURN_NOT_RECEIVED" });

    const approved = await move(made._id, "approved", "Send it to our Brooklyn store");
    expect(approved.statusCode, approved.body).toBe(200);
    expect(adminReturnSchema.parse(approved.json())).toMatchObject({ status: "approved", note: "Send it to our Brooklyn store", orderId: order._id, orderNumber: order.number });
    expect((await move(made._id, "refused")).statusCode).toBe(409);
    expect((await move(made._id, "received")).statusCode).toBe(200);

    const refund = await admin.request({
      method: "POST",
      url: `/api/admin/orders/${order._id}/refunds`,
      payload: { lines: [{ toolId: tool._id, quantity: 2 }], reason: "Returned: wrong size", returnId: made._id },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const result = refundResultSchema.parse(refund.json());
    expect(result.refund).toMatchObject({ status: "succeeded", returnId: made._id, amount: 40 });
    expect(result.order.returns?.find((r) => r._id === made._id)).toMatchObject({ status: "refunded", refundId: result.refund._id });

    const mine = orderSchema.parse((await c.get(`/api/order/${order._id}`)).json());
    expect(mine.returns?.map((r) => r.status)).toEqual(["refunded"]);
    const subjects = (await db().select({ subject: mailOutbox.subject }).from(mailOutbox).where(like(mailOutbox.subject, `%order #${order.number}%`))).map((m) => m.subject);
    for (const status of ["requested", "approved", "received"]) expect(subjects).toContain(`Your return for order #${order.number}: ${status}`);
    expect(subjects).toContain(`A refund for your order #${order.number}`);
    // Nothing is left to return: 1 unit bought and not refunded? 3 bought, 2 refunded: one more is fine, two are not.
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 2 }], reason: "more" })).statusCode).toBe(409);
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "the last one" })).statusCode).toBe(201);
  }, 120_000);

  it("refuses a return of someone else's order (404), an order not delivered, after the window, or of more than is left (409 RETURN_NOT_ALLOWED)", async () => {
    const { order, c, tool } = await delivered(2);
    const other = await customer();
    expect((await ask(other, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "not mine" })).statusCode).toBe(404);
    const tooMany = await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 3 }], reason: "too many" });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json()).toMatchObject({ error: "RETURN_NOT_ALLOWED" });
    expect((await ask(c, order._id, { lines: [{ toolId: randomUUID(), quantity: 1 }], reason: "stranger" })).statusCode).toBe(409);
    expect((await ask(c, order._id, { lines: [], reason: "nothing" })).statusCode).toBe(400);
    // Two units: one open return of both leaves nothing; a refused one gives them back.
    const first = orderReturnSchema.parse((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 2 }], reason: "both" })).json());
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "again" })).statusCode).toBe(409);
    expect((await move(first._id, "refused", "Used tools cannot be returned")).statusCode).toBe(200);
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "one after all" })).statusCode).toBe(201);

    const paid = await delivered(1, "paid");
    const notDelivered = await ask(paid.c, paid.order._id, { lines: [{ toolId: paid.tool._id, quantity: 1 }], reason: "early" });
    expect(notDelivered.statusCode).toBe(409);
    expect(notDelivered.json()).toMatchObject({ error: "RETURN_NOT_ALLOWED" });

    const late = await delivered(1);
    await db()
      .update(orderEvents)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) })
      .where(and(eq(orderEvents.orderId, late.order._id), eq(orderEvents.status, "delivered")));
    const tooLate = await ask(late.c, late.order._id, { lines: [{ toolId: late.tool._id, quantity: 1 }], reason: "late" });
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json()).toMatchObject({ error: "RETURN_NOT_ALLOWED" });
  }, 120_000);

  it("gives exactly as many units as are left to racing requests", async () => {
    const { order, c, tool } = await delivered(2);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, k) => ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: `race ${k}` })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 409, 409, 409]);
  }, 120_000);

  it("lists returns for the owner by status with a total; the console's routes are the admin's only", async () => {
    const { order, c, tool } = await delivered(1);
    const made = orderReturnSchema.parse((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "listed" })).json());
    const list = await admin.get("/api/admin/returns?status=requested&limit=100");
    expect(list.statusCode).toBe(200);
    expect(Number(list.headers["x-total-count"])).toBeGreaterThanOrEqual(1);
    const items = (list.json() as unknown[]).map((x) => adminReturnSchema.parse(x));
    expect(items.every((r) => r.status === "requested")).toBe(true);
    expect(items.find((r) => r._id === made._id)).toMatchObject({ orderNumber: order.number, customer: { email: expect.any(String) } });
    expect((await c.get("/api/admin/returns")).statusCode).toBe(403);
    expect((await move(made._id, "approved", undefined, c)).statusCode).toBe(403);
    expect((await move(randomUUID(), "approved")).statusCode).toBe(404);
  }, 120_000);
  it("refunds a return in parts: it stays received, its lines showing what is refunded, until all its units are; units beyond it or not in it are 409 RETURN_NOT_COVERED, nothing written (issue 49)", async () => {
    const { order, c, tool, second } = await delivered(4, "delivered", 1);
    if (!second) throw new Error("no second tool");
    const made = orderReturnSchema.parse((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 3 }], reason: "Too many" })).json());
    expect((await move(made._id, "approved")).statusCode).toBe(200);
    expect((await move(made._id, "received")).statusCode).toBe(200);
    const returnOf = async () => orderSchema.parse((await c.get(`/api/order/${order._id}`)).json()).returns?.find((r) => r._id === made._id);
    const refundCount = async () => (await db().select().from(refunds).where(eq(refunds.orderId, order._id))).length;

    // More than the return holds, or a unit it does not hold: refused, nothing written.
    for (const lines of [[{ toolId: tool._id, quantity: 4 }], [{ toolId: second._id, quantity: 1 }], [{ toolId: tool._id, quantity: 1 }, { toolId: second._id, quantity: 1 }]]) {
      const refused = await refundOf(order._id, { lines, reason: "not that", returnId: made._id });
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ error: "RETURN_NOT_COVERED", message: REFUND_TEXT.returnNotCovered });
    }
    expect(await refundCount()).toBe(0);
    expect(await returnOf()).toMatchObject({ status: "received", refundId: null, lines: [{ toolId: tool._id, quantity: 3, refundedQuantity: 0 }] });

    // One of its three units: still received, one refunded.
    const one = await refundOf(order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "First part", returnId: made._id });
    expect(one.statusCode, one.body).toBe(201);
    const oneResult = refundResultSchema.parse(one.json());
    expect(oneResult.order.returns?.find((r) => r._id === made._id)).toMatchObject({ status: "received", refundId: null, lines: [{ quantity: 3, refundedQuantity: 1 }] });
    expect(adminReturnSchema.parse((await admin.get(`/api/admin/returns?status=received&limit=100`)).json().find((r: { _id: string }) => r._id === made._id))).toMatchObject({ status: "received", lines: [{ refundedQuantity: 1 }] });
    // The customer may still return the fourth unit (the return's units are not counted twice).
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 2 }], reason: "two more?" })).statusCode).toBe(409);
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "the fourth" })).statusCode).toBe(201);

    // Three more is beyond what the return has left (two).
    const beyond = await refundOf(order._id, { lines: [{ toolId: tool._id, quantity: 3 }], reason: "too much", returnId: made._id });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json()).toMatchObject({ error: "RETURN_NOT_COVERED" });
    expect(await refundCount()).toBe(1);

    // The other two: the return is refunded, by the refund that completed it.
    const rest = await refundOf(order._id, { lines: [{ toolId: tool._id, quantity: 2 }], reason: "The rest", returnId: made._id });
    expect(rest.statusCode, rest.body).toBe(201);
    const restResult = refundResultSchema.parse(rest.json());
    expect(await returnOf()).toMatchObject({ status: "refunded", refundId: restResult.refund._id, lines: [{ quantity: 3, refundedQuantity: 3 }] });
    // Refunded: a refund naming it again is refused.
    expect((await refundOf(order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "again", returnId: made._id })).statusCode).toBe(409);
    // Nothing of the first line is left to return; the second line's unit is.
    expect((await ask(c, order._id, { lines: [{ toolId: tool._id, quantity: 1 }], reason: "more" })).statusCode).toBe(409);
    expect((await ask(c, order._id, { lines: [{ toolId: second._id, quantity: 1 }], reason: "the other" })).statusCode).toBe(201);
  }, 120_000);
});
