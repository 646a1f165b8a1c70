/**
 * The owner's refund of lines (issue 40, DESIGN "Refunds and returns", POST
 * /api/admin/orders/:id/refunds). One transaction, with the order's row locked first, so racing
 * refunds of one order take turns and each sees what the ones before it gave back:
 *
 * - only an order whose money was received (`paid`, `shipped`, `delivered`); the same
 *   Idempotency-Key on the same order gives the first answer again (another body: 409);
 * - each line's units are at most what is left of it (bought less what refunds that did not fail
 *   gave back), the shipping once; more → 409 REFUND_EXCEEDS and nothing is written;
 * - the amount is that share of each line's subtotal − discount + tax (refundShare below: each
 *   of the three by the same rule, the unit's share rounded down and the line's last unit taking
 *   the remainder, so the pieces of a line over all its refunds add up to it to the cent), plus,
 *   with `shipping`, the order's shipping (a line's tax already holds the tax on its share of a
 *   taxed delivery, as pricing/price.ts computes it). Every unit and the shipping refunded give
 *   back the order's total exactly; no set of refunds gives back more;
 * - `restock` returns the units through the stock ledger (reason `return`), never more of a line
 *   than it had over all its refunds;
 * - cash on delivery, bank transfer and terms: recorded as paid back by the owner (succeeded at
 *   once, the credit note numbered and the customer mailed in this transaction); a card: a
 *   row of the durable refunds table, sent by the refund worker (refunds.ts) with the refund's own
 *   id as its idempotency key, `pending` until the provider confirms it; confirmed, the credit
 *   note is numbered and the customer mailed (completeLineRefund); failed, its units are
 *   refundable again (only refunds that did not fail count).
 */
import { createHash } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { RefundInput } from "../../contract/refund-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import type { z } from "../../contract/zod";
import type { refundInputSchema } from "../../contract/refund-schemas";
import { recordAudit } from "../admin/audit";
import type { Db, Tx } from "../db/client";
import { orderEvents, orderLines, orders, payments, refundLines, refunds } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import type { OrderMail } from "../mail/outbox";
import { returnToStock } from "../stock/ledger";
import { returnRefundFailed } from "../orders/returns";

const money = (cents: number) => formatDollars(centsToDollars(cents));

/** Statuses whose money the store holds: the only ones refunded by lines. */
export const REFUNDABLE_STATUSES = new Set(["paid", "shipped", "delivered"]);

/**
 * A component of a line (its subtotal, discount or tax: `whole` cents over `quantity` units)
 * refunded for `units` more units when `before` units and `given` cents of it were given back
 * already: the unit's share rounded down, times the units; the line's last unit takes what is
 * left, so all of a line's refunds add up to `whole` exactly.
 */
export function refundShare(whole: number, quantity: number, before: number, given: number, units: number): number {
  if (units < 1 || before + units > quantity) throw new RangeError(`cannot refund ${units} of ${quantity - before} units left`);
  if (before + units === quantity) return whole - given;
  return Math.floor(whole / quantity) * units;
}

type Parsed = z.output<typeof refundInputSchema>;

export interface LineRefundOutcome {
  refundId: string;
  /** The same key again: the first answer, nothing done. */
  replayed: boolean;
  /** A card refund left for the refund worker (kick it after the commit). */
  owed: boolean;
  /** Units went back to stock (the tools' lists change). */
  restocked: boolean;
}

/** What a return needs checked before its refund (returns.ts): it must be this order's, received, and its lines the refund's. */
export type ReturnCheck = (tx: Tx, orderId: string, returnId: string, lines: { toolId: string; quantity: number }[]) => Promise<void>;

const hashOf = (input: Parsed) =>
  createHash("sha256")
    .update(
      JSON.stringify({
        lines: [...input.lines].sort((a, b) => (a.toolId < b.toolId ? -1 : 1)),
        shipping: input.shipping,
        restock: input.restock,
        reason: input.reason,
        returnId: input.returnId ?? null,
      }),
    )
    .digest("hex");

const keyReused = () => conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);

