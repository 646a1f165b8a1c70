/**
 * Shipments (issue 52, DESIGN "Orders" → Shipments) and issue 49's defect 3, on PGlite and on
 * Postgres: partial shipments summing to the order, racing shipments of the last unit, the
 * repeated key, refund-then-ship and ship-then-refund, a cancelled shipment, delivered only when
 * every shipment is, the old whole-order move, the list of what waits to ship, bad input (nothing
 * written) and the packing slip's text.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminOrderSchema, shipmentResultSchema, type AdminOrder, type ShipmentResult } from "../../contract/admin-schemas";
import { checkoutResultSchema, orderSchema, type Tool } from "../../contract/schemas";
import { mailOutbox, shipments, stockMovements, tools } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { pdfText } from "../../../tests/support/pdf-text";

const ADMIN = "shipments-admin@toolyard.example";
const BROOKLYN = { address: "1 Court St", city: "Brooklyn", region: "NY", postalCode: "11201", country: "US", phone: "+1 555 0152" };
const UPS = "1Z999AA10123456784";

describe.each(drivers())("shipments on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let standard: string;
  let ip = 1;

  const db = () => t.app.store.db;
  const stock = async (id: string) => (await db().select({ q: tools.availableQuantity }).from(tools).where(eq(tools.id, id)))[0]?.q;
  const newTool = async (price: number) => {
    const res = await admin.post("/api/tool", {
      name: `Ship tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity: 50,
      minimumQuantity: 1,
      description: "For shipment tests.",
      category: "power-tools",
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Tool;
  };
  /** An order of `quantities` (one new tool each) to Brooklyn by Standard delivery, paid as `method` says. */
  const placed = async (quantities: number[], method: "cash_on_delivery" | "bank_transfer" = "cash_on_delivery") => {
    ip += 1;
    const c = new Client(t.app, `10.52.${Math.floor(ip / 250)}.${ip % 250}`);
    const email = uniqueEmail("ship");
    expect((await c.signUp("Ship Shopper", email)).statusCode).toBe(200);
    const made: Tool[] = [];
    for (const quantity of quantities) {
      const tool = await newTool(25);
      made.push(tool);
      expect((await c.put(`/api/cart/lines/${tool._id}`, { quantity })).statusCode).toBe(200);
    }
    const res = await c.request({
      method: "POST",
      url: "/api/checkout",
      payload: { ...BROOKLYN, paymentMethod: method, shippingMethod: standard },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { order: checkoutResultSchema.parse(res.json()).order, c, tools: made, email };
  };
  const paid = async (quantities: number[], method: "cash_on_delivery" | "bank_transfer" = "bank_transfer") => {
    const p = await placed(quantities, method);
    const moved = await admin.post(`/api/admin/orders/${p.order._id}/status`, { status: "paid" });
    expect(moved.statusCode, moved.body).toBe(200);
    return p;
  };
  const ship = (orderId: string, body: Record<string, unknown>, key: string = randomUUID()) =>
    admin.request({ method: "POST", url: `/api/admin/orders/${orderId}/shipments`, payload: body, headers: { "idempotency-key": key } });
  const shipped = async (orderId: string, body: Record<string, unknown>, key?: string): Promise<ShipmentResult> => {
    const res = await ship(orderId, body, key);
    expect(res.statusCode, res.body).toBe(201);
    return shipmentResultSchema.parse(res.json());
  };
  const moveShipment = (id: string, status: string) => admin.post(`/api/admin/shipments/${id}/status`, { status });
  const adminOrder = async (id: string): Promise<AdminOrder> => adminOrderSchema.parse((await admin.get(`/api/admin/orders/${id}`)).json());
  const shipmentCount = async (orderId: string) => (await db().select({ id: shipments.id }).from(shipments).where(eq(shipments.orderId, orderId))).length;
  const refund = async (orderId: string, body: Record<string, unknown>) => {
    const res = await admin.request({ method: "POST", url: `/api/admin/orders/${orderId}/refunds`, payload: body, headers: { "idempotency-key": randomUUID() } });
    expect(res.statusCode, res.body).toBe(201);
  };
  const mailsTo = (email: string) =>
    db()
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email.toLowerCase()), like(mailOutbox.kind, "order-shipped")));

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" }, { demoMoney: true });
    admin = new Client(t.app, "10.52.0.1");
    await admin.signUp("Admin", ADMIN);
    const estimate = await admin.post("/api/cart/estimate", { country: "US", region: "NY", postalCode: "11201" });
    const option = (estimate.json() as { shippingOptions: { id: string; name: string }[] }).shippingOptions.find((o) => o.name === "Standard delivery");
    if (!option) throw new Error("the demo's Standard delivery is missing");
    standard = option.id;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  }, 120_000);

  it("ships a cash-on-delivery order in parts that sum to it: numbered, tracked, mailed; shipped once nothing is left, delivered once every parcel is", async () => {
    const { order, c, tools: [a, b], email } = await placed([3, 2]);
    if (!a || !b) throw new Error("two tools");
    expect(order.status).toBe("pending");

    const first = await shipped(order._id, { lines: [{ toolId: a._id, quantity: 1 }], carrier: "ups", trackingNumber: "1Z 999 AA1 0123 456 784" });
    expect(first.shipment).toMatchObject({
      number: expect.stringMatching(/^SH-\d{4}-\d{6}$/),
      status: "shipped",
      carrier: "UPS",
      trackingNumber: UPS,
      trackingUrl: `https://www.ups.com/track?tracknum=${UPS}`,
      lines: [{ toolId: a._id, quantity: 1 }],
      deliveredAt: null,
    });
    expect(first.order).toMatchObject({ status: "pending", fulfillmentStatus: "partly_shipped", paymentStatus: "unpaid" });
    expect(first.order.lines.map((l) => l.shippedQuantity)).toEqual([1, 0]);

    // More than is left of a line: nothing written.
    const over = await ship(order._id, { lines: [{ toolId: a._id, quantity: 3 }], carrier: "UPS" });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
    expect(await shipmentCount(order._id)).toBe(1);

    const second = await shipped(order._id, { lines: [{ toolId: a._id, quantity: 2 }, { toolId: b._id, quantity: 2 }], carrier: "Acme Freight", trackingNumber: "AF-7788" });
    expect(second.shipment).toMatchObject({ carrier: "Acme Freight", trackingNumber: "AF7788", trackingUrl: null });
    expect(Number(second.shipment.number.slice(-6))).toBe(Number(first.shipment.number.slice(-6)) + 1);
    expect(second.order).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped" });
    expect(second.order.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    // Each parcel is a step of the history; the one that ships the rest is the move to shipped.
    expect(second.order.history.map((h) => [h.status, h.note?.startsWith("Shipment ") ?? false])).toEqual([
      ["pending", false],
      ["pending", true],
      ["shipped", true],
    ]);

    // The customer: both parcels on the order, the link in the first parcel's mail.
    const mine = orderSchema.parse((await c.get(`/api/order/${order._id}`)).json());
    expect(mine.shipments?.map((s) => [s.number, s.trackingUrl])).toEqual([
      [first.shipment.number, first.shipment.trackingUrl],
      [second.shipment.number, null],
    ]);
    expect(mine.lines.map((l) => l.shippedQuantity)).toEqual([3, 2]);
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    expect(mails.some((m) => m.text.includes(`https://www.ups.com/track?tracknum=${UPS}`) && m.text.includes("UPS"))).toBe(true);
    expect(mails.some((m) => m.subject.includes("Part of your order"))).toBe(true);

    // Delivered only when every parcel is.
    const one = await moveShipment(first.shipment._id, "delivered");
    expect(one.statusCode, one.body).toBe(200);
    expect(shipmentResultSchema.parse(one.json()).order).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped" });
    const two = shipmentResultSchema.parse((await moveShipment(second.shipment._id, "delivered")).json());
    expect(two.shipment.deliveredAt).not.toBeNull();
    expect(two.order).toMatchObject({ status: "delivered", fulfillmentStatus: "delivered", paymentStatus: "paid" });
    // A delivered parcel is not cancelled; the same move again changes nothing.
    const late = await moveShipment(first.shipment._id, "cancelled");
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: "SHIPMENT_MOVE_FORBIDDEN" });
    expect((await moveShipment(first.shipment._id, "delivered")).statusCode).toBe(200);
  });

  it("gives one shipment of eight racing for the last unit", async () => {
    const { order, tools: [a] } = await paid([1]);
    if (!a) throw new Error("a tool");
    const results = await Promise.all(Array.from({ length: 8 }, () => ship(order._id, { lines: [{ toolId: a._id, quantity: 1 }], carrier: "USPS", trackingNumber: "9400111899223456789012" })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => r.statusCode)).toEqual(Array(7).fill(409));
    for (const r of refused) expect(r.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
    expect(await shipmentCount(order._id)).toBe(1);
    expect((await adminOrder(order._id)).status).toBe("shipped");
  });

  it("answers a repeated Idempotency-Key with the first shipment; the key with another body is 409", async () => {
    const { order, tools: [a] } = await paid([2]);
    if (!a) throw new Error("a tool");
    const key = randomUUID();
    const body = { lines: [{ toolId: a._id, quantity: 1 }], carrier: "FedEx", trackingNumber: "123456789012" };
    const first = await shipped(order._id, body, key);
    const again = await shipped(order._id, body, key);
    expect(again.shipment._id).toBe(first.shipment._id);
    expect(first.shipment.trackingUrl).toBe("https://www.fedex.com/fedextrack/?trknbr=123456789012");
    const other = await ship(order._id, { ...body, lines: [{ toolId: a._id, quantity: 2 }] }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ error: "IDEMPOTENCY_KEY_REUSED" });
    expect(await shipmentCount(order._id)).toBe(1);
  });

  it("refuses bad input with a clear error and writes nothing", async () => {
    const { order, tools: [a] } = await paid([2]);
    if (!a) throw new Error("a tool");
    const stranger = await newTool(10);
    const expectBad = async (body: Record<string, unknown>, path: string) => {
      const res = await ship(order._id, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(JSON.stringify(res.json())).toContain(path);
    };
    await expectBad({ lines: [], carrier: "UPS" }, "lines");
    await expectBad({ lines: [{ toolId: stranger._id, quantity: 1 }], carrier: "UPS" }, "lines.0.toolId");
    await expectBad({ lines: [{ toolId: a._id, quantity: 1 }], carrier: "UPS", trackingNumber: "1Z99<script>" }, "trackingNumber");
    await expectBad({ lines: [{ toolId: a._id, quantity: 1 }], carrier: "" }, "carrier");
    expect(await shipmentCount(order._id)).toBe(0);

    // Not paid (bank transfer), cancelled, unknown: 409, 409, 404.
    const { order: unpaid, tools: [u] } = await placed([1], "bank_transfer");
    const early = await ship(unpaid._id, { lines: [{ toolId: u?._id, quantity: 1 }], carrier: "UPS" });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: "ORDER_NOT_SHIPPABLE" });
    const legacy = await admin.post(`/api/admin/orders/${unpaid._id}/status`, { status: "shipped" });
    expect(legacy.statusCode).toBe(409);
    expect(legacy.json()).toMatchObject({ error: "ORDER_MOVE_FORBIDDEN" });
    expect((await admin.post(`/api/admin/orders/${unpaid._id}/status`, { status: "cancelled" })).statusCode).toBe(200);
    const cancelled = await ship(unpaid._id, { lines: [{ toolId: u?._id, quantity: 1 }], carrier: "UPS" });
    expect(cancelled.statusCode).toBe(409);
    expect((await ship(randomUUID(), { lines: [{ toolId: a._id, quantity: 1 }], carrier: "UPS" })).statusCode).toBe(404);
    expect(await shipmentCount(unpaid._id)).toBe(0);
  });

  it("ships nothing of an order whose every unit and shipping were refunded (issue 49, defect 3): the old move is 409 NOTHING_TO_SHIP", async () => {
    const { order, tools: [a, b] } = await paid([2, 1]);
    if (!a || !b) throw new Error("two tools");
    const before = await stock(a._id);
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 2 }, { toolId: b._id, quantity: 1 }], shipping: true, reason: "out of stock at the supplier" });
    expect(await stock(a._id)).toBe((before ?? 0) + 2);
    const legacy = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "shipped" });
    expect(legacy.statusCode, legacy.body).toBe(409);
    expect(legacy.json()).toMatchObject({ error: "NOTHING_TO_SHIP" });
    const parcel = await ship(order._id, { lines: [{ toolId: a._id, quantity: 1 }], carrier: "UPS" });
    expect(parcel.statusCode).toBe(409);
    expect(parcel.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
    const after = await adminOrder(order._id);
    expect(after).toMatchObject({ status: "paid", paymentStatus: "refunded", fulfillmentStatus: "unfulfilled", shipments: [] });
    expect(await stock(a._id)).toBe((before ?? 0) + 2);
  });

  it("refund then ship: a refunded unit is no longer to ship; the old move ships what is left as one parcel with no tracking", async () => {
    const { order, tools: [a, b], email } = await paid([3, 1]);
    if (!a || !b) throw new Error("two tools");
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 1 }], reason: "one on back order" });
    const over = await ship(order._id, { lines: [{ toolId: a._id, quantity: 3 }], carrier: "DHL" });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
    const legacy = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "shipped" });
    expect(legacy.statusCode, legacy.body).toBe(200);
    const after = adminOrderSchema.parse(legacy.json());
    expect(after).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped", paymentStatus: "partly_refunded" });
    expect(after.shipments).toHaveLength(1);
    expect(after.shipments?.[0]).toMatchObject({ carrier: null, trackingNumber: null, trackingUrl: null });
    expect(after.shipments?.[0]?.lines.map((l) => [l.toolId, l.quantity])).toEqual([
      [a._id, 2],
      [b._id, 1],
    ]);
    expect(await mailsTo(email)).toHaveLength(1);
    // The old delivered move delivers its parcels with it.
    const delivered = adminOrderSchema.parse((await admin.post(`/api/admin/orders/${order._id}/status`, { status: "delivered" })).json());
    expect(delivered).toMatchObject({ status: "delivered", fulfillmentStatus: "delivered" });
    expect(delivered.shipments?.[0]?.status).toBe("delivered");
  });

  it("ship then refund: refunding the unit left makes a partly shipped order shipped; a cancelled parcel's units are to ship again", async () => {
    const { order, tools: [a] } = await paid([3]);
    if (!a) throw new Error("a tool");
    const first = await shipped(order._id, { lines: [{ toolId: a._id, quantity: 2 }], carrier: "UPS", trackingNumber: UPS });
    expect(first.order).toMatchObject({ status: "paid", fulfillmentStatus: "partly_shipped" });
    // A cancel would give back the stock of units that left: refused, nothing written.
    const stockBefore = await stock(a._id);
    const cancel = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "cancelled" });
    expect(cancel.statusCode, cancel.body).toBe(409);
    expect(cancel.json()).toMatchObject({ error: "ORDER_PARTLY_SHIPPED" });
    expect(await stock(a._id)).toBe(stockBefore);
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 1 }], reason: "the third never came in" });
    const after = await adminOrder(order._id);
    expect(after).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped" });

    // The parcel is lost before delivery: cancelled, its two units are to ship again, the order a step back.
    const cancelled = await moveShipment(first.shipment._id, "cancelled");
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(shipmentResultSchema.parse(cancelled.json()).order).toMatchObject({ status: "paid", fulfillmentStatus: "unfulfilled" });
    const over = await ship(order._id, { lines: [{ toolId: a._id, quantity: 3 }], carrier: "UPS" });
    expect(over.statusCode).toBe(409);
    const again = await shipped(order._id, { lines: [{ toolId: a._id, quantity: 2 }], carrier: "UPS", trackingNumber: "1Z999AA10123456785" });
    expect(again.order).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped" });
    expect(again.order.shipments?.map((s) => s.status)).toEqual(["cancelled", "shipped"]);
    expect(again.order.lines[0]?.shippedQuantity).toBe(2);
  });

  it("a refund's units that never shipped go back to stock whatever `restock` says (reason cancel); those that shipped only with `restock` (reason return)", async () => {
    const { order, tools: [a] } = await paid([4]);
    if (!a) throw new Error("a tool");
    await shipped(order._id, { lines: [{ toolId: a._id, quantity: 2 }], carrier: "UPS", trackingNumber: UPS });
    const before = await stock(a._id);
    // Three units, restock off: the two left to ship are taken first and were never sent; the third shipped and stays out.
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 3 }], restock: false, reason: "two on back order, one broken" });
    expect(await stock(a._id)).toBe((before ?? 0) + 2);
    const after = await adminOrder(order._id);
    expect(after).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped" });
    expect(after.refunds?.[0]?.lines).toEqual([expect.objectContaining({ quantity: 3, restocked: 2 })]);
    const over = await ship(order._id, { lines: [{ toolId: a._id, quantity: 1 }], carrier: "UPS" });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
    // The last unit shipped too; restocked as the owner says.
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 1 }], reason: "came back unopened" });
    expect(await stock(a._id)).toBe((before ?? 0) + 3);
    const movements = await db()
      .select({ delta: stockMovements.delta, reason: stockMovements.reason })
      .from(stockMovements)
      .where(and(eq(stockMovements.orderId, order._id), eq(stockMovements.toolId, a._id)))
      .orderBy(asc(stockMovements.id));
    expect(movements).toEqual([
      { delta: -4, reason: "order" },
      { delta: 2, reason: "cancel" },
      { delta: 1, reason: "return" },
    ]);
  });

  it("an order shipped before shipments existed (no parcel) left whole: a refund keeps it shipped and restocks only as the owner says", async () => {
    const { order, tools: [a] } = await paid([2]);
    if (!a) throw new Error("a tool");
    const sent = await admin.post(`/api/admin/orders/${order._id}/status`, { status: "shipped" });
    expect(sent.statusCode, sent.body).toBe(200);
    // As migration 0032 left such an order: shipped, with no parcel.
    await db().delete(shipments).where(eq(shipments.orderId, order._id));
    const before = await stock(a._id);
    await refund(order._id, { lines: [{ toolId: a._id, quantity: 1 }], restock: false, reason: "lost in the post" });
    expect(await stock(a._id)).toBe(before);
    const after = await adminOrder(order._id);
    expect(after).toMatchObject({ status: "shipped", fulfillmentStatus: "shipped", paymentStatus: "partly_refunded" });
    const parcel = await ship(order._id, { lines: [{ toolId: a._id, quantity: 1 }], carrier: "UPS" });
    expect(parcel.statusCode).toBe(409);
    expect(parcel.json()).toMatchObject({ error: "SHIPMENT_EXCEEDS" });
  });

  it("lists what waits to ship, oldest first, and only that", async () => {
    const older = await paid([2]);
    const newer = await placed([1], "cash_on_delivery");
    const unpaid = await placed([1], "bank_transfer");
    const done = await paid([1]);
    await shipped(done.order._id, { lines: [{ toolId: done.tools[0]?._id, quantity: 1 }], carrier: "UPS" });
    const partly = await paid([2]);
    await shipped(partly.order._id, { lines: [{ toolId: partly.tools[0]?._id, quantity: 1 }], carrier: "UPS" });
    const res = await admin.get("/api/admin/orders?status=to_ship&limit=100");
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json() as AdminOrder[]).map((o) => o._id);
    expect(ids).toContain(older.order._id);
    expect(ids).toContain(newer.order._id);
    expect(ids).toContain(partly.order._id);
    expect(ids).not.toContain(unpaid.order._id);
    expect(ids).not.toContain(done.order._id);
    expect(ids.indexOf(older.order._id)).toBeLessThan(ids.indexOf(newer.order._id));
    expect(ids.indexOf(newer.order._id)).toBeLessThan(ids.indexOf(partly.order._id));
  });

  it("prints a packing slip listing exactly the parcel's units and what is still to come, for the admin only", async () => {
    const { order, c, tools: [a, b] } = await paid([5, 2]);
    if (!a || !b) throw new Error("two tools");
    const { shipment } = await shipped(order._id, { lines: [{ toolId: a._id, quantity: 3 }], carrier: "UPS", trackingNumber: UPS });
    const res = await admin.get(`/api/admin/shipments/${shipment._id}/packing-slip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/pdf");
    const text = pdfText(res.rawPayload);
    expect(text).toContain("Packing slip");
    expect(text).toContain(shipment.number);
    expect(text).toContain(UPS);
    const parcel = text.slice(text.indexOf("In this parcel"), text.indexOf("Still to come"));
    const toCome = text.slice(text.indexOf("Still to come"));
    expect(parcel).toContain(a.name);
    expect(parcel).toContain("3");
    expect(parcel).not.toContain(b.name);
    expect(toCome).toContain(a.name);
    expect(toCome).toContain(b.name);
    expect(toCome).toMatch(/\b2\b/);
    expect((await c.get(`/api/admin/shipments/${shipment._id}/packing-slip`)).statusCode).toBe(403);
    expect((await admin.get(`/api/admin/shipments/${randomUUID()}/packing-slip`)).statusCode).toBe(404);
  });
});
