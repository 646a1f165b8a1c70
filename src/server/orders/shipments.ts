/**
 * Shipments (issue 52, DESIGN "Orders" → Shipments; issue 49's defect 3). The owner ships any part
 * of what is left to ship of an order, as parcels with a carrier and a tracking number; each is a
 * transition of the order, made in one transaction with the order's row locked first (as refunds
 * and returns take it), so racing shipments of one order take turns and each sees the ones before:
 *
 * - an order ships once placed and not waiting for payment or approval: a card or bank-transfer
 *   order when `paid`, a cash-on-delivery or terms order while `pending` (or `paid`);
 * - what is left of a line to ship is what was ordered less what shipped (cancelled shipments do
 *   not count) less what refunds that did not fail gave back before it shipped: a refund takes a
 *   line's units left to ship first (the store stops sending them; they go back to stock whatever
 *   its `restock` says, as they never left) and records how many (`refund_lines.unshipped`; a
 *   return's units were delivered, so none). More → 409 SHIPMENT_EXCEEDS, nothing written;
 * - the order moves through the lifecycle (service.ts, moveInTransaction) to `shipped` once nothing
 *   is left to ship, to `delivered` once every shipment is; a cancelled shipment of a `shipped`
 *   order gives it its step before back (`paid`, or `pending` for cash and terms not yet paid);
 * - each shipment is numbered from the document counter (`SH-2026-000001`, last in the
 *   transaction), said in the history and mailed to the customer with its tracking link;
 * - the same Idempotency-Key on the same order gives the first shipment again (another body: 409).
 *
 * The old whole-order move (`POST /api/admin/orders/:id/status {status: "shipped"}`, from `paid`
 * as before) ships everything left as one shipment with no carrier nor tracking
 * (`shipEverythingLeft`), and is 409 NOTHING_TO_SHIP when nothing is left; `{status: "delivered"}`
 * marks its shipments delivered.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { z } from "../../contract/zod";
import type { shipmentInputSchema, ShipmentMove } from "../../contract/shipment-schemas";
import { trackingUrl } from "../../contract/shipment-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { SHIPMENT_TEXT } from "../../contract/texts/shipments";
import { recordAudit } from "../audit";
import type { Db, Tx } from "../db/client";
import { orderEvents, orderLines, orders, refundLines, refunds, shipmentLines, shipments } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import type { OrderMail } from "../mail/outbox";
import type { OrderStatus } from "../../contract/order-lifecycle";
import { announceMove, moveInTransaction, type MoveResult, type OrderRow } from "./service";
import { shippedBeforeShipments, unitsLeftToShip, type ShipmentRow } from "./shipment-view";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";

type Parsed = z.output<typeof shipmentInputSchema>;

/** Paid after delivery (by the courier, or against its invoice): these ship while `pending`. */
const PAID_LATER = new Set(["cash_on_delivery", "terms"]);

/** Whether an order in this status, paid this way, may take a shipment. */
export const mayShip = (order: Pick<OrderRow, "status" | "paymentMethod">): boolean =>
  order.status === "paid" || (order.status === "pending" && PAID_LATER.has(order.paymentMethod));

/** What an order holds of its shipping, read in `tx` under the order's lock. */
interface ShippingState {
  lines: (typeof orderLines.$inferSelect)[];
  /** Shipments that are not cancelled. */
  active: ShipmentRow[];
  /** Per order line's position: units left to ship. */
  left: Map<number, number>;
  leftTotal: number;
}

async function shippingState(tx: Tx, orderId: string): Promise<ShippingState> {
  // One statement at a time: a transaction is one client, which takes one query at a time (pg 9 refuses a second).
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.position));
  const parcels = await tx.select().from(shipments).where(eq(shipments.orderId, orderId));
  const shippedRows = await tx
    .select({ position: shipmentLines.position, quantity: shipmentLines.quantity })
    .from(shipmentLines)
    .innerJoin(shipments, eq(shipments.id, shipmentLines.shipmentId))
    .where(and(eq(shipments.orderId, orderId), ne(shipments.status, "cancelled")));
  const refunded = await tx
    .select({ position: refundLines.position, quantity: refundLines.quantity, unshipped: refundLines.unshipped })
    .from(refundLines)
    .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
    .where(and(eq(refunds.orderId, orderId), ne(refunds.status, "failed")));
  const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  const legacy = shippedBeforeShipments(order?.status ?? "", parcels.length);
  const left = new Map(
    lines.map((l) => {
      const shipped = shippedRows.filter((r) => r.position === l.position).reduce((s, r) => s + r.quantity, 0);
      return [l.position, unitsLeftToShip(l.quantity, shipped, refunded.filter((r) => r.position === l.position), legacy)];
    }),
  );
  const active = parcels.filter((p) => p.status !== "cancelled");
  return { lines, active, left, leftTotal: [...left.values()].reduce((s, n) => s + n, 0) };
}

