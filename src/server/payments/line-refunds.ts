/**
 * The owner's refund of lines (issue 40, DESIGN "Refunds and returns", POST
 * /api/admin/orders/:id/refunds). One transaction, with the order's row locked first, so racing
 * refunds of one order take turns and each sees what the ones before it gave back:
 *
 * - only an order whose money was received (`paid`, `shipped`, `delivered`); the same
 *   Idempotency-Key on the same order gives the first answer again (another body: 409);
 * - each line's units are at most what is left of it (bought less what refunds that did not fail
 *   gave back), the shipping once; more → 409 REFUND_EXCEEDS and nothing is written;
 * - the amount is that share of each line's subtotal − discount + goods' tax (refundShare below:
 *   each of the three by the same rule, the unit's share rounded down and the line's last unit
 *   taking the remainder, so the pieces of a line over all its refunds add up to it to the cent),
 *   plus, with `shipping`, the order's shipping and its tax. A line's tax holds the tax on its
 *   share of a taxed delivery (pricing/price.ts); lineShippingTax splits it, so the units give back
 *   the goods' tax and the shipping its own (issue 49). Every unit and the shipping refunded give
 *   back the order's total exactly; no set of refunds gives back more; a refund of nothing (no
 *   units, no shipping left to give back) is 409 NOTHING_TO_REFUND;
 * - a refund takes a line's units left to ship first (orders/shipments.ts' leftToShip): the store
 *   no longer sends them, and they go back to stock (reason `cancel`) whatever `restock` says, as
 *   they never left (issue 52); `restock` returns the units that had shipped (reason `return`).
 *   Both when the money is back (completeLineRefund), never more of a line than it had over all
 *   its refunds that did not fail; a refund naming a return settles it then too (orders/returns.ts: `refunded` once every
 *   unit of it is). A refund that fails has done neither, so it has nothing to undo (issue 49);
 * - cash on delivery, bank transfer and terms: recorded as paid back by the owner (succeeded at
 *   once, the credit note numbered, the units restocked and the customer mailed in this
 *   transaction); a card: a row of the durable refunds table, sent by the refund worker
 *   (refunds.ts) with the refund's own id as its idempotency key, `pending` until the provider
 *   confirms it, whichever way that comes (the worker's answer, Stripe's refund events, the
 *   worker's later look at a pending one: all settle through refunds.ts' settleRefund);
 *   confirmed, completeLineRefund; failed, its units are refundable again (only refunds that did
 *   not fail count) and nothing went back to stock.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { RefundInput } from "../../contract/refund-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import type { z } from "../../contract/zod";
import type { refundInputSchema } from "../../contract/refund-schemas";
import { recordAudit } from "../audit";
import type { Db, Tx } from "../db/client";
import { orderLines, orders, payments, refundLines, refunds } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { changeStock } from "../stock/ledger";
import { issueCreditNote, leftToShip, noteOrder, settleReturn } from "../orders";
import { lineShippingTax } from "../pricing/price";

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
  /** Units went back to stock (the tools' lists change): a refund paid back at once; a card's go back when the provider confirms it. */
  restocked: boolean;
}

/** What a return needs checked before its refund (returns.ts): it must be this order's, received, and hold the refund's units not yet refunded. */
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
  options: {
    mail?: OrderMail | undefined;
    checkReturn?: ReturnCheck | undefined;
    /** The order's own rules once a refund is written, in its transaction (what is left to ship: orders/shipments.ts). */
    afterRefund?: ((tx: Tx, refund: { id: string; orderId: string }) => Promise<void>) | undefined;
  },
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
    const shippingTaxOf = (l: (typeof lines)[number]) => lineShippingTax({ subtotalCents: l.lineTotalCents, discountCents: l.discountCents, shippingCents: l.shippingCents, taxCents: l.taxCents }, order.taxRateBasisPoints);
    // What the refunds so far gave back of each line: those that did not fail (a failed one restocked nothing).
    const given = await tx
      .select({ position: refundLines.position, quantity: refundLines.quantity, subtotal: refundLines.subtotalCents, discount: refundLines.discountCents, tax: refundLines.taxCents, restocked: refundLines.restocked })
      .from(refundLines)
      .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
      .where(and(eq(refunds.orderId, orderId), ne(refunds.status, "failed")));
    const shippingGiven = await tx
      .select({ cents: refunds.shippingCents })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, "refund"), eq(refunds.shipping, true), ne(refunds.status, "failed")));

    // A refund takes a line's units left to ship first (those of a return were delivered).
    const unsent = input.returnId ? new Map<number, number>() : await leftToShip(tx, orderId);
    const planned = input.lines.map((wanted, i) => {
      const line = lines.find((l) => l.toolId === wanted.toolId);
      if (!line) throw new ApiError(400, "VALIDATION", REFUND_TEXT.notInOrder, { details: [{ path: `body.lines.${i}.toolId`, message: REFUND_TEXT.notInOrder }] });
      const before = given.filter((g) => g.position === line.position);
      const units = before.reduce((s, g) => s + g.quantity, 0);
      if (wanted.quantity > line.quantity - units) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);
      const part = (whole: number, pick: (g: (typeof before)[number]) => number) =>
        refundShare(
          whole,
          line.quantity,
          units,
          // At most the whole: refunds made before issue 49 gave back a line's tax with its shipping's in it.
          Math.min(whole, before.reduce((s, g) => s + pick(g), 0)),
          wanted.quantity,
        );
      const subtotal = part(line.lineTotalCents, (g) => g.subtotal);
      const discount = part(line.discountCents, (g) => g.discount);
      // The goods' tax: the shipping's part of the line's tax goes back with the shipping.
      const tax = part(line.taxCents - shippingTaxOf(line), (g) => g.tax);
      const restockedSoFar = before.reduce((s, g) => s + g.restocked, 0);
      // Units that never shipped go back to stock whatever `restock` says; `restock` is for those that came back.
      const unshipped = Math.min(wanted.quantity, unsent.get(line.position) ?? 0);
      const back = input.restock ? wanted.quantity : unshipped;
      const restocked = Math.max(0, Math.min(back, line.quantity - restockedSoFar));
      return { line, quantity: wanted.quantity, subtotal, discount, tax, amount: subtotal - discount + tax, restocked, unshipped };
    });
    if (input.shipping && shippingGiven.length > 0) throw conflict("REFUND_EXCEEDS", REFUND_TEXT.exceeds);
    // The shipping with its tax: the shipping's part of each line's tax (lineShippingTax).
    const shippingCents = input.shipping ? order.shippingCents + lines.reduce((s, l) => s + shippingTaxOf(l), 0) : 0;
    const amountCents = planned.reduce((s, p) => s + p.amount, 0) + shippingCents;
    // No units and no money (the shipping of a pickup, or a free delivery): no refund and no credit note of $0.
    if (planned.length === 0 && shippingCents === 0) throw conflict("NOTHING_TO_REFUND", REFUND_TEXT.nothingToRefund);

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
          unshipped: p.unshipped,
        })),
      );
    }

    await noteOrder(tx, { id: orderId, status: order.status }, card ? REFUND_TEXT.requested(money(amountCents), input.reason) : REFUND_TEXT.recorded(money(amountCents), input.reason), {
      id: actor.id,
      role: "admin",
    });
    await recordAudit(tx, actor, {
      action: "order.refund",
      entity: "order",
      entityId: orderId,
      before: null,
      after: { refundId: row.id, amount: centsToDollars(amountCents), lines: input.lines, shipping: input.shipping, restock: input.restock, reason: input.reason, returnId: input.returnId ?? null },
    });
    await options.afterRefund?.(tx, { id: row.id, orderId });
    // Paid back by the owner's hand: the restock, the return, the credit note and the customer's mail now, last (the counter's row is held to the commit).
    const restocked = card ? false : await completeLineRefund(tx, row, options.mail);
    return { refundId: row.id, replayed: false, owed: card, restocked };
  });
}