export async function refundOrderLines(
  db: Db,
  options: { mail?: OrderMail | undefined; checkReturn?: ReturnCheck | undefined; afterRefund?: ((tx: Tx, refund: { id: string; returnId: string | null; orderId: string }) => Promise<void>) | undefined },
  orderId: string,
  input: Parsed,
  key: string,
  actor: { id: string; email: string },
): Promise<LineRefundOutcome> {
  const requestHash = hashOf(input);
  return db.transaction(async (tx) => {
    // The order's row first: racing refunds of one order wait here, then see each other's rows.
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
    if (!order) throw notFound(API_TEXT.orderNotFound);
    const [earlier] = await tx
      .select({ id: refunds.id, requestHash: refunds.requestHash })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.idempotencyKey, key)));
    if (earlier) {
      if (earlier.requestHash !== requestHash) throw keyReused();
      return { refundId: earlier.id, replayed: true, owed: false, restocked: false };
    }
    if (!REFUNDABLE_STATUSES.has(order.status)) throw conflict("ORDER_NOT_PAID", REFUND_TEXT.notPaid);
    if (input.returnId) {
      if (!options.checkReturn) throw notFound(REFUND_TEXT.returnNotFound);
      await options.checkReturn(tx, orderId, input.returnId, input.lines);
    }

    const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.position));
    // What the refunds so far gave back of each line: those that did not fail count for the money; every one for the stock.
    const given = await tx
      .select({ position: refundLines.position, quantity: refundLines.quantity, subtotal: refundLines.subtotalCents, discount: refundLines.discountCents, tax: refundLines.taxCents, restocked: refundLines.restocked, status: refunds.status })
      .from(refundLines)
      .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
      .where(eq(refunds.orderId, orderId));
    const shippingGiven = await tx
      .select({ cents: refunds.shippingCents })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "refund"), eq(refunds.shipping, true), ne(refunds.status, "failed")));

    const planned = input.lines.map((wanted, i) => {
      const line = lines.find((l) => l.toolId === wanted.toolId);
      if (!line) throw new ApiError(400, "VALIDATION", REFUND_TEXT.notInOrder, { details: [{ path: `body.lines.${i}.toolId`, message: REFUND_TEXT.notInOrder }] });
      const before = given.filter((g) => g.position === line.position && g.status !== "failed");
      const units = before.reduce((s, g) => s + g.quantity, 0);
      if (wanted.quantity > line.quantity - units) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);
      const part = (whole: number, pick: (g: (typeof before)[number]) => number) =>
        refundShare(
          whole,
          line.quantity,
          units,
          before.reduce((s, g) => s + pick(g), 0),
          wanted.quantity,
        );
      const subtotal = part(line.lineTotalCents, (g) => g.subtotal);
      const discount = part(line.discountCents, (g) => g.discount);
      const tax = part(line.taxCents, (g) => g.tax);
      const restockedSoFar = given.filter((g) => g.position === line.position).reduce((s, g) => s + g.restocked, 0);
      const restocked = input.restock ? Math.max(0, Math.min(wanted.quantity, line.quantity - restockedSoFar)) : 0;
      return { line, quantity: wanted.quantity, subtotal, discount, tax, amount: subtotal - discount + tax, restocked };
    });
    if (input.shipping && shippingGiven.length > 0) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);
    const shippingCents = input.shipping ? order.shippingCents : 0;
    const amountCents = planned.reduce((s, p) => s + p.amount, 0) + shippingCents;

    // Never more than the order's total, whatever came before (a guard: the shares above cannot pass it).
    const [{ sofar } = { sofar: 0 }] = await tx
      .select({ sofar: sql<number>`coalesce(sum(${refunds.amountCents}), 0)`.mapWith(Number) })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "refund"), ne(refunds.status, "failed")));
    if (sofar + amountCents > order.totalCents) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);

    const card = order.paymentMethod === "card" && amountCents > 0;
    const [payment] = card ? await tx.select({ paymentIntent: payments.paymentIntent }).from(payments).where(eq(payments.orderId, orderId)) : [];
    const [row] = await tx
      .insert(refunds)
      .values({
        orderId,
        kind: "refund",
        provider: order.paymentMethod,
        paymentIntent: payment?.paymentIntent ?? null,
        amountCents,
        status: card ? "pending" : "succeeded",
        reason: input.reason,
        actorId: actor.id,
        shipping: input.shipping,
        shippingCents,
        restock: input.restock,
        idempotencyKey: key,
        requestHash,
        returnId: input.returnId ?? null,
        ...(card ? {} : { settledAt: sql`now()`, providerStatus: "succeeded" }),
      })
      .returning();
    if (!row) throw new Error("refund not written");
    if (planned.length > 0) {
      await tx.insert(refundLines).values(
        planned.map((p) => ({
          refundId: row.id,
          position: p.line.position,
          toolId: p.line.toolId,
          toolName: p.line.toolName,
          quantity: p.quantity,
          unitPriceCents: p.line.unitPriceCents,
          subtotalCents: p.subtotal,
          discountCents: p.discount,
          taxCents: p.tax,
          amountCents: p.amount,
          restocked: p.restocked,
        })),
      );
    }

    // The units back on the shelf: tools in id order, as every transaction that locks tools.
    const back = new Map<string, number>();
    for (const p of planned) if (p.restocked > 0) back.set(p.line.toolId, (back.get(p.line.toolId) ?? 0) + p.restocked);
    await returnToStock(tx, back, { reason: "return", note: input.reason.slice(0, 200), orderId, actorId: actor.id });

    await tx.insert(orderEvents).values({
      orderId,
      status: order.status,
      actorId: actor.id,
      actorRole: "admin",
      note: card ? REFUND_TEXT.requested(money(amountCents), input.reason) : REFUND_TEXT.recorded(money(amountCents), input.reason),
    });
    await recordAudit(tx, actor, {
      action: "order.refund",
      entity: "order",
      entityId: orderId,
      before: null,
      after: { refundId: row.id, amount: centsToDollars(amountCents), lines: input.lines, shipping: input.shipping, restock: input.restock, reason: input.reason, returnId: input.returnId ?? null },
    });
    await options.afterRefund?.(tx, { id: row.id, returnId: row.returnId, orderId });
    // Paid back by the owner's hand: the credit note and the customer's mail now, last (the counter's row is held to the commit).
    if (!card) await completeLineRefund(tx, row, options.mail);
    return { refundId: row.id, replayed: false, owed: card, restocked: back.size > 0 };
  });
}