/**
 * Per order line's position, the units left to ship, in `tx` under the order's lock: a refund of
 * units takes those first (the store stops sending them) and says how many it took (issue 52).
 */
export async function leftToShip(tx: Tx, orderId: string): Promise<Map<number, number>> {
  return (await shippingState(tx, orderId)).left;
}

/** Statuses a `shipped` order goes back to when a cancelled shipment leaves units to ship. */
async function stepBefore(tx: Tx, order: OrderRow): Promise<OrderStatus> {
  if (!PAID_LATER.has(order.paymentMethod)) return "paid";
  const [paid] = await tx.select({ id: orderEvents.id }).from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.status, "paid"))).limit(1);
  return paid ? "paid" : "pending";
}

export interface ShipActor {
  id: string;
  email: string;
}

/**
 * Brings the order's status in line with its shipments, in `tx` with the order's row locked:
 * `shipped` once at least one parcel left and nothing is left to ship, `delivered` once every
 * parcel is, back a step when a cancelled parcel leaves units to ship. An order with no parcel
 * keeps its status (a fully refunded one ships nothing). Returns the moves made, to announce.
 */
export async function settleShipping(tx: Tx, orderId: string, actor: { id: string | null }, note?: { text: string; role: "admin" }): Promise<{ to: OrderStatus; result: MoveResult }[]> {
  const moves: { to: OrderStatus; result: MoveResult }[] = [];
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
  if (!order) return moves;
  const state = await shippingState(tx, orderId);
  const allDelivered = state.active.length > 0 && state.active.every((s) => s.status === "delivered");
  let status = order.status;
  const move = async (to: OrderStatus, role: "admin" | "store") => {
    // What moved it (a parcel, its delivery, its cancel) is said with the order's first move, in one step of its history.
    const said = moves.length === 0 ? note?.text : undefined;
    const result = await moveInTransaction(tx, orderId, to, { id: actor.id, role }, { note: said });
    moves.push({ to, result });
    status = to;
  };
  if (mayShip(order) && state.active.length > 0 && state.leftTotal === 0) await move("shipped", "admin");
  else if (status === "shipped" && state.leftTotal > 0) await move(await stepBefore(tx, order), "store");
  if (status === "shipped" && state.leftTotal === 0 && allDelivered) await move("delivered", "admin");
  // Nothing moved: the note is a step of its own, at the order's status.
  if (moves.length === 0 && note) await tx.insert(orderEvents).values({ orderId, status: order.status, actorId: actor.id, actorRole: note.role, note: note.text });
  return moves;
}

const hashOf = (input: Parsed) =>
  createHash("sha256")
    .update(JSON.stringify({ lines: [...input.lines].sort((a, b) => (a.toolId < b.toolId ? -1 : 1)), carrier: input.carrier, trackingNumber: input.trackingNumber ?? null }))
    .digest("hex");

export interface ShipOutcome {
  shipmentId: string;
  replayed: boolean;
  moves: { to: OrderStatus; result: MoveResult }[];
}

/**
 * Ships `input.lines` of the order as one parcel (see the top of this file). 404 for an unknown
 * order; 400 naming a tool that is not in the order; 409 ORDER_NOT_SHIPPABLE for an order that
 * may not ship, SHIPMENT_EXCEEDS for more than is left; nothing written on any of them.
 */
export async function createShipment(db: Db, mail: OrderMail | undefined, orderId: string, input: Parsed, key: string | null, actor: ShipActor): Promise<ShipOutcome> {
  const outcome = await db.transaction((tx) => shipInTransaction(tx, mail, orderId, input, key, actor));
  for (const m of outcome.moves) announceMove(db, m.result, m.to);
  return outcome;
}

