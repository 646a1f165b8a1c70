/**
 * The outbox: every e-mail is a row written in the same transaction as what caused it (an
 * order, a reset request), so a message exists exactly when its cause does. The worker
 * (worker.ts) sends it later. Nothing here talks to a mail server.
 */
import { eq, sql, type SQL } from "drizzle-orm";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import type { Order, ReturnStatus } from "../../contract/schemas";
import type { Db, Tx } from "../db/client";
import { mailOutbox, orders } from "../db/schema";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { render, storeLink, templates, type MailOrder, type ParcelMail, type PaymentGivenBack, type Rendered } from "./templates";

/** A document the worker renders and attaches when it sends the message (worker.ts). */
export type Attachment = NonNullable<(typeof mailOutbox.$inferInsert)["attachments"]>[number];

export interface Outgoing extends Rendered {
  to: string;
  attachments?: Attachment[];
}

/** Writes messages to the outbox in one statement (inside the caller's transaction). */
export async function enqueueMail(tx: Tx | Db, messages: Outgoing[]): Promise<void> {
  if (messages.length === 0) return;
  await tx
    .insert(mailOutbox)
    .values(messages.map((m) => ({ to: m.to.toLowerCase(), subject: m.subject, text: m.text, html: m.html, kind: m.kind, attachments: m.attachments?.length ? m.attachments : null })));
}

export interface PlacedOrder {
  userId: string;
  order: Order;
}

export interface OrderMail {
  /**
   * In the transaction that wrote the orders: the customers' and the admins' messages (and, for an
   * order that accepted a quote, the admins' "quote accepted"). An order is announced once: as it is
   * placed, a card order when it is paid (issue 40), so an abandoned card acceptance tells nobody.
   */
  ordersPlaced(tx: Tx, placed: PlacedOrder[]): Promise<void>;
  /**
   * The same messages as one INSERT, for a caller that knows its orders' numbers before it writes
   * them and runs it as a CTE of the statement that does (the checkout batch); none for no orders.
   */
  ordersPlacedInsert(orders: MailOrder[]): SQL | undefined;
  /**
   * A trade order waiting for approval (DESIGN "Trade accounts"): its account's approvers and
   * admins are mailed (never the buyer), as one INSERT run with the orders; none for no orders.
   */
  approvalsInsert(orders: { id: string; number: number; userId: string; accountId: string; totalCents: number }[]): SQL | undefined;
  /**
   * In the transaction of a status move: the customer hears of shipped and cancelled orders. A
   * cancelled order's message names its credit note: `after.creditNoteNumber` when the caller
   * gives the field (the order row after the move), else the order row as this transaction sees
   * it; either way, take the number before this call.
   */
  statusMoved(tx: Tx, after: { id: string; number: number; userId: string | null; status: string; creditNoteNumber?: string | null }): Promise<void>;
  /**
   * In the transaction that gives money back (an owner's refund of lines, or a late or second
   * payment's refund confirmed): the customer hears of it, its credit note attached when it has
   * one (a payment given back whole was never invoiced: none).
   */
  refundMade(
    tx: Tx,
    refund: {
      id: string;
      orderId: string;
      orderNumber: number;
      userId: string | null;
      amountCents: number;
      creditNoteNumber: string | null;
      /** The credit note attached (orders/credit-notes.ts); none for a payment given back whole. */
      creditNoteId?: string | undefined;
      card: boolean;
      payment?: PaymentGivenBack | undefined;
    },
  ): Promise<void>;
  /** In the transaction that decides a payment goes back (it came after the cancel, or twice): the customer hears it is being refunded. */
  refundOwed(tx: Tx, refund: { orderId: string; orderNumber: number; userId: string | null; amountCents: number; payment: PaymentGivenBack }): Promise<void>;
  /** In the transaction of a shipment (issue 52): the customer hears of each parcel, with its tracking link. */
  shipmentSent(tx: Tx, parcel: ParcelMail & { orderId: string; orderNumber: number; userId: string | null }): Promise<void>;
  /** In the transaction of a return's move (DESIGN "Refunds and returns"): the customer hears of each. */
  returnMoved(tx: Tx, moved: { orderId: string; orderNumber: number; userId: string | null; status: ReturnStatus; note: string | null }): Promise<void>;
}

/** Dollars the order may not carry yet (an order desk from before issue 31 leaves them out) as cents. */
const centsOf = (dollars: number | undefined) => (dollars === undefined ? undefined : dollarsToCents(dollars));

const mailOrder = ({ userId, order }: PlacedOrder): MailOrder => ({
  id: order._id,
  number: order.number,
  userId,
  totalCents: dollarsToCents(order.total),
  paymentMethod: order.paymentMethod,
  lines: order.lines.map((l) => ({ toolName: l.name, quantity: l.quantity, lineTotalCents: dollarsToCents(l.lineTotal) })),
  subtotalCents: centsOf(order.subtotal),
  discountCents: centsOf(order.discount),
  shippingCents: centsOf(order.shipping),
  taxCents: centsOf(order.tax),
  promoCode: order.promoCode,
  shippingMethodName: order.shippingMethodName,
  invoiceNumber: order.invoiceNumber,
  quoteNumber: order.quoteNumber ?? null,
});

