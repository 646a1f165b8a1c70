/**
 * What an order shows of its shipments (issue 52, DESIGN "Orders" → Shipments): the shipments
 * themselves, each line's `shippedQuantity`, `paymentStatus` and `fulfillmentStatus`. Read by the
 * order's readers (service.ts); the moves are shipments.ts's.
 */
import { and, eq, inArray, ne } from "drizzle-orm";
import type { FulfillmentStatus, OrderPaymentStatus, Shipment, ShipmentStatus } from "../../contract/shipment-schemas";
import { trackingUrl } from "../../contract/shipment-schemas";
import type { Order } from "../../contract/schemas";
import { dollarsToCents } from "../../contract/money";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
import { refundLines, refunds, shipmentLines, shipments } from "../db/schema";

export type ShipmentRow = typeof shipments.$inferSelect;
export type ShipmentLineRow = typeof shipmentLines.$inferSelect;

export const toShipmentDto = (s: ShipmentRow, lines: ShipmentLineRow[]): Shipment => ({
  _id: s.id,
  number: s.number,
  status: s.status as ShipmentStatus,
  carrier: s.carrier,
  trackingNumber: s.trackingNumber,
  trackingUrl: trackingUrl(s.carrier, s.trackingNumber),
  lines: [...lines].sort((a, b) => a.position - b.position).map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity })),
  shippedAt: s.shippedAt.toISOString(),
  deliveredAt: s.deliveredAt?.toISOString() ?? null,
});

/** The shipments of these orders, and their lines. */
export async function readShipments(db: Db | Tx, orderIds: string[]): Promise<[ShipmentRow[], ShipmentLineRow[]]> {
  if (orderIds.length === 0) return [[], []];
  return readAll<[ShipmentRow[], ShipmentLineRow[]]>(db, [
    () => db.select().from(shipments).where(inArray(shipments.orderId, orderIds)),
    () =>
      db
        .select({ line: shipmentLines })
        .from(shipmentLines)
        .innerJoin(shipments, eq(shipments.id, shipmentLines.shipmentId))
        .where(inArray(shipments.orderId, orderIds))
        .then((rows) => rows.map((r) => r.line)),
  ]);
}

/** A refund's units of one line: how many, and how many of them had not shipped when it was made. */
export interface RefundedUnits {
  quantity: number;
  unshipped: number;
}

/**
 * The one rule of what is left of a line to ship (DESIGN "Orders" → Shipments, decision 0022), for
 * the moves (shipments.ts) and the order's view alike: ordered − max(shipped, refunded after it
 * shipped) − refunded before it shipped, never below 0. `shipped` counts parcels not cancelled; the
 * max keeps a unit refunded once shipped from shipping again if its parcel is cancelled afterwards.
 * An order shipped or delivered before shipments existed (`legacy`: no parcel at all) left whole.
 */
export function unitsLeftToShip(ordered: number, shipped: number, refunded: readonly RefundedUnits[], legacy: boolean): number {
  if (legacy) return 0;
  const after = refunded.reduce((s, r) => s + r.quantity - r.unshipped, 0);
  const before = refunded.reduce((s, r) => s + r.unshipped, 0);
  return Math.max(0, ordered - Math.max(shipped, after) - before);
}

/** Shipped or delivered with no parcel at all (cancelled ones included): moved as a whole before shipments existed. */
export const shippedBeforeShipments = (status: string, parcels: number): boolean => parcels === 0 && (status === "shipped" || status === "delivered");

/**
 * An order with its shipments (oldest first), each line's `shippedQuantity`, its `paymentStatus`
 * and `fulfillmentStatus` (DESIGN "Orders" → Shipments). `refunded`: the refunds' units per tool
 * (refunds that did not fail), as `unitsLeftToShip` counts them.
 */
export function withShipments(order: Order, rows: ShipmentRow[], lines: ShipmentLineRow[], refunded: Map<string, RefundedUnits[]>, paidCents: number): Order {
  const mine = rows.filter((s) => s.orderId === order._id).sort((a, b) => a.shippedAt.getTime() - b.shippedAt.getTime() || (a.number < b.number ? -1 : 1));
  const active = mine.filter((s) => s.status !== "cancelled");
  const activeIds = new Set(active.map((s) => s.id));
  const shipped = new Map<string, number>();
  for (const l of lines) if (activeIds.has(l.shipmentId)) shipped.set(l.toolId, (shipped.get(l.toolId) ?? 0) + l.quantity);
  const legacy = shippedBeforeShipments(order.status, mine.length);
  const left = order.lines.reduce((s, l) => s + unitsLeftToShip(l.quantity, shipped.get(l.toolId) ?? 0, refunded.get(l.toolId) ?? [], legacy), 0);
  // An order shipped or delivered before shipments existed has none: its status says it all.
  let fulfillmentStatus: FulfillmentStatus = "unfulfilled";
  if (order.status === "delivered" || (active.length > 0 && left === 0 && active.every((s) => s.status === "delivered"))) fulfillmentStatus = "delivered";
  else if (order.status === "shipped" || (active.length > 0 && left === 0)) fulfillmentStatus = "shipped";
  else if (active.length > 0) fulfillmentStatus = "partly_shipped";
  return {
    ...order,
    shipments: mine.map((s) => toShipmentDto(s, lines.filter((l) => l.shipmentId === s.id))),
    lines: order.lines.map((l) => ({ ...l, shippedQuantity: shipped.get(l.toolId) ?? 0 })),
    paymentStatus: paymentStatusOf(order, paidCents),
    fulfillmentStatus,
  };
}

/**
 * Whether the store has the order's money: the order went through `paid` (the owner's word, the
 * card's webhook), a terms invoice is paid in full, or cash on delivery was handed to the courier
 * (delivered). Then what refunds gave back makes it partly refunded or refunded.
 */
function paymentStatusOf(order: Order, paidCents: number): OrderPaymentStatus {
  const totalCents = dollarsToCents(order.total);
  const refundedCents = dollarsToCents(order.refundedTotal ?? 0);
  const received =
    order.history.some((e) => e.status === "paid") ||
    (order.paymentMethod === "terms" && totalCents > 0 && paidCents >= totalCents) ||
    (order.paymentMethod === "cash_on_delivery" && order.status === "delivered") ||
    refundedCents > 0;
  if (!received) return "unpaid";
  if (refundedCents >= totalCents && totalCents > 0) return "refunded";
  return refundedCents > 0 ? "partly_refunded" : "paid";
}

/** The units of these orders' refunds that did not fail, per order and tool. */
export async function readRefundedUnits(db: Db | Tx, orderIds: string[]): Promise<Map<string, Map<string, RefundedUnits[]>>> {
  const out = new Map<string, Map<string, RefundedUnits[]>>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({ orderId: refunds.orderId, toolId: refundLines.toolId, quantity: refundLines.quantity, unshipped: refundLines.unshipped })
    .from(refundLines)
    .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
    .where(and(inArray(refunds.orderId, orderIds), ne(refunds.status, "failed")));
  for (const r of rows) {
    const perTool = out.get(r.orderId) ?? new Map<string, RefundedUnits[]>();
    perTool.set(r.toolId, [...(perTool.get(r.toolId) ?? []), { quantity: r.quantity, unshipped: r.unshipped }]);
    out.set(r.orderId, perTool);
  }
  return out;
}
