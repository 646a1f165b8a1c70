/**
 * A trade account's money (DESIGN "Trade accounts"): payments the owner records against its
 * invoices (oldest first unless named), its statement (invoices, payments and credit notes with a
 * running balance, and the open invoices' ageing: current, 1–30, 31–60, over 60 days past due; what an
 * invoice still owes: orders/balance.ts, its refunds' credit notes on the statement), and
 * its exemption certificates. Only terms orders are on the account: every other order is paid
 * otherwise (on delivery, by transfer, by card).
 */
import { and, asc, eq, gt, isNotNull, ne, sql } from "drizzle-orm";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import { daysBetween, storeDate } from "../../contract/store-calendar";
import { TRADE_TEXT } from "../../contract/texts/trade";
import type { AccountPaymentInput, Statement } from "../../contract/trade";
import type { Db, Tx } from "../db/client";
import { accountExemptions, accountPayments, creditNotes, orders, tradeAccounts } from "../db/schema";
import { ApiError, notFound } from "../http/errors";
import { openCents, openCentsSql, payInvoices } from "../orders";

type PaymentRow = typeof accountPayments.$inferSelect;

export interface PaymentView {
  _id: string;
  amount: number;
  reference: string;
  applied: { invoiceNumber: string; amount: number }[];
  unapplied: number;
  createdAt: string;
}

const paymentView = (row: PaymentRow): PaymentView => {
  const appliedCents = row.applied.reduce((s, a) => s + a.amountCents, 0);
  return {
    _id: row.id,
    amount: centsToDollars(row.amountCents),
    reference: row.reference,
    applied: row.applied.map((a) => ({ invoiceNumber: a.invoiceNumber, amount: centsToDollars(a.amountCents) })),
    unapplied: centsToDollars(row.amountCents - appliedCents),
    createdAt: row.createdAt.toISOString(),
  };
};

const ORDERS = sql.raw(`"orders"`);
/** What an invoice of the select below still owes (orders/balance.ts). */
const openCentsOfOrders = sql<string>`${openCentsSql(ORDERS)}`.mapWith(Number);

/** The account's terms invoices not cancelled and not paid in full (their `openCents`: orders/balance.ts), oldest first. */
export const openInvoices = (tx: Db | Tx, accountId: string) =>
  tx
    .select({
      id: orders.id,
      number: orders.number,
      invoiceNumber: orders.invoiceNumber,
      invoiceDate: orders.invoiceDate,
      dueDate: orders.dueDate,
      totalCents: orders.totalCents,
      paidCents: orders.paidCents,
      openCents: openCentsOfOrders,
    })
    .from(orders)
    .where(
      and(
        eq(orders.accountId, accountId),
        eq(orders.paymentMethod, "terms"),
        ne(orders.status, "cancelled"),
        isNotNull(orders.invoiceNumber),
        gt(orders.totalCents, orders.paidCents),
        sql`${openCentsSql(ORDERS)} > 0`,
      ),
    )
    .orderBy(asc(orders.invoiceDate), asc(orders.invoiceNumber));

/**
 * Records a payment against the account's open invoices, with the account's row locked (a
 * placement reserving credit waits for it, and sees the invoices paid): the named invoices in the
 * order given, else the oldest first; what is left over stays on the account (the statement
 * counts it). An invoice named that is not open on this account is 400, nothing recorded.
 */
export async function recordPayment(db: Db, accountId: string, input: AccountPaymentInput, recordedBy: string | null): Promise<PaymentView> {
  return db.transaction((tx) => recordPaymentIn(tx, accountId, input, recordedBy));
}