async function shipInTransaction(tx: Tx, mail: OrderMail | undefined, orderId: string, input: Parsed, key: string | null, actor: ShipActor): Promise<ShipOutcome> {
  const requestHash = hashOf(input);
  // The order's row first: racing shipments (and refunds) of one order wait here, then see each other's rows.
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
  if (!order) throw notFound(API_TEXT.orderNotFound);
  if (key !== null) {
    const [earlier] = await tx
      .select({ id: shipments.id, requestHash: shipments.requestHash })
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), eq(shipments.idempotencyKey, key)));
    if (earlier) {
      if (earlier.requestHash !== requestHash) throw conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);
      return { shipmentId: earlier.id, replayed: true, moves: [] };
    }
  }
  const state = await shippingState(tx, orderId);
  const planned = input.lines.map((wanted, i) => {
    const line = state.lines.find((l) => l.toolId === wanted.toolId);
    if (!line) throw new ApiError(400, "VALIDATION", SHIPMENT_TEXT.notInOrder, { details: [{ path: `body.lines.${i}.toolId`, message: SHIPMENT_TEXT.notInOrder }] });
    return { line, quantity: wanted.quantity };
  });
  // A shipped or delivered order has nothing left: that is the answer it gets, not "not shippable".
  if (!mayShip(order) && !(["shipped", "delivered"].includes(order.status) && state.leftTotal === 0)) throw conflict("ORDER_NOT_SHIPPABLE", SHIPMENT_TEXT.notShippable(order.status));
  for (const p of planned) if (p.quantity > (state.left.get(p.line.position) ?? 0)) throw conflict("SHIPMENT_EXCEEDS", SHIPMENT_TEXT.exceeds);
  return writeShipment(tx, mail, order, planned, { carrier: input.carrier, trackingNumber: input.trackingNumber ?? null, key, requestHash }, state.leftTotal, actor);
}

async function writeShipment(
  tx: Tx,
  mail: OrderMail | undefined,
  order: OrderRow,
  planned: { line: (typeof orderLines.$inferSelect); quantity: number }[],
  parcel: { carrier: string | null; trackingNumber: string | null; key: string | null; requestHash: string | null },
  leftBefore: number,
  actor: ShipActor,
): Promise<ShipOutcome> {
  // Last: the counter's row is held to the commit (invoices/numbers.ts).
  const [number] = await takeDocumentNumbers(tx, "SH", documentYear(), 1);
  if (!number) throw new Error("no shipment number taken");
  const [row] = await tx
    .insert(shipments)
    .values({ orderId: order.id, number, carrier: parcel.carrier, trackingNumber: parcel.trackingNumber, idempotencyKey: parcel.key, requestHash: parcel.requestHash, actorId: actor.id })
    .returning();
  if (!row) throw new Error("shipment not written");
  await tx.insert(shipmentLines).values(planned.map((p) => ({ shipmentId: row.id, position: p.line.position, toolId: p.line.toolId, toolName: p.line.toolName, quantity: p.quantity })));
  const moves = await settleShipping(tx, order.id, actor, { text: SHIPMENT_TEXT.shipped(number, parcel.carrier, parcel.trackingNumber), role: "admin" });
  // The old whole-order move is audited as the status move it always was.
  const audit =
    parcel.key === null && parcel.carrier === null && moves[0]
      ? { action: "order.status", before: { status: moves[0].result.before.status }, after: { status: moves[0].result.after.status } }
      : {
          action: "order.shipment",
          before: null,
          after: { shipmentId: row.id, number, carrier: parcel.carrier, trackingNumber: parcel.trackingNumber, lines: planned.map((p) => ({ toolId: p.line.toolId, quantity: p.quantity })) },
        };
  await recordAudit(tx, actor, { ...audit, entity: "order", entityId: order.id });
  const complete = leftBefore === planned.reduce((s, p) => s + p.quantity, 0);
  await mail?.shipmentSent(tx, {
    orderId: order.id,
    orderNumber: order.number,
    userId: order.userId,
    complete,
    carrier: parcel.carrier,
    trackingNumber: parcel.trackingNumber,
    trackingUrl: trackingUrl(parcel.carrier, parcel.trackingNumber),
    lines: planned.map((p) => ({ name: p.line.toolName, quantity: p.quantity })),
  });
  return { shipmentId: row.id, replayed: false, moves };
}

