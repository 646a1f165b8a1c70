/**
 * The console's view of orders (issue 49: the orders module serves its own console): every
 * customer's orders by status and customer, the ones waiting to ship oldest first, and one order
 * with its customer.
 */
import { and, asc, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import type { OrderStatus } from "../../contract/order-lifecycle";
import type { AdminOrder } from "../../contract/admin-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ACCOUNT_DELETION_TEXT } from "../../contract/texts/account";
import type { Db } from "../db/client";
import { escapeLike } from "../db/like";
import { cappedCount, type Page } from "../db/paging";
import { orderLines, orders, refundLines, refunds, shipmentLines, shipments, user } from "../db/schema";
import { notFound } from "../http/errors";
import { withDetails } from "./service";

export interface AdminOrderQuery {
  status?: OrderStatus | "to_ship" | undefined;
  customer?: string | undefined;
  page: number;
  limit: number;
}

/**
 * An order's customer; the orders of a deleted account stay in the books with no one behind
 * them (decision 0012): 'Former customer', no id, no e-mail.
 */
const customerColumns = {
  id: sql<string>`coalesce(${user.id}, '')`,
  name: sql<string>`coalesce(${user.name}, ${ACCOUNT_DELETION_TEXT.formerCustomer})`,
  email: sql<string>`coalesce(${user.email}, '')`,
};

/** Every customer's orders, newest first, by status and by part of the customer's name or e-mail. */
/**
 * An order that may ship (orders/shipments.ts mayShip: paid, or cash on delivery and terms while
 * pending) with units left to ship: ordered − shipped (not cancelled) − refunded without a return.
 */
const waitingToShip = sql`("orders"."status" = 'paid' or ("orders"."status" = 'pending' and "orders"."payment_method" in ('cash_on_delivery', 'terms')))
  and exists (
    select 1 from ${orderLines} l
     where l.order_id = "orders"."id"
       and l.quantity
           - coalesce((select sum(sl.quantity) from ${shipmentLines} sl join ${shipments} s on s.id = sl.shipment_id
                        where s.order_id = l.order_id and s.status <> 'cancelled' and sl.position = l.position), 0)
           - coalesce((select sum(rl.quantity) from ${refundLines} rl join ${refunds} r on r.id = rl.refund_id
                        where r.order_id = l.order_id and r.status <> 'failed' and r.return_id is null and rl.position = l.position), 0) > 0)`;

export async function listAdminOrders(db: Db, query: AdminOrderQuery): Promise<Page<AdminOrder>> {
  const filters: SQL[] = [];
  const { status } = query;
  const toShip = status === "to_ship";
  if (status === "to_ship") filters.push(waitingToShip);
  else if (status) filters.push(eq(orders.status, status));
  if (query.customer) {
    const pattern = `%${escapeLike(query.customer)}%`;
    const match = or(ilike(user.email, pattern), ilike(user.name, pattern));
    if (match) filters.push(match);
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({ row: orders, customer: customerColumns })
      .from(orders)
      .leftJoin(user, eq(user.id, orders.userId))
      .where(where)
      // What waits to ship: the oldest first, as the warehouse works through it.
      .orderBy(...(toShip ? [asc(orders.createdAt), asc(orders.number)] : [desc(orders.createdAt), desc(orders.number)]))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(orders).leftJoin(user, eq(user.id, orders.userId)).where(where).$dynamic()),
  ]);
  const detailed = await withDetails(db, rows.map((r) => r.row));
  return { items: detailed.map((order, i) => ({ ...order, customer: (rows[i] as (typeof rows)[number]).customer })), ...total };
}

export async function getAdminOrder(db: Db, id: string): Promise<AdminOrder> {
  const [row] = await db
    .select({ row: orders, customer: customerColumns })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, id));
  if (!row) throw notFound(API_TEXT.orderNotFound);
  const [order] = await withDetails(db, [row.row]);
  if (!order) throw notFound(API_TEXT.orderNotFound);
  return { ...order, customer: row.customer };
}
