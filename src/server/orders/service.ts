import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import type { Order, OrderEvent } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { pageWithTotal, totalOver } from "../db/paging";
import { orderEvents, orderLines, orders, tools } from "../db/schema";
import { conflict, notFound } from "../http/errors";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

/** Who moved an order, as its history tells it. */
export type ActorRole = OrderEvent["by"];

export const toOrderDto = (row: OrderRow, lines: OrderLineRow[], events: OrderEventRow[]): Order => ({
  _id: row.id,
  number: row.number,
  toolId: row.toolId,
  name: row.toolName,
  quantity: row.quantity,
  unitPrice: centsToDollars(row.unitPriceCents),
  total: centsToDollars(row.totalCents),
  status: row.status,
  address: row.address,
  phone: row.phone,
  paymentMethod: row.paymentMethod,
  note: row.note,
  createdAt: row.createdAt.toISOString(),
  lines: [...lines]
    .sort((a, b) => a.position - b.position)
    .map((l) => ({
      toolId: l.toolId,
      name: l.toolName,
      quantity: l.quantity,
      unitPrice: centsToDollars(l.unitPriceCents),
      lineTotal: centsToDollars(l.lineTotalCents),
    })),
  history: [...events]
    .sort((a, b) => a.id - b.id)
    .map((e) => ({ status: e.status, at: e.createdAt.toISOString(), by: e.actorRole as ActorRole })),
});

/** Rows by a key (Map.groupBy arrives in Node 21; we run on 20). */
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** These orders with their lines and history: two queries, however many orders. */
export async function withDetails(db: Db | Tx, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events] = await Promise.all([
    db.select().from(orderLines).where(inArray(orderLines.orderId, ids)),
    db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(asc(orderEvents.id)),
  ]);
  const linesOf = groupBy(lines, (l) => l.orderId);
  const eventsOf = groupBy(events, (e) => e.orderId);
  return rows.map((row) => toOrderDto(row, linesOf.get(row.id) ?? [], eventsOf.get(row.id) ?? []));
}

/**
 * Writes new orders' lines and the first step of their history, in the orders' transaction.
 * Nothing is read back: the answer is built from what was written (a hot path: the order
 * desk and the checkout desk call it for every batch).
 */
export async function recordPlacedOrders(
  tx: Tx,
  placed: { order: OrderRow; lines: Omit<OrderLineRow, "orderId" | "position">[] }[],
): Promise<Order[]> {
  if (placed.length === 0) return [];
  const lines = placed.map(({ order, lines: orderLines }) => orderLines.map((line, position) => ({ ...line, orderId: order.id, position })));
  const events = placed.map(({ order }) => ({
    orderId: order.id,
    status: "pending" as const,
    actorId: order.userId,
    actorRole: "customer",
    createdAt: order.createdAt,
  }));
  // Both inserts in one statement (one round trip while the tools' rows are locked).
  const writtenLines = tx.$with("written_lines").as(tx.insert(orderLines).values(lines.flat()).returning({ orderId: orderLines.orderId }));
  await tx
    .with(writtenLines)
    .insert(orderEvents)
    .values(events);
  // The event's id only orders a history; a new order's has one step.
  return placed.map(({ order }, i) => toOrderDto(order, lines[i] ?? [], [{ id: 0, ...(events[i] as Omit<OrderEventRow, "id">) }]));
}

export async function listOrders(
  db: Db,
  userId: string,
  page: number,
  limit: number,
): Promise<{ items: Order[]; total: number }> {
  const mine = eq(orders.userId, userId);
  const result = await pageWithTotal(
    db
      .select({ row: orders, total: totalOver() })
      .from(orders)
      .where(mine)
      .orderBy(desc(orders.createdAt), desc(orders.number))
      .limit(limit)
      .offset((page - 1) * limit),
    page,
    () => db.$count(orders, mine),
  );
  return { items: await withDetails(db, result.items), total: result.total };
}

/** One of the caller's orders; anyone else's is not found. */
export async function getOrder(db: Db, userId: string, orderId: string): Promise<Order> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw notFound(API_TEXT.orderNotFound);
  const [order] = await withDetails(db, [row]);
  return order as Order;
}

/**
 * Returns every line's stock of an order that has just been cancelled (in `tx`), tools in
 * id order like every other transaction that locks tools, and records the move.
 */
export async function restockCancelled(tx: Tx, order: OrderRow, actor: { id: string | null; role: ActorRole }): Promise<void> {
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const perTool = new Map<string, number>();
  for (const line of lines) perTool.set(line.toolId, (perTool.get(line.toolId) ?? 0) + line.quantity);
  for (const [toolId, quantity] of [...perTool].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await tx
      .update(tools)
      .set({ availableQuantity: sql`${tools.availableQuantity} + ${quantity}` })
      .where(eq(tools.id, toolId));
  }
  await tx.insert(orderEvents).values({ orderId: order.id, status: "cancelled", actorId: actor.id, actorRole: actor.role });
}

/**
 * Cancels the caller's own pending order and returns each line's stock, in one transaction.
 * The guard `status = 'pending'` on the order's UPDATE is what makes it exactly once: a repeat
 * matches no row, and of two concurrent cancels the second waits on the first's row lock,
 * then re-checks the guard against the committed row and matches nothing either. Only the
 * cancel that changed the row restocks, and everything commits together or not at all.
 * Someone else's order is simply not found.
 */
export async function cancelOrder(db: Db, userId: string, orderId: string): Promise<Order> {
  const cancelled = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ status: "cancelled", cancelledAt: sql`now()` })
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId), eq(orders.status, "pending")))
      .returning();
    if (!row) return undefined;
    await restockCancelled(tx, row, { id: userId, role: "customer" });
    return row;
  });
  if (cancelled) {
    announceChange(db, "tools");
    return getOrder(db, userId, orderId);
  }

  const order = await getOrder(db, userId, orderId);
  // Already cancelled: repeating the cancel changes nothing and says so.
  if (order.status === "cancelled") return order;
  throw conflict("ORDER_NOT_PENDING", API_TEXT.orderNotPending);
}
