/**
 * The outbox: every e-mail is a row written in the same transaction as what caused it (an
 * order, a reset request), so a message exists exactly when its cause does. The worker
 * (worker.ts) sends it later. Nothing here talks to a mail server.
 */
import { sql, type SQL } from "drizzle-orm";
import { dollarsToCents } from "../../contract/money";
import type { Order } from "../../contract/schemas";
import type { Db, Tx } from "../db/client";
import { mailOutbox } from "../db/schema";
import { templates, type MailOrder, type Rendered } from "./templates";

export interface Outgoing extends Rendered {
  to: string;
}

/** Writes messages to the outbox in one statement (inside the caller's transaction). */
export async function enqueueMail(tx: Tx | Db, messages: Outgoing[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.insert(mailOutbox).values(messages.map((m) => ({ to: m.to.toLowerCase(), subject: m.subject, text: m.text, html: m.html, kind: m.kind })));
}

export interface PlacedOrder {
  userId: string;
  order: Order;
}

export interface OrderMail {
  /** In the transaction that wrote the orders: the customers' and the admins' messages. */
  ordersPlaced(tx: Tx, placed: PlacedOrder[]): Promise<void>;
  /**
   * The same messages as one INSERT, for a caller that knows its orders' numbers before it writes
   * them and runs it as a CTE of the statement that does (the checkout batch); none for no orders.
   */
  ordersPlacedInsert(orders: MailOrder[]): SQL | undefined;
  /** In the transaction of a status move: the customer hears of shipped and cancelled orders. */
  statusMoved(tx: Tx, after: { id: string; number: number; userId: string | null; status: string }): Promise<void>;
}

const mailOrder = ({ userId, order }: PlacedOrder): MailOrder => ({
  id: order._id,
  number: order.number,
  userId,
  totalCents: dollarsToCents(order.total),
  paymentMethod: order.paymentMethod,
  lines: order.lines.map((l) => ({ toolName: l.name, quantity: l.quantity, lineTotalCents: dollarsToCents(l.lineTotal) })),
});

/**
 * Order mail for a batch of new orders in ONE statement (the order desks are a hot path): the
 * customer's address and the admins' (admin role, and ADMIN_EMAILS) are looked up by the insert.
 */
export function orderMail(publicUrl: string, adminEmails: string[]): OrderMail {
  const placedInsert = (orders: MailOrder[]): SQL | undefined => {
    if (orders.length === 0) return undefined;
    const customer = orders.map((o) => {
      const m = templates.orderPlaced(o, publicUrl);
      return { user_id: o.userId, subject: m.subject, text: m.text, html: m.html, kind: m.kind };
    });
    const admin = orders.map((o) => {
      const m = templates.adminNewOrder(o, publicUrl);
      return { subject: m.subject, text: m.text, html: m.html, kind: m.kind };
    });
    return sql`
      insert into ${mailOutbox} ("to", subject, text, html, kind)
      select lower(u.email), r.subject, r.text, r.html, r.kind
        from jsonb_to_recordset(${JSON.stringify(customer)}::jsonb) as r(user_id text, subject text, text text, html text, kind text)
        join "user" u on u.id = r.user_id
      union all
      select a.email, r.subject, r.text, r.html, r.kind
        from jsonb_to_recordset(${JSON.stringify(admin)}::jsonb) as r(subject text, text text, html text, kind text)
        cross join (select lower(email) as email from "user" where role = 'admin'
                    union select unnest(${`{${adminEmails.map((e) => `"${e.replace(/["\\]/g, "")}"`).join(",")}}`}::text[])) a`;
  };
  return {
    async statusMoved(tx, after) {
      const m =
        after.status === "shipped" ? templates.orderShipped(after, publicUrl) : after.status === "cancelled" ? templates.orderCancelled(after, publicUrl) : undefined;
      // An order whose customer deleted their account has nobody to tell.
      if (!m || after.userId === null) return;
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${after.userId}`);
    },
    async ordersPlaced(tx, placed) {
      const insert = placedInsert(placed.map(mailOrder));
      if (insert) await tx.execute(insert);
    },
    ordersPlacedInsert: placedInsert,
  };
}
