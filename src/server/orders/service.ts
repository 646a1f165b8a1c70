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

interface RawOrder {
  id: string;
  number: number;
  user_id: string;
  tool_id: string;
  tool_name: string;
  quantity: number;
  unit_price_cents: number;
  total_cents: string | number;
  status: OrderRow["status"];
  address: string;
  phone: string;
  created_at: string | Date;
  cancelled_at: string | Date | null;
}

const fromRaw = (r: RawOrder): OrderRow => ({
  id: r.id,
  number: r.number,
  userId: r.user_id,
  toolId: r.tool_id,
  toolName: r.tool_name,
  quantity: r.quantity,
  unitPriceCents: r.unit_price_cents,
  totalCents: Number(r.total_cents),
  status: r.status,
  address: r.address,
  phone: r.phone,
  createdAt: new Date(r.created_at),
  cancelledAt: r.cancelled_at === null ? null : new Date(r.cancelled_at),
});

const rowsOf = <T>(result: unknown): T[] =>
  // node-postgres returns { rows }, PGlite returns { rows } too; drizzle passes them through.
  (result as { rows: T[] }).rows;

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
    async () => (await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(mine))[0]?.n ?? 0,
  );
  return { items: result.items.map(toOrderDto), total: result.total };
}

/**
 * Cancels the caller's own pending order and returns its stock, in ONE statement: the
 * status guard makes a repeat (or the loser of a race of two cancels) match no row, so
 * the stock comes back exactly once. Someone else's order is simply not found.
 */
export async function cancelOrder(db: Db, userId: string, orderId: string): Promise<Order> {
  const result = await db.execute(sql`
    with cancelled as (
      update ${orders} set status = 'cancelled', cancelled_at = now()
       where id = ${orderId} and user_id = ${userId} and status = 'pending'
      returning *
    ), restocked as (
      update ${tools} set available_quantity = available_quantity + cancelled.quantity, updated_at = now()
        from cancelled where ${tools.id} = cancelled.tool_id
      returning ${tools.id}
    )
    select cancelled.* from cancelled, restocked`);
  const [row] = rowsOf<RawOrder>(result);
  if (row) {
    announceChange(db, "tools");
    return toOrderDto(fromRaw(row));
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