/**
 * The old whole-order move to `shipped` (old clients, the console before issue 52): everything
 * left ships as one parcel with no carrier nor tracking number. Nothing left → 409 NOTHING_TO_SHIP
 * (issue 49's defect 3: a fully refunded order shipped for free); an order that may not ship →
 * the lifecycle's 409 ORDER_MOVE_FORBIDDEN, as before.
 */
export async function shipEverythingLeft(db: Db, mail: OrderMail | undefined, orderId: string, actor: ShipActor): Promise<ShipOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
    if (!order) throw notFound(API_TEXT.orderNotFound);
    if (order.status === "shipped") return { shipmentId: "", replayed: true, moves: [] };
    const state = await shippingState(tx, orderId);
    // As before shipments: the whole order ships from `paid` only (a pending cash order is marked paid first).
    if (order.status !== "paid") throw conflict("ORDER_MOVE_FORBIDDEN", ADMIN_API_TEXT.orderMoveForbidden(order.status, "shipped"));
    if (state.leftTotal === 0) throw conflict("NOTHING_TO_SHIP", SHIPMENT_TEXT.nothingToShip);
    const planned = state.lines.filter((l) => (state.left.get(l.position) ?? 0) > 0).map((line) => ({ line, quantity: state.left.get(line.position) ?? 0 }));
    return writeShipment(tx, mail, order, planned, { carrier: null, trackingNumber: null, key: null, requestHash: null }, state.leftTotal, actor);
  });
  for (const m of outcome.moves) announceMove(db, m.result, m.to);
  return outcome;
}

/** The old whole-order move to `delivered`: the order's parcels on their way are delivered with it. */
export async function deliverEverything(tx: Tx, orderId: string): Promise<void> {
  await tx.update(shipments).set({ status: "delivered", deliveredAt: sql`now()` }).where(and(eq(shipments.orderId, orderId), eq(shipments.status, "shipped")));
}

/**
 * POST /api/admin/shipments/:id/status: `shipped` → `delivered` | `cancelled` (never a delivered or
 * cancelled one: 409 SHIPMENT_MOVE_FORBIDDEN, nothing written); the same move again changes
 * nothing. The order follows (settleShipping).
 */
export async function moveShipment(db: Db, shipmentId: string, input: ShipmentMove, actor: ShipActor): Promise<{ orderId: string }> {
  const outcome = await db.transaction(async (tx) => {
    const [found] = await tx.select({ orderId: shipments.orderId }).from(shipments).where(eq(shipments.id, shipmentId));
    if (!found) throw notFound(SHIPMENT_TEXT.notFound);
    // The order's row, then the shipment: the lock order of every shipment and refund.
    const [order] = await tx.select().from(orders).where(eq(orders.id, found.orderId)).for("no key update");
    if (!order) throw notFound(SHIPMENT_TEXT.notFound);
    const [shipment] = await tx.select().from(shipments).where(eq(shipments.id, shipmentId));
    if (!shipment) throw notFound(SHIPMENT_TEXT.notFound);
    if (shipment.status === input.status) return { orderId: order.id, moves: [] };
    if (shipment.status !== "shipped") throw conflict("SHIPMENT_MOVE_FORBIDDEN", SHIPMENT_TEXT.moveForbidden(shipment.status, input.status));
    const delivered = input.status === "delivered";
    await tx
      .update(shipments)
      .set(delivered ? { status: "delivered", deliveredAt: sql`now()` } : { status: "cancelled", cancelledAt: sql`now()` })
      .where(eq(shipments.id, shipmentId));
    await recordAudit(tx, actor, { action: "order.shipment.status", entity: "order", entityId: order.id, before: { shipmentId, status: shipment.status }, after: { shipmentId, status: input.status } });
    const note = delivered ? SHIPMENT_TEXT.delivered(shipment.number) : SHIPMENT_TEXT.cancelled(shipment.number);
    return { orderId: order.id, moves: await settleShipping(tx, order.id, actor, { text: note, role: "admin" }) };
  });
  for (const m of outcome.moves) announceMove(db, m.result, m.to);
  return { orderId: outcome.orderId };
}

/** The order of a shipment, for the packing slip (null when there is no such shipment). */
export async function shipmentOrderId(db: Db, shipmentId: string): Promise<string | null> {
  const [row] = await db.select({ orderId: shipments.orderId }).from(shipments).where(eq(shipments.id, shipmentId));
  return row?.orderId ?? null;
}
