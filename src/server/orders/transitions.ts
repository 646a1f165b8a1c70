/**
 * The orders module's transitions for other folders (issue 49): the writes of `orders` and
 * `order_events` that payments, refunds, approvals, the account's ledger and account deletion
 * used to make themselves. Each states what it needs and refuses what breaks a rule (409 with a
 * code, before anything is written; the caller's transaction then writes nothing either). Status
 * moves stay moveInTransaction's (service.ts), the one place an order changes status.
 */
import { and, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { API_TEXT } from "../../contract/texts/api";
import { TRADE_TEXT } from "../../contract/texts/trade";
import type { Tx } from "../db/client";
import { orderEvents, orders } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import type { OrderActor } from "../../contract/order-lifecycle";
import { moveInTransaction, type MoveResult, type OrderRow } from "./service";

/** What the owner is asked to look at on an order's payment (null: nothing). */
export type PaymentProblem =
  | "AMOUNT_MISMATCH"
  | "REFUND_FAILED"
  | "LATE_PAYMENT_REFUNDED"
  | "LATE_PAYMENT_REFUND_FAILED"
  | "DUPLICATE_PAYMENT_REFUNDED"
  | "DUPLICATE_PAYMENT_REFUND_FAILED";

/** A card order's payment problem set (or cleared, null). Only a card order has one: another is 409 NOT_A_CARD_ORDER. */
export async function flagPayment(tx: Tx, orderId: string, problem: PaymentProblem | null): Promise<void> {
  const [row] = await tx
    .update(orders)
    .set({ paymentProblem: problem })
    .where(and(eq(orders.id, orderId), eq(orders.paymentMethod, "card")))
    .returning({ id: orders.id });
  if (row) return;
  const [other] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  if (!other) throw notFound(API_TEXT.orderNotFound);
  throw conflict("NOT_A_CARD_ORDER", API_TEXT.notCardOrder);
}

/**
 * A line in the order's history that moves nothing (a refund asked for, given or refused): it
 * carries the order's status as it is. `order` is the row the caller read in this transaction.
 */
export async function noteOrder(tx: Tx, order: Pick<OrderRow, "id" | "status">, note: string, actor: { id: string | null; role: OrderActor } = { id: null, role: "store" }): Promise<void> {
  await tx.insert(orderEvents).values({ orderId: order.id, status: order.status, actorId: actor.id, actorRole: actor.role, note });
}

/**
 * A paid card order's invoice number, taken from the counter if it has none (once: a second call
 * finds it numbered). Call it last in the transaction: the counter's row is held to the commit.
 * A card order is numbered when it is paid (issue 40): one not yet paid is refused.
 */
export async function numberPaidInvoice(tx: Tx, order: Pick<OrderRow, "id" | "invoiceNumber">): Promise<string | null> {
  if (order.invoiceNumber) return order.invoiceNumber;
  const [row] = await tx.select({ status: orders.status, paymentMethod: orders.paymentMethod, invoiceNumber: orders.invoiceNumber }).from(orders).where(eq(orders.id, order.id));
  if (!row) throw notFound();
  if (row.invoiceNumber) return row.invoiceNumber;
  if (row.paymentMethod !== "card" || row.status !== "paid") throw conflict("ORDER_NOT_PAID", API_TEXT.orderNotPaid);
  const [invoiceNumber = null] = await takeDocumentNumbers(tx, "INV", documentYear(), 1);
  await tx.update(orders).set({ invoiceNumber }).where(eq(orders.id, order.id));
  return invoiceNumber;
}

export interface Approval {
  now: Date;
  /** A card order's payment hold, from now. */
  holdMs: number;
  /** A terms order's due date (its account's terms from today); null leaves it without one. */
  dueDate: string | null;
  /** The invoice's date on the store's calendar (a terms order's). */
  invoiceDate: string;
}

/**
 * An approver's yes to a waiting trade order: `pending` (or `awaiting_payment` for a card order,
 * its payment hold from now), numbered now (its invoice last in the transaction; a card order's
 * when it is paid), a terms order given its due date. Refused (409 ORDER_NOT_AWAITING_APPROVAL)
 * unless the order waits for approval: the row lock of the status move makes a second approval or
 * a rejection racing it see the first one's result.
 */
export async function approveWaiting(tx: Tx, orderId: string, approverId: string, approval: Approval): Promise<MoveResult> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
  if (!row) throw notFound();
  if (row.status !== "awaiting_approval") throw conflict("ORDER_NOT_AWAITING_APPROVAL", TRADE_TEXT.notAwaitingApproval);
  const card = row.paymentMethod === "card";
  const terms = row.paymentMethod === "terms";
  const moved = await moveInTransaction(tx, orderId, card ? "awaiting_payment" : "pending", { id: approverId, role: "approver" });
  // A card order is numbered when it is paid (payments/service.ts, issue 40).
  const [invoiceNumber] = card ? [null] : await takeDocumentNumbers(tx, "INV", documentYear(approval.now), 1);
  const [after] = await tx
    .update(orders)
    .set({
      invoiceNumber,
      ...(terms && approval.dueDate ? { dueDate: approval.dueDate, invoiceDate: approval.invoiceDate } : {}),
      ...(card ? { paymentHoldUntil: new Date(approval.now.getTime() + approval.holdMs) } : {}),
    })
    .where(eq(orders.id, orderId))
    .returning();
  return { ...moved, after: after ?? moved.after };
}