/**
 * A refund of lines whose money went back (at once for cash and bank transfer; a card's when the
 * provider confirms it): its credit note from the gapless CN series, the history's note and the
 * customer's mail with the credit note, in the caller's transaction.
 */
export async function completeLineRefund(tx: Tx, refund: Pick<typeof refunds.$inferSelect, "id" | "orderId" | "amountCents" | "provider">, mail: OrderMail | undefined): Promise<string> {
  const [order] = await tx.select({ number: orders.number, userId: orders.userId, status: orders.status }).from(orders).where(eq(orders.id, refund.orderId));
  const [creditNoteNumber] = await takeDocumentNumbers(tx, "CN", documentYear(), 1);
  if (!creditNoteNumber) throw new Error("no credit note number taken");
  await tx.update(refunds).set({ creditNoteNumber }).where(eq(refunds.id, refund.id));
  if (!order) return creditNoteNumber;
  await tx.insert(orderEvents).values({ orderId: refund.orderId, status: order.status, actorId: null, actorRole: "store", note: REFUND_TEXT.succeeded(money(refund.amountCents), creditNoteNumber) });
  await mail?.refundMade(tx, {
    id: refund.id,
    orderId: refund.orderId,
    orderNumber: order.number,
    userId: order.userId,
    amountCents: refund.amountCents,
    creditNoteNumber,
    card: refund.provider === "card",
  });
  return creditNoteNumber;
}

/** A card refund of lines the provider refused: said in the history; its units are refundable again. */
export async function failLineRefund(tx: Tx, refund: Pick<typeof refunds.$inferSelect, "id" | "orderId" | "amountCents" | "returnId">, reason: string): Promise<void> {
  // The return it settled is received again, to be refunded anew.
  await returnRefundFailed(tx, refund);
  const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, refund.orderId));
  if (!order) return;
  await tx.insert(orderEvents).values({ orderId: refund.orderId, status: order.status, actorId: null, actorRole: "store", note: REFUND_TEXT.failed(money(refund.amountCents), reason) });
}

/** Whether an order has refunds of lines that did not fail (its owner's cancel is refused then: refund what is left instead). */
export async function hasLineRefunds(tx: Tx, orderId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "refund"), ne(refunds.status, "failed")))
    .limit(1);
  return row !== undefined;
}

export type { RefundInput };
