/**
 * Returns (issue 40, DESIGN "Refunds and returns"). The customer asks to return units of a
 * delivered order within RETURN_DAYS of its delivery (POST /api/order/:id/returns); the owner
 * approves or refuses it, marks the parcel received (POST /api/admin/returns/:id/status), and
 * refunds it: the refund names the return (`returnId`, payments/line-refunds.ts), which makes it
 * `refunded` (a card refund that fails gives it back `received`). The customer is mailed each move.
 *
 * A request takes the order's row (as a refund does), so racing requests and refunds of one order
 * take turns: its units are at most what was bought less what open returns hold and what refunds
 * that did not fail gave back; anything else is 409 RETURN_NOT_ALLOWED, nothing written.
 */
import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "../../contract/zod";
import type { AdminReturn, returnInputSchema, returnMoveSchema } from "../../contract/refund-schemas";
import type { OrderReturn, ReturnStatus } from "../../contract/schemas";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { recordAudit } from "../admin/audit";
import type { Db, Tx } from "../db/client";
import { cappedCount, type Page } from "../db/paging";
import { orderEvents, orderLines, orders, refundLines, refunds, returnLines, returns, user } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { API_TEXT } from "../../contract/texts/api";
import type { OrderMail } from "../mail/outbox";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Returns that still hold their units (not refused; a refunded one's units are its refund's). */
const OPEN: ReturnStatus[] = ["requested", "approved", "received"];
/** The owner's moves: from each state, where it may go. */
const MOVES: Partial<Record<ReturnStatus, ReturnStatus[]>> = { requested: ["approved", "refused"], approved: ["received"] };

type ReturnRow = typeof returns.$inferSelect;
type ReturnLineRow = typeof returnLines.$inferSelect;

export const toReturnDto = (r: ReturnRow, lines: ReturnLineRow[]): OrderReturn => ({
  _id: r.id,
  status: r.status as ReturnStatus,
  lines: [...lines].sort((a, b) => a.position - b.position).map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity })),
  reason: r.reason,
  note: r.note,
  refundId: r.refundId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** The returns of these orders, and their lines. */
export async function readReturns(db: Db | Tx, orderIds: string[]): Promise<[ReturnRow[], ReturnLineRow[]]> {
  if (orderIds.length === 0) return [[], []];
  return Promise.all([
    db.select().from(returns).where(inArray(returns.orderId, orderIds)),
    db
      .select({ line: returnLines })
      .from(returnLines)
      .innerJoin(returns, eq(returns.id, returnLines.returnId))
      .where(inArray(returns.orderId, orderIds))
      .then((rows) => rows.map((r) => r.line)),
  ]);
}

const notAllowed = () => conflict("RETURN_NOT_ALLOWED", REFUND_TEXT.returns.notAllowed);

/** The customer's request: 201 with the return, or 409 RETURN_NOT_ALLOWED with nothing written. */
export async function requestReturn(
  db: Db,
  mail: OrderMail | undefined,
  userId: string,
  orderId: string,
  input: z.output<typeof returnInputSchema>,
  returnDays: number,
  now: Date = new Date(),
): Promise<OrderReturn> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .for("no key update");
    if (!order) throw notFound(API_TEXT.orderNotFound);
    if (order.status !== "delivered") throw notAllowed();
    const [delivered] = await tx
      .select({ at: orderEvents.createdAt })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.status, "delivered")))
      .orderBy(asc(orderEvents.id))
      .limit(1);
    if (!delivered || now.getTime() - delivered.at.getTime() > returnDays * DAY_MS) throw notAllowed();

    const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId));
    const refunded = await tx
      .select({ position: refundLines.position, quantity: refundLines.quantity })
      .from(refundLines)
      .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
      .where(and(eq(refunds.orderId, orderId), ne(refunds.status, "failed")));
    const held = await tx
      .select({ position: returnLines.position, quantity: returnLines.quantity })
      .from(returnLines)
      .innerJoin(returns, eq(returns.id, returnLines.returnId))
      .where(and(eq(returns.orderId, orderId), inArray(returns.status, OPEN)));
    const planned = input.lines.map((wanted) => {
      const line = lines.find((l) => l.toolId === wanted.toolId);
      if (!line) throw notAllowed();
      const gone = [...refunded, ...held].filter((g) => g.position === line.position).reduce((s, g) => s + g.quantity, 0);
      if (wanted.quantity > line.quantity - gone) throw notAllowed();
      return { line, quantity: wanted.quantity };
    });

    const [row] = await tx.insert(returns).values({ orderId, userId, reason: input.reason }).returning();
    if (!row) throw new Error("return not written");
    const written = planned.map((p) => ({ returnId: row.id, position: p.line.position, toolId: p.line.toolId, toolName: p.line.toolName, quantity: p.quantity }));
    await tx.insert(returnLines).values(written);
    await tx.insert(orderEvents).values({ orderId, status: order.status, actorId: userId, actorRole: "customer", note: REFUND_TEXT.returns.history(REFUND_TEXT.returns.statuses.requested, input.reason) });
    await mail?.returnMoved(tx, { orderId, orderNumber: order.number, userId, status: "requested", note: null });
    return toReturnDto(row, written);
  });
}