/**
 * A payment of a trade account's invoices applied to them: each named order's paid cents rise by
 * its part. Every part is more than 0 and lands on an invoiced terms order that is not cancelled
 * and is not paid beyond its total; otherwise 409 INVOICE_NOT_OPEN and nothing is written.
 * The caller holds the invoices' rows locked (accounts/ledger.ts).
 */
export async function payInvoices(tx: Tx, parts: { orderId: string; cents: number }[]): Promise<void> {
  if (parts.length === 0) return;
  if (parts.some((p) => !Number.isSafeInteger(p.cents) || p.cents <= 0)) throw conflict("INVOICE_NOT_OPEN", TRADE_TEXT.invoiceNotOpen);
  if (new Set(parts.map((p) => p.orderId)).size !== parts.length) throw conflict("INVOICE_NOT_OPEN", TRADE_TEXT.invoiceNotOpen);
  const open = await tx
    .select({ id: orders.id, totalCents: orders.totalCents, paidCents: orders.paidCents })
    .from(orders)
    .where(
      and(
        inArray(
          orders.id,
          parts.map((p) => p.orderId),
        ),
        eq(orders.paymentMethod, "terms"),
        ne(orders.status, "cancelled"),
        isNotNull(orders.invoiceNumber),
      ),
    );
  const byId = new Map(open.map((o) => [o.id, o]));
  for (const part of parts) {
    const invoice = byId.get(part.orderId);
    if (!invoice || invoice.paidCents + part.cents > invoice.totalCents) throw conflict("INVOICE_NOT_OPEN", TRADE_TEXT.invoiceNotOpen);
  }
  const paid = JSON.stringify(parts.map((p) => ({ id: p.orderId, cents: p.cents })));
  await tx.execute(sql`update ${orders} o set paid_cents = o.paid_cents + p.cents from jsonb_to_recordset(${paid}::jsonb) as p(id text, cents bigint) where o.id = p.id`);
}

/**
 * A deleted account's orders stay the store's books (decision 0012): they lose their customer and
 * the delivery copies that name a person (address, phone, note). Answers how many.
 */
export async function forgetCustomer(tx: Tx, userId: string): Promise<number> {
  const kept = await tx.update(orders).set({ userId: null, address: "", phone: "", note: "" }).where(eq(orders.userId, userId)).returning({ id: orders.id });
  return kept.length;
}
