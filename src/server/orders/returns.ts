/**
 * Returns (issue 40, DESIGN "Refunds and returns"). The customer asks to return units of a
 * delivered order within RETURN_DAYS of its delivery (POST /api/order/:id/returns); the owner
 * approves or refuses it, marks the parcel received (POST /api/admin/returns/:id/status), and
 * refunds it, in one refund or several: each names the return (`returnId`,
 * payments/line-refunds.ts) and refunds only units it holds not yet refunded (else 409
 * RETURN_NOT_COVERED, nothing written). The return stays `received`, each line showing its
 * `refundedQuantity`, until the money for every unit of it is back (a card refund's when the
 * provider confirms it): then it is `refunded`, its `refundId` the refund that completed it
 * (issue 49). The customer is mailed each move.
 *
 * A request takes the order's row (as a refund does), so racing requests and refunds of one order
 * take turns: its units are at most what was bought less what open returns hold and what refunds
 * that did not fail gave back (a refund naming an open return gives back units the return holds:
 * counted once); anything else is 409 RETURN_NOT_ALLOWED, nothing written.
 */
import { and, asc, desc, eq, inArray, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import type { z } from "../../contract/zod";
import type { AdminReturn, returnInputSchema, returnMoveSchema } from "../../contract/refund-schemas";
import type { OrderReturn, ReturnStatus } from "../../contract/schemas";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { recordAudit } from "../audit";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
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
/** A return's line with the units of it that refunds naming the return gave back (those that succeeded). */
export type ReturnLineRow = typeof returnLines.$inferSelect & { refundedQuantity: number };

export const toReturnDto = (r: ReturnRow, lines: ReturnLineRow[]): OrderReturn => ({
  _id: r.id,
  status: r.status as ReturnStatus,
  lines: [...lines].sort((a, b) => a.position - b.position).map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity, refundedQuantity: l.refundedQuantity })),
  reason: r.reason,
  note: r.note,
  refundId: r.refundId,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/**
 * What the refunds naming these returns gave back of each of their lines, by `returnId:position`:
 * those that succeeded (`settled`), or every one that did not fail (what a new refund must leave).
 */
async function refundedOfReturns(db: Db | Tx, returnIds: string[], which: "settled" | "not failed"): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (returnIds.length === 0) return out;
  const rows = await db
    .select({ returnId: refunds.returnId, position: refundLines.position, quantity: sql<number>`sum(${refundLines.quantity})`.mapWith(Number) })
    .from(refundLines)
    .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
    .where(and(inArray(refunds.returnId, returnIds), which === "settled" ? eq(refunds.status, "succeeded") : ne(refunds.status, "failed")))
    .groupBy(refunds.returnId, refundLines.position);
  for (const r of rows) out.set(`${r.returnId}:${r.position}`, r.quantity);
  return out;
}

/** Return lines with what their refunds gave back. */
async function withRefunded(db: Db | Tx, lines: (typeof returnLines.$inferSelect)[]): Promise<ReturnLineRow[]> {
  const refunded = await refundedOfReturns(db, [...new Set(lines.map((l) => l.returnId))], "settled");
  return lines.map((l) => ({ ...l, refundedQuantity: refunded.get(`${l.returnId}:${l.position}`) ?? 0 }));
}

/** The returns of these orders, and their lines. */
export async function readReturns(db: Db | Tx, orderIds: string[]): Promise<[ReturnRow[], ReturnLineRow[]]> {
  if (orderIds.length === 0) return [[], []];
  return readAll<[ReturnRow[], ReturnLineRow[]]>(db, [
    () => db.select().from(returns).where(inArray(returns.orderId, orderIds)),
    () =>
      db
        .select({ line: returnLines })
        .from(returnLines)
        .innerJoin(returns, eq(returns.id, returnLines.returnId))
        .where(inArray(returns.orderId, orderIds))
        .then((rows) => withRefunded(db, rows.map((r) => r.line))),
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
    // Refunds naming an open return give back units that return holds (counted with it below).
    const refunded = await tx
      .select({ position: refundLines.position, quantity: refundLines.quantity })
      .from(refundLines)
      .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
      .leftJoin(returns, eq(returns.id, refunds.returnId))
      .where(and(eq(refunds.orderId, orderId), ne(refunds.status, "failed"), or(isNull(returns.id), notInArray(returns.status, OPEN))));
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
    return toReturnDto(row, written.map((l) => ({ ...l, refundedQuantity: 0 })));
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
 * A refund that names a return (its check, in the refund's transaction, the return's row locked):
 * the order's, received, and each of the refund's units one the return holds that no refund
 * naming it (not failed) gave back yet; else 409 RETURN_NOT_COVERED.
 */
export async function checkReturnForRefund(tx: Tx, orderId: string, returnId: string, lines: { toolId: string; quantity: number }[]): Promise<void> {
  const [row] = await tx
    .select()
    .from(returns)
    .where(and(eq(returns.id, returnId), eq(returns.orderId, orderId)))
    .for("update");
  if (!row) throw notFound(REFUND_TEXT.returnNotFound);
  if (row.status !== "received") throw conflict("RETURN_NOT_RECEIVED", REFUND_TEXT.returnNotReceived);
  // One statement at a time: a transaction is one client, which takes one query at a time (pg 9 refuses a second).
  const held = await tx.select().from(returnLines).where(eq(returnLines.returnId, returnId));
  const given = await refundedOfReturns(tx, [returnId], "not failed");
  for (const l of lines) {
    const mine = held.find((h) => h.toolId === l.toolId);
    if (!mine || l.quantity > mine.quantity - (given.get(`${returnId}:${mine.position}`) ?? 0)) throw conflict("RETURN_NOT_COVERED", REFUND_TEXT.returnNotCovered);
  }
}

/**
 * The money of a refund naming this return is back, or a refund of it failed (in that refund's
 * transaction): the return is `refunded` once refunds that succeeded gave back every unit of it
 * (`refundId`: the one that completed it), else it stays (or is again) `received`.
 */
export async function settleReturn(tx: Tx, returnId: string, refundId: string | null): Promise<void> {
  const [row] = await tx.select().from(returns).where(eq(returns.id, returnId)).for("update");
  if (!row || (row.status !== "received" && row.status !== "refunded")) return;
  // One statement at a time: a transaction is one client, which takes one query at a time (pg 9 refuses a second).
  const held = await tx.select().from(returnLines).where(eq(returnLines.returnId, returnId));
  const given = await refundedOfReturns(tx, [returnId], "settled");
  const all = held.every((h) => (given.get(`${returnId}:${h.position}`) ?? 0) >= h.quantity);
  if (all && row.status === "received" && refundId) {
    await tx.update(returns).set({ status: "refunded", refundId, updatedAt: sql`now()` }).where(eq(returns.id, returnId));
    const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, row.orderId));
    if (order) await tx.insert(orderEvents).values({ orderId: row.orderId, status: order.status, actorId: null, actorRole: "store", note: REFUND_TEXT.returns.history(REFUND_TEXT.returns.statuses.refunded, null) });
  } else if (!all && row.status === "refunded") {
    await tx.update(returns).set({ status: "received", refundId: null, updatedAt: sql`now()` }).where(eq(returns.id, returnId));
  }
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
  const lines = ids.length > 0 ? await withRefunded(db, await db.select().from(returnLines).where(inArray(returnLines.returnId, ids))) : [];
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


