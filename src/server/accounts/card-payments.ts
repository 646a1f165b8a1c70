/**
 * A member pays open invoices of their trade account by card (issue 43, DESIGN "Trade
 * accounts"): several at once, on the card provider's page, confirmed only by its webhook.
 *
 * - `openInvoicePayment` writes the payment's row first (the invoices named, their open balance
 *   now, an expiry an hour on), one per account, member and `Idempotency-Key`, so a retried
 *   request finds the same row and, through the provider's own idempotency key (`invoices-<id>`),
 *   the same page; the key with other invoices is 409 IDEMPOTENCY_KEY_REUSED. A key is its
 *   member's, as on every keyed route (`idempotency_keys` is per user): another member sending
 *   the same key gets their own payment, never the first member's row, page or amount (issue 49).
 * - `startInvoicePaymentPage` opens the provider's page through payments/ (which knows no trade
 *   account) and writes where it is on the row.
 * - `applyInvoicePaymentEvent` (handed to payments/ at start: accounts/routes.ts) runs in the webhook event's transaction (the event's id is
 *   written in it, so a replay changes nothing). Paid: an account payment of what was captured,
 *   applied to the invoices named that are still open, the rest to the oldest (what is left
 *   stays on the account, as the owner's recorded payments do). A second payment of the same
 *   row is credited too: money received is never dropped. Expired: the row is closed.
 */
import { and, eq } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import { TRADE_TEXT } from "../../contract/texts/trade";
import type { InvoicePayment } from "../../contract/trade";
import type { Db, Tx } from "../db/client";
import { accountCardPayments } from "../db/schema";
import { API_TEXT } from "../../contract/texts/api";
import { ApiError, conflict } from "../http/errors";
import type { PaymentEvent } from "../payments/provider";
import type { Payments } from "../payments/service";
import { openInvoices, recordPaymentIn } from "./ledger";
import { membershipOf } from "./service";

/** How long a member's invoice payment page stays open. */
export const INVOICE_PAYMENT_MS = 60 * 60_000;

export type InvoicePaymentRow = typeof accountCardPayments.$inferSelect;

export const invoicePaymentView = (row: InvoicePaymentRow): InvoicePayment => ({
  _id: row.id,
  invoiceNumbers: row.invoiceNumbers,
  amount: centsToDollars(row.amountCents),
  status: row.status as InvoicePayment["status"],
  payment: row.url && row.status === "open" ? { url: row.url } : null,
});

/**
 * The caller's payment of `invoiceNumbers` (open invoices of their account: else 400 on the
 * number; no account: 404), made now or, for a key already used on the account, the one made then.
 */
export async function openInvoicePayment(db: Db, userId: string, invoiceNumbers: string[], key: string, now: Date): Promise<InvoicePaymentRow> {
  const { accountId } = await membershipOf(db, userId);
  // The caller's key answers the payment it made for the same invoices (in any order, each once); for others it is 409, as on every keyed route.
  const asked = [...new Set(invoiceNumbers)].sort().join(",");
  const replay = (row: InvoicePaymentRow): InvoicePaymentRow => {
    if ([...row.invoiceNumbers].sort().join(",") !== asked) throw conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);
    return row;
  };
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(accountCardPayments)
      .where(and(eq(accountCardPayments.accountId, accountId), eq(accountCardPayments.userId, userId), eq(accountCardPayments.idempotencyKey, key)));
    if (existing) return replay(existing);
    const open = new Map((await openInvoices(tx, accountId)).map((o) => [o.invoiceNumber, o.openCents]));
    const named = [...new Set(invoiceNumbers)];
    invoiceNumbers.forEach((n, i) => {
      if (!open.has(n)) throw new ApiError(400, "VALIDATION", TRADE_TEXT.invoiceUnknown(n), { details: [{ path: `body.invoiceNumbers.${i}`, message: TRADE_TEXT.invoiceUnknown(n) }] });
    });
    const amountCents = named.reduce((sum, n) => sum + (open.get(n) ?? 0), 0);
    const [row] = await tx
      .insert(accountCardPayments)
      .values({ accountId, userId, idempotencyKey: key, invoiceNumbers: named, amountCents, expiresAt: new Date(now.getTime() + INVOICE_PAYMENT_MS) })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    // The same key at the same moment: the other request's row.
    const [raced] = await tx
      .select()
      .from(accountCardPayments)
      .where(and(eq(accountCardPayments.accountId, accountId), eq(accountCardPayments.userId, userId), eq(accountCardPayments.idempotencyKey, key)));
    if (!raced) throw new Error("an invoice payment's row vanished");
    return replay(raced);
  });
}

/** Where the provider's page was opened for the row (a retry after an unknown outcome opens the same one). */
async function recordInvoicePaymentPage(db: Db, id: string, page: { sessionId: string; url: string }): Promise<InvoicePaymentRow> {
  const [row] = await db.update(accountCardPayments).set(page).where(eq(accountCardPayments.id, id)).returning();
  if (!row) throw new Error("an invoice payment's row vanished");
  return row;
}

/**
 * The card provider's page for the row: the one it already has, else opened now with the row's
 * own parameters (payments' openInvoicePage: 400 without a card provider, 503 without an answer).
 */
export async function startInvoicePaymentPage(db: Db, payments: Pick<Payments, "openInvoicePage">, row: InvoicePaymentRow): Promise<InvoicePaymentRow> {
  if (row.status !== "open" || row.url) return row;
  const page = await payments.openInvoicePage({
    id: row.id,
    label: TRADE_TEXT.invoicePaymentLabel(row.invoiceNumbers),
    amountCents: row.amountCents,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  });
  return recordInvoicePaymentPage(db, row.id, page);
}

/** A verified provider event about a member's invoice payment, in the event's transaction: "ignored" when it names none the store has. */
export async function applyInvoicePaymentEvent(tx: Tx, event: PaymentEvent): Promise<"applied" | "ignored"> {
  if (!event.invoicePaymentId || (event.kind !== "paid" && event.kind !== "expired")) return "ignored";
  const [row] = await tx.select().from(accountCardPayments).where(eq(accountCardPayments.id, event.invoicePaymentId)).for("update");
  if (!row) return "ignored";
  if (event.kind === "expired") {
    if (row.status !== "open") return "ignored";
    await tx.update(accountCardPayments).set({ status: "expired" }).where(eq(accountCardPayments.id, row.id));
    return "applied";
  }
  const capturedCents = event.amountCents ?? 0;
  if (capturedCents <= 0 || (event.currency ?? "").toLowerCase() !== "usd") return "ignored";
  if (row.paymentIntent && row.paymentIntent === event.paymentIntent) return "ignored";
  // Applied to the invoices named that are still open (one may have been paid by cheque meanwhile), else the oldest.
  const stillOpen = new Set((await openInvoices(tx, row.accountId)).map((o) => o.invoiceNumber));
  const named = row.invoiceNumbers.filter((n) => stillOpen.has(n));
  const recorded = await recordPaymentIn(
    tx,
    row.accountId,
    { amount: centsToDollars(capturedCents), reference: TRADE_TEXT.cardPaymentReference(event.paymentIntent ?? event.sessionId ?? row.id), invoiceNumbers: named },
    row.userId,
  );
  if (row.status !== "paid") {
    await tx
      .update(accountCardPayments)
      .set({ status: "paid", paymentIntent: event.paymentIntent, accountPaymentId: recorded._id })
      .where(eq(accountCardPayments.id, row.id));
  }
  return "applied";
}