type SettledRefund = Pick<typeof refunds.$inferSelect, "id" | "orderId" | "amountCents" | "provider" | "reason" | "actorId" | "returnId">;

/**
 * A refund of lines whose money went back (at once for cash and bank transfer; a card's when the
 * provider confirms it), in the caller's transaction: its units back on the shelf through the
 * ledger (what it planned to restock, tools in id order as every transaction that locks tools),
 * the return it names settled (refunded once all its units are), its credit note from the
 * gapless CN series, the history's note and the customer's mail with the credit note. Returns
 * whether units went back to stock.
 */
export async function completeLineRefund(tx: Tx, refund: SettledRefund, mail: OrderMail | undefined): Promise<boolean> {
  const lines = await tx.select({ toolId: refundLines.toolId, restocked: refundLines.restocked, unshipped: refundLines.unshipped }).from(refundLines).where(eq(refundLines.refundId, refund.id));
  // Units that never shipped are the order's no longer sent (`cancel`); the others came back (`return`).
  const movement = { note: refund.reason.slice(0, 200), orderId: refund.orderId, actorId: refund.actorId };
  const back = lines.flatMap((l) => {
    const unsent = Math.min(l.unshipped, l.restocked);
    return [
      { ...movement, toolId: l.toolId, delta: unsent, reason: "cancel" as const },
      { ...movement, toolId: l.toolId, delta: l.restocked - unsent, reason: "return" as const },
    ];
  });
  await changeStock(tx, back);
  const restocked = back.some((m) => m.delta > 0);
  if (refund.returnId) await settleReturn(tx, refund.returnId, refund.id);
  const [order] = await tx.select({ number: orders.number, userId: orders.userId, status: orders.status }).from(orders).where(eq(orders.id, refund.orderId));
  if (!order) return restocked;
  // The refund's credit note, a document of its own (orders/credit-notes.ts), numbered last.
  const { id: creditNoteId, number: creditNoteNumber } = await issueCreditNote(tx, { orderId: refund.orderId, refundId: refund.id });
  await noteOrder(tx, { id: refund.orderId, status: order.status }, REFUND_TEXT.succeeded(money(refund.amountCents), creditNoteNumber));
  await mail?.refundMade(tx, {
    id: refund.id,
    orderId: refund.orderId,
    orderNumber: order.number,
    userId: order.userId,
    amountCents: refund.amountCents,
    creditNoteNumber,
    creditNoteId,
    card: refund.provider === "card",
  });
  return restocked;
}

/**
 * A card refund of lines the provider refused: said in the history; its units are refundable
 * again. It put nothing back on the shelf and did not settle its return (both wait for the
 * money), so there is nothing to undo: its lines say they restocked nothing.
 */
export async function failLineRefund(tx: Tx, refund: Pick<typeof refunds.$inferSelect, "id" | "orderId" | "amountCents" | "returnId">, reason: string): Promise<void> {
  await tx.update(refundLines).set({ restocked: 0 }).where(eq(refundLines.refundId, refund.id));
  // A return settled by it before issue 49 (when a return was refunded as its refund was asked) is received again.
  if (refund.returnId) await settleReturn(tx, refund.returnId, null);
  const [order] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, refund.orderId));
  if (!order) return;
  await noteOrder(tx, { id: refund.orderId, status: order.status }, REFUND_TEXT.failed(money(refund.amountCents), reason));
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
