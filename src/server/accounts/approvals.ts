/**
 * A trade order waiting for approval (DESIGN "Trade accounts"): the account's approvers and its
 * admin see every member's orders, approve one (→ `pending`, or `awaiting_payment` for a card
 * order, and only now numbered and, on terms, given its due date) or reject it (→ `cancelled`, its
 * stock back once, through the one status move of orders/service.ts). Nobody approves their own
 * order (403 OWN_ORDER); another account's order is not found (404), whoever asks.
 */
import { and, desc, eq, inArray } from "drizzle-orm";
import { storeDate } from "../../contract/store-calendar";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { APPROVES, type AccountOrder } from "../../contract/trade";
import type { Db } from "../db/client";
import { orders, tradeAccounts, user } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { announceMove, approveWaiting, dueDateOf, moveInTransaction, withDetails, type OrderRow } from "../orders";
import { membershipOf } from "./service";

/** The account's orders for this member: every member's for approvers and admins, their own for a buyer; newest first. */
export async function listAccountOrders(db: Db, userId: string, query: { status?: OrderRow["status"] | undefined }): Promise<AccountOrder[]> {
  const m = await membershipOf(db, userId);
  const rows = await db
    .select({ o: orders, name: user.name, email: user.email })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .where(
      and(
        eq(orders.accountId, m.accountId),
        APPROVES.includes(m.role) ? undefined : eq(orders.userId, userId),
        query.status ? eq(orders.status, query.status) : undefined,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(200);
  const detailed = await withDetails(
    db,
    rows.map((r) => r.o),
  );
  return detailed.map((order, i) => {
    const r = rows[i] as (typeof rows)[number];
    return { ...order, buyer: { userId: r.o.userId, name: r.name ?? "", email: r.email ?? "" } };
  });
}

/** The order as an approver may act on it: in the caller's account (else 404), not their own (403 OWN_ORDER), and the caller an approver or admin (403). */
async function actionable(db: Db, userId: string, orderId: string) {
  const m = await membershipOf(db, userId);
  const [order] = await db
    .select({ id: orders.id, userId: orders.userId })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.accountId, m.accountId)));
  if (!order) throw notFound();
  if (order.userId === userId) throw new ApiError(403, "OWN_ORDER", TRADE_TEXT.ownOrder);
  if (!APPROVES.includes(m.role)) throw new ApiError(403, "FORBIDDEN", TRADE_TEXT.notAnApprover);
  return m;
}

export interface ApprovalOptions {
  now: Date;
  holdMs: number;
  mail?: OrderMail | undefined;
}

/**
 * Approves a waiting order: numbered now (its invoice from the counter, last in the transaction),
 * a terms order given its due date from today, a card order its payment hold from now. The row
 * lock of the one status move serializes racing approvals and rejections: the second finds it
 * moved and is answered 409.
 */
export async function approveOrder(db: Db, userId: string, orderId: string, options: ApprovalOptions): Promise<OrderRow> {
  await actionable(db, userId, orderId);
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select({ accountId: orders.accountId, paymentMethod: orders.paymentMethod }).from(orders).where(eq(orders.id, orderId));
    if (!row) throw notFound();
    const [account] = row.accountId && row.paymentMethod === "terms" ? await tx.select({ terms: tradeAccounts.terms }).from(tradeAccounts).where(eq(tradeAccounts.id, row.accountId)) : [];
    // The order's own transition (orders/): it checks the order still waits, moves it and numbers it.
    return approveWaiting(tx, orderId, userId, {
      now: options.now,
      holdMs: options.holdMs,
      dueDate: account ? dueDateOf(account.terms, options.now) : null,
      invoiceDate: storeDate(options.now),
    });
  });
  announceMove(db, result, result.after.status);
  return result.after;
}

/** Rejects a waiting order: cancelled with the reason in its history, its stock and code given back once (no invoice, so no credit note). */
export async function rejectOrder(db: Db, userId: string, orderId: string, reason: string, mail?: OrderMail): Promise<OrderRow> {
  await actionable(db, userId, orderId);
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).for("no key update");
    if (!row) throw notFound();
    if (row.status !== "awaiting_approval") throw conflict("ORDER_NOT_AWAITING_APPROVAL", TRADE_TEXT.notAwaitingApproval);
    return moveInTransaction(tx, orderId, "cancelled", { id: userId, role: "approver" }, { mail, note: reason });
  });
  announceMove(db, result, "cancelled");
  return result.after;
}

/** The orders as the account's pages show them. */
export async function accountOrdersById(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return withDetails(db, await db.select().from(orders).where(inArray(orders.id, ids)));
}