/** The customer's order-placed message carries the invoice when the order has one. */
const invoiceAttachments = (o: MailOrder): Attachment[] | null => (o.invoiceNumber ? [{ kind: "invoice", orderId: o.id }] : null);

/**
 * Order mail for a batch of new orders in ONE statement (the order desks are a hot path): the
 * customer's address and the admins' (admin role, and ADMIN_EMAILS) are looked up by the insert.
 */
export function orderMail(publicUrl: string, adminEmails: string[]): OrderMail {
  const placedInsert = (placed: MailOrder[]): SQL | undefined => {
    if (placed.length === 0) return undefined;
    const customer = placed.map((o) => {
      const m = templates.orderPlaced(o, publicUrl);
      return { user_id: o.userId, subject: m.subject, text: m.text, html: m.html, kind: m.kind, attachments: invoiceAttachments(o) };
    });
    const admin = placed.flatMap((o) =>
      [templates.adminNewOrder(o, publicUrl), ...(o.quoteNumber ? [templates.quoteAccepted({ ...o, quoteNumber: o.quoteNumber }, publicUrl)] : [])].map((m) => ({
        subject: m.subject,
        text: m.text,
        html: m.html,
        kind: m.kind,
      })),
    );
    return sql`
      insert into ${mailOutbox} ("to", subject, text, html, kind, attachments)
      select lower(u.email), r.subject, r.text, r.html, r.kind, r.attachments
        from jsonb_to_recordset(${JSON.stringify(customer)}::jsonb) as r(user_id text, subject text, text text, html text, kind text, attachments jsonb)
        join "user" u on u.id = r.user_id
      union all
      select a.email, r.subject, r.text, r.html, r.kind, null::jsonb
        from jsonb_to_recordset(${JSON.stringify(admin)}::jsonb) as r(subject text, text text, html text, kind text)
        cross join (select lower(email) as email from "user" where role = 'admin'
                    union select unnest(${`{${adminEmails.map((e) => `"${e.replace(/["\\]/g, "")}"`).join(",")}}`}::text[])) a`;
  };
  return {
    async statusMoved(tx, after) {
      // An order whose customer deleted their account has nobody to tell.
      if (after.userId === null) return;
      let m: Rendered | undefined;
      if (after.status === "shipped") m = templates.orderShipped(after, publicUrl);
      else if (after.status === "cancelled") {
        const creditNoteNumber =
          after.creditNoteNumber !== undefined
            ? after.creditNoteNumber
            : ((await tx.select({ n: orders.creditNoteNumber }).from(orders).where(eq(orders.id, after.id)))[0]?.n ?? null);
        m = templates.orderCancelled({ ...after, creditNoteNumber }, publicUrl);
      }
      if (!m) return;
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${after.userId}`);
    },
    async refundMade(tx, refund) {
      if (refund.userId === null) return;
      const m = templates.refundMade(refund, publicUrl);
      const attachments = refund.creditNoteId ? JSON.stringify([{ kind: "credit_note", creditNoteId: refund.creditNoteId } satisfies Attachment]) : null;
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind, attachments)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind}, ${attachments}::jsonb from "user" where id = ${refund.userId}`);
    },
    async refundOwed(tx, refund) {
      if (refund.userId === null) return;
      const m = templates.refundOwed(refund, publicUrl);
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${refund.userId}`);
    },
    async shipmentSent(tx, parcel) {
      if (parcel.userId === null) return;
      const m = templates.orderShipped({ id: parcel.orderId, number: parcel.orderNumber }, publicUrl, parcel);
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${parcel.userId}`);
    },
    async returnMoved(tx, moved) {
      if (moved.userId === null) return;
      const m = templates.returnMoved(moved, publicUrl);
      await tx.execute(sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from "user" where id = ${moved.userId}`);
    },
    async ordersPlaced(tx, placed) {
      const insert = placedInsert(placed.map(mailOrder));
      if (insert) await tx.execute(insert);
    },
    ordersPlacedInsert: placedInsert,
    approvalsInsert(waiting) {
      if (waiting.length === 0) return undefined;
      const rows = waiting.map((o) => {
        const m = render("approval-needed", TRADE_TEXT.approvalSubject(o.number), [
          { p: TRADE_TEXT.approvalText(o.number, centsToDollars(o.totalCents)) },
          { link: storeLink(publicUrl, "/dashboard/account/approvals"), label: TRADE_TEXT.approvalsLink },
        ]);
        return { account_id: o.accountId, user_id: o.userId, subject: m.subject, text: m.text, html: m.html, kind: m.kind };
      });
      return sql`
        insert into ${mailOutbox} ("to", subject, text, html, kind)
        select lower(u.email), r.subject, r.text, r.html, r.kind
          from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(account_id text, user_id text, subject text, text text, html text, kind text)
          join account_members am on am.account_id = r.account_id and am.role in ('approver', 'admin') and am.user_id <> r.user_id
          join "user" u on u.id = am.user_id`;
    },
  };
}