/** The owner moves a return on (approved, refused, received); the same status again changes nothing. */
export async function moveReturn(
  db: Db,
  mail: OrderMail | undefined,
  returnId: string,
  input: z.output<typeof returnMoveSchema>,
  actor: { id: string; email: string },
): Promise<AdminReturn> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(returns).where(eq(returns.id, returnId)).for("update");
    if (!row) throw notFound(REFUND_TEXT.returns.notFound);
    if (row.status === input.status) return;
    const from = row.status as ReturnStatus;
    if (!(MOVES[from] ?? []).includes(input.status)) {
      const words = REFUND_TEXT.returns.statuses;
      throw conflict("RETURN_MOVE_FORBIDDEN", REFUND_TEXT.returns.moveForbidden(words[from].toLowerCase(), words[input.status].toLowerCase()));
    }
    const note = input.note ? input.note : null;
    await tx.update(returns).set({ status: input.status, note, updatedAt: sql`now()` }).where(eq(returns.id, returnId));
    const [order] = await tx.select({ number: orders.number, status: orders.status, userId: orders.userId }).from(orders).where(eq(orders.id, row.orderId));
    if (order) {
      await tx.insert(orderEvents).values({ orderId: row.orderId, status: order.status, actorId: actor.id, actorRole: "admin", note: REFUND_TEXT.returns.history(REFUND_TEXT.returns.statuses[input.status], note) });
      await mail?.returnMoved(tx, { orderId: row.orderId, orderNumber: order.number, userId: order.userId, status: input.status, note });
    }
    await recordAudit(tx, actor, { action: "return.status", entity: "return", entityId: returnId, before: { status: from }, after: { status: input.status, note } });
  });
  const [found] = await listAdminReturns(db, { page: 1, limit: 1, id: returnId }).then((p) => p.items);
  if (!found) throw notFound(REFUND_TEXT.returns.notFound);
  return found;
}

/**
 * A refund that names a return (its check, in the refund's transaction): the order's, received,
 * and the refund's units within the return's.
 */
export async function checkReturnForRefund(tx: Tx, orderId: string, returnId: string, lines: { toolId: string; quantity: number }[]): Promise<void> {
  const [row] = await tx
    .select()
    .from(returns)
    .where(and(eq(returns.id, returnId), eq(returns.orderId, orderId)))
    .for("update");
  if (!row) throw notFound(REFUND_TEXT.returnNotFound);
  if (row.status !== "received") throw conflict("RETURN_NOT_RECEIVED", REFUND_TEXT.returnNotReceived);
  const held = await tx.select().from(returnLines).where(eq(returnLines.returnId, returnId));
  for (const l of lines) {
    const mine = held.find((h) => h.toolId === l.toolId);
    if (!mine || l.quantity > mine.quantity) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);
  }
}

/** The refund that names a return was written: the return is refunded (in the refund's transaction). */
export async function returnRefunded(tx: Tx, refund: { id: string; returnId: string | null; orderId: string }): Promise<void> {
  if (!refund.returnId) return;
  await tx.update(returns).set({ status: "refunded", refundId: refund.id, updatedAt: sql`now()` }).where(eq(returns.id, refund.returnId));
  const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, refund.orderId));
  if (order) await tx.insert(orderEvents).values({ orderId: refund.orderId, status: order.status, actorId: null, actorRole: "store", note: REFUND_TEXT.returns.history(REFUND_TEXT.returns.statuses.refunded, null) });
}

/** A card refund that named a return failed: the return is received again, to be refunded anew. */
export async function returnRefundFailed(tx: Tx, refund: { id: string; returnId: string | null }): Promise<void> {
  if (!refund.returnId) return;
  await tx
    .update(returns)
    .set({ status: "received", refundId: null, updatedAt: sql`now()` })
    .where(and(eq(returns.id, refund.returnId), eq(returns.refundId, refund.id)));
}

/** The console's list: newest first, by status, with each return's order and customer. */
export async function listAdminReturns(db: Db, query: { status?: ReturnStatus | undefined; page: number; limit: number; id?: string }): Promise<Page<AdminReturn>> {
  const filters = [query.status ? eq(returns.status, query.status) : undefined, query.id ? eq(returns.id, query.id) : undefined].filter((f) => f !== undefined);
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({ r: returns, number: orders.number, name: user.name, email: user.email })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .leftJoin(user, eq(user.id, returns.userId))
      .where(where)
      .orderBy(desc(returns.createdAt), desc(returns.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(returns).where(where).$dynamic()),
  ]);
  const ids = rows.map((x) => x.r.id);
  const lines = ids.length > 0 ? await db.select().from(returnLines).where(inArray(returnLines.returnId, ids)) : [];
  return {
    items: rows.map(({ r, number, name, email }) => ({
      ...toReturnDto(
        r,
        lines.filter((l) => l.returnId === r.id),
      ),
      orderId: r.orderId,
      orderNumber: number,
      customer: email === null ? null : { name: name ?? "", email },
    })),
    ...total,
  };
}