/** recordPayment inside the caller's transaction (a card payment's webhook records it with the event). */
export async function recordPaymentIn(tx: Tx, accountId: string, input: AccountPaymentInput, recordedBy: string | null): Promise<PaymentView> {
  const [account] = await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
  if (!account) throw notFound(TRADE_TEXT.accountNotFound);
  // The invoices' rows locked first (a refund of one takes its row too, so it waits or is seen),
  // then what they owe read in a statement of its own: it sees every refund committed before the locks.
  await openInvoices(tx, accountId).for("update");
  const open = await openInvoices(tx, accountId);
  let targets = open;
  if (input.invoiceNumbers && input.invoiceNumbers.length > 0) {
    const byNumber = new Map(open.map((o) => [o.invoiceNumber, o]));
    targets = input.invoiceNumbers.map((n, i) => {
      const found = byNumber.get(n);
      if (!found) throw new ApiError(400, "VALIDATION", TRADE_TEXT.invoiceUnknown(n), { details: [{ path: `body.invoiceNumbers.${i}`, message: TRADE_TEXT.invoiceUnknown(n) }] });
      return found;
    });
    // An invoice named twice is paid once (it is taken as far as it is open; the rest stays on the account).
    targets = [...new Set(targets)];
  }
  let left = dollarsToCents(input.amount);
  const applied: PaymentRow["applied"] = [];
  for (const invoice of targets) {
    if (left === 0) break;
    const take = Math.min(left, invoice.openCents);
    if (take <= 0) continue;
    applied.push({ orderId: invoice.id, invoiceNumber: invoice.invoiceNumber as string, amountCents: take });
    left -= take;
  }
  await payInvoices(
    tx,
    applied.map((a) => ({ orderId: a.orderId, cents: a.amountCents })),
  );
  const [row] = await tx.insert(accountPayments).values({ accountId, amountCents: dollarsToCents(input.amount), reference: input.reference, applied, recordedBy }).returning();
  return paymentView(row as PaymentRow);
}

/** The account's statement at `now` (the store's calendar): every invoice, credit note and payment, oldest first, with the running balance and the ageing. */
export async function statementOf(db: Db, accountId: string, now: Date): Promise<Statement & { account: { name: string; taxId: string } }> {
  const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
  if (!account) throw notFound(TRADE_TEXT.accountNotFound);
  const termsInvoices = and(eq(orders.accountId, accountId), eq(orders.paymentMethod, "terms"), isNotNull(orders.invoiceNumber));
  const [invoiced, paid, given] = await Promise.all([
    // In their numbers' order: two invoices of one moment keep it on the statement (the sort below is stable).
    db.select().from(orders).where(termsInvoices).orderBy(asc(orders.invoiceNumber)),
    db.select().from(accountPayments).where(eq(accountPayments.accountId, accountId)),
    // Every credit note of its invoices, from the one table (orders/credit-notes.ts): its refunds' and its cancel's.
    db
      .select({ orderId: creditNotes.orderId, refundId: creditNotes.refundId, number: creditNotes.number, totalCents: creditNotes.totalCents, issuedAt: creditNotes.issuedAt })
      .from(creditNotes)
      .innerJoin(orders, eq(orders.id, creditNotes.orderId))
      .where(termsInvoices)
      .orderBy(asc(creditNotes.issuedAt), asc(creditNotes.number)),
  ]);
  const refundsOf = new Map<string, typeof given>();
  const cancelOf = new Map<string, (typeof given)[number]>();
  for (const n of given) {
    if (n.refundId === null) cancelOf.set(n.orderId, n);
    else refundsOf.set(n.orderId, [...(refundsOf.get(n.orderId) ?? []), n]);
  }
  type Entry = { date: string; type: Statement["lines"][number]["type"]; number: string; cents: number; at: number };
  const entries: Entry[] = [];
  for (const o of invoiced) {
    const date = o.invoiceDate ?? storeDate(o.createdAt);
    entries.push({ date, type: "invoice", number: o.invoiceNumber as string, cents: o.totalCents, at: o.createdAt.getTime() });
    // Each refund's credit note takes back what it gave; the part of it beyond what the invoice
    // still owed was paid back to the customer (a payment is never applied beyond what is owed,
    // so that part is what the refunds so far take past the payments).
    let refunded = 0;
    for (const r of refundsOf.get(o.id) ?? []) {
      const at = r.issuedAt;
      entries.push({ date: storeDate(at), type: "credit_note", number: r.number, cents: -r.totalCents, at: at.getTime() });
      const paidBack = Math.max(0, o.paidCents + refunded + r.totalCents - o.totalCents) - Math.max(0, o.paidCents + refunded - o.totalCents);
      if (paidBack > 0) entries.push({ date: storeDate(at), type: "refund", number: r.number, cents: paidBack, at: at.getTime() });
      refunded += r.totalCents;
    }
    const cancel = cancelOf.get(o.id);
    // A cancel's credit note takes back the whole invoice: the owner cannot cancel an order with refunds, nor one with
    // payments (orders/service.ts); an order of older days that had both is taken back only as far as its refunds had not.
    if (cancel) entries.push({ date: storeDate(cancel.issuedAt), type: "credit_note", number: cancel.number, cents: -Math.min(cancel.totalCents, o.totalCents - refunded), at: cancel.issuedAt.getTime() });
  }
  for (const p of paid) entries.push({ date: storeDate(p.createdAt), type: "payment", number: p.reference, cents: -p.amountCents, at: p.createdAt.getTime() });
  entries.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.at - b.at));
  let balance = 0;
  const lines = entries.map((e) => {
    balance += e.cents;
    return { date: e.date, type: e.type, number: e.number, amount: centsToDollars(e.cents), balance: centsToDollars(balance) };
  });

  const today = storeDate(now);
  const ageing = { current: 0, days1to30: 0, days31to60: 0, over60: 0 };
  for (const o of invoiced) {
    const open = o.status === "cancelled" ? 0 : openCents(o.totalCents, o.paidCents, (refundsOf.get(o.id) ?? []).reduce((s, r) => s + r.totalCents, 0));
    if (open <= 0 || !o.dueDate) continue;
    const late = daysBetween(o.dueDate, today);
    const bucket = late <= 0 ? "current" : late <= 30 ? "days1to30" : late <= 60 ? "days31to60" : "over60";
    ageing[bucket] += open;
  }
  return {
    account: { name: account.name, taxId: account.taxId },
    lines,
    balance: centsToDollars(balance),
    ageing: { current: centsToDollars(ageing.current), days1to30: centsToDollars(ageing.days1to30), days31to60: centsToDollars(ageing.days31to60), over60: centsToDollars(ageing.over60) },
  };
}

