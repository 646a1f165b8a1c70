import { and, desc, eq, sql } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import type { Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { pageWithTotal, totalOver } from "../db/paging";
import { orders, tools } from "../db/schema";
import { conflict, notFound } from "../http/errors";

type OrderRow = typeof orders.$inferSelect;

export const toOrderDto = (row: OrderRow): Order => ({
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
  createdAt: row.createdAt.toISOString(),
});

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
  return { items: result.items.map(toOrderDto), total: result.total };
}

/**
 * Cancels the caller's own pending order and returns its stock, in one transaction. The
 * guard `status = 'pending'` on the order's UPDATE is what makes it exactly once: a repeat
 * matches no row, and of two concurrent cancels the second waits on the first's row lock,
 * then re-checks the guard against the committed row and matches nothing either. Only the
 * cancel that changed the row restocks, and both updates commit together or not at all.
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
    await tx
      .update(tools)
      .set({ availableQuantity: sql`${tools.availableQuantity} + ${row.quantity}` })
      .where(eq(tools.id, row.toolId));
    return row;
  });
  if (cancelled) {
    announceChange(db, "tools");
    return toOrderDto(cancelled);
  }

  const [existing] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!existing) throw notFound(API_TEXT.orderNotFound);
  // Already cancelled: repeating the cancel changes nothing and says so.
  if (existing.status === "cancelled") return toOrderDto(existing);
  throw conflict("ORDER_NOT_PENDING", API_TEXT.orderNotPending);
}
