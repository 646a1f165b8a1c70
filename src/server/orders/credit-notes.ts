/**
 * Credit notes (DESIGN "Money", issue 49): every credit note is one row of `credit_notes` with its
 * own lines, number and amounts, issued here and nowhere else, in the caller's transaction:
 *
 * - an order's cancel credits its whole invoice: the order's lines and amounts as they were
 *   invoiced (the owner cannot cancel an order with refunds of lines, nor a terms order with
 *   payments against it: service.ts, so nothing of it was given back before);
 * - an owner's refund of lines, once its money is back (payments/line-refunds.ts), credits what
 *   the refund gave back: its lines' shares of subtotal, discount and the goods' tax, and with
 *   the shipping the order's shipping as charged, its tax beside the lines' (the refund's
 *   `shippingCents` holds both: issue 49).
 *
 * The number comes from the gapless CN series (invoices/numbers.ts), taken last (its counter row
 * is held to the commit). The order's `creditNoteNumber` and `creditedAt`, and the refund's
 * `creditNoteNumber`, repeat it for the API; they are written here only. One renderer draws the
 * document from this row (invoices/pdf.ts: renderCreditNotePdf); the statement reads its total.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "../db/client";
import { creditNoteLines, creditNotes, orderLines, orders, refundLines, refunds } from "../db/schema";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";

export type CreditNoteRow = typeof creditNotes.$inferSelect;
type LineValues = Omit<typeof creditNoteLines.$inferInsert, "creditNoteId">;

/** What a credit note documents: an order's cancel, or a refund of its lines (whose money is back). */
export type CreditNoteSource = { orderId: string; refundId?: null } | { orderId: string; refundId: string };

interface Content {
  reason: string | null;
  lines: LineValues[];
  shippingCents: number;
  /** Tax that is no line's: a refund's shipping's. */
  shippingTaxCents: number;
}

/** A note's line from an order's or a refund's: what they share by name, and their totals, which they name apart. */
function noteLine(
  l: Pick<LineValues, "position" | "toolId" | "toolName" | "quantity" | "unitPriceCents" | "discountCents" | "taxCents">,
  lineTotalCents: number,
  totalCents: number,
): LineValues {
  const { position, toolId, toolName, quantity, unitPriceCents, discountCents, taxCents } = l;
  return { position, toolId, toolName, quantity, unitPriceCents, lineTotalCents, discountCents, taxCents, totalCents };
}

async function cancelContent(tx: Tx, orderId: string): Promise<Content> {
  const [order] = await tx.select({ shippingCents: orders.shippingCents }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} not found for its credit note`);
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.position));
  return {
    reason: null,
    // A line's tax holds its share of a taxed delivery's, as on the invoice.
    lines: lines.map((l) => noteLine(l, l.lineTotalCents, l.totalCents)),
    shippingCents: order.shippingCents,
    shippingTaxCents: 0,
  };
}

async function refundContent(tx: Tx, orderId: string, refundId: string): Promise<Content> {
  const [found] = await tx
    .select({ refund: refunds, orderShippingCents: orders.shippingCents })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(and(eq(refunds.id, refundId), eq(refunds.orderId, orderId)));
  if (!found) throw new Error(`refund ${refundId} of order ${orderId} not found for its credit note`);
  const { refund } = found;
  const lines = await tx.select().from(refundLines).where(eq(refundLines.refundId, refundId)).orderBy(asc(refundLines.position));
  // The refund's shipping holds the shipping's tax (issue 49): the note shows the shipping as charged, its tax with the lines'.
  const shippingCents = refund.shipping ? Math.min(refund.shippingCents, found.orderShippingCents) : 0;
  return {
    reason: refund.reason,
    lines: lines.map((l) => noteLine(l, l.subtotalCents, l.amountCents)),
    shippingCents,
    shippingTaxCents: refund.shippingCents - shippingCents,
  };
}

const sum = (lines: LineValues[], pick: (l: LineValues) => number | undefined) => lines.reduce((s, l) => s + (pick(l) ?? 0), 0);

/**
 * Issues the credit note of `source` in `tx` (the order's row locked by the caller): takes its
 * number, writes its row and lines, and repeats the number where the API shows it. Once per
 * source: asked again, it returns the note already issued.
 */
export async function issueCreditNote(tx: Tx, source: CreditNoteSource): Promise<CreditNoteRow> {
  const refundId = source.refundId ?? null;
  const [issued] = await tx
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.orderId, source.orderId), refundId === null ? isNull(creditNotes.refundId) : eq(creditNotes.refundId, refundId)));
  if (issued) return issued;
  const content = refundId === null ? await cancelContent(tx, source.orderId) : await refundContent(tx, source.orderId, refundId);
  const subtotalCents = sum(content.lines, (l) => l.lineTotalCents);
  const discountCents = sum(content.lines, (l) => l.discountCents);
  const taxCents = sum(content.lines, (l) => l.taxCents) + content.shippingTaxCents;
  // Last: the counter's row is held only to the commit.
  const [number] = await takeDocumentNumbers(tx, "CN", documentYear(), 1);
  if (!number) throw new Error("no credit note number taken");
  const [note] = await tx
    .insert(creditNotes)
    .values({
      number,
      orderId: source.orderId,
      refundId,
      reason: content.reason,
      subtotalCents,
      discountCents,
      shippingCents: content.shippingCents,
      taxCents,
      totalCents: subtotalCents - discountCents + content.shippingCents + taxCents,
    })
    .returning();
  if (!note) throw new Error("credit note not written");
  if (content.lines.length > 0) await tx.insert(creditNoteLines).values(content.lines.map((l) => ({ ...l, creditNoteId: note.id })));
  if (refundId === null) await tx.update(orders).set({ creditNoteNumber: number, creditedAt: sql`now()` }).where(eq(orders.id, source.orderId));
  else await tx.update(refunds).set({ creditNoteNumber: number }).where(eq(refunds.id, refundId));
  return note;
}