export interface ExemptionView {
  _id: string;
  country: string;
  region: string;
  certificate: string;
  expiresOn: string;
}

export async function addExemption(db: Db, accountId: string, input: { country: string; region: string; certificate: string; expiresOn: string }): Promise<ExemptionView> {
  const [account] = await db.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
  if (!account) throw notFound(TRADE_TEXT.accountNotFound);
  const [row] = await db.insert(accountExemptions).values({ accountId, ...input }).returning();
  const r = row as typeof accountExemptions.$inferSelect;
  return { _id: r.id, country: r.country, region: r.region, certificate: r.certificate, expiresOn: r.expiresOn };
}

export async function removeExemption(db: Db, accountId: string, exemptionId: string): Promise<void> {
  const removed = await db
    .delete(accountExemptions)
    .where(and(eq(accountExemptions.accountId, accountId), eq(accountExemptions.id, exemptionId)))
    .returning({ id: accountExemptions.id });
  if (removed.length === 0) throw notFound();
}

export async function listExemptions(db: Db, accountId: string): Promise<ExemptionView[]> {
  const rows = await db.select().from(accountExemptions).where(eq(accountExemptions.accountId, accountId)).orderBy(asc(accountExemptions.expiresOn));
  return rows.map((r) => ({ _id: r.id, country: r.country, region: r.region, certificate: r.certificate, expiresOn: r.expiresOn }));
}

/** Certificates of every account that expire within `days` days of `now` (or have expired within them), soonest first: what the owner must renew. */
export async function expiringExemptions(db: Db, now: Date, days: number): Promise<(ExemptionView & { accountId: string; accountName: string })[]> {
  const today = storeDate(now);
  const rows = await db
    .select({ e: accountExemptions, name: tradeAccounts.name })
    .from(accountExemptions)
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, accountExemptions.accountId))
    .orderBy(asc(accountExemptions.expiresOn));
  return rows
    .filter(({ e }) => Math.abs(daysBetween(today, e.expiresOn)) <= days)
    .map(({ e, name }) => ({ _id: e.id, country: e.country, region: e.region, certificate: e.certificate, expiresOn: e.expiresOn, accountId: e.accountId, accountName: name }));
}
