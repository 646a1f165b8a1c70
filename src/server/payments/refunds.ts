/**
 * Money owed back, durably (issue 40, decision 0016). A refund is a row of `refunds` written in
 * the same transaction as the decision that owes it (the owner's cancel of a paid card order, a
 * payment that came after the cancel, a second payment, a mismatched payment cancelled); the
 * refund worker sends it to the provider after the commit, like the mail outbox:
 *
 * - a batch is claimed with `FOR UPDATE SKIP LOCKED` and leased (its next attempt moves LEASE_MS
 *   ahead) in one statement, so two workers (two instances) never send one refund at once and a
 *   crashed worker's claim comes back after the lease;
 * - the idempotency key is the refund's own id (`refund-<id>`): a call whose outcome is unknown
 *   (no answer, a 5xx, a timeout) is retried with the SAME key, which the provider replays, so
 *   a refund that ran is never made twice; a new key (`refund-<id>-<n>`) only after a definite
 *   refusal, and only once the provider's refunds of the payment were read and none of them is
 *   this refund's;
 * - `pending` at the provider stays pending here until its events (refund.updated,
 *   refund.failed, charge.refunded) or the worker's own polling say how it ended;
 * - settling (`settleRefund`) locks the refund's row, then the order's: a cancel's refund
 *   confirmed completes the cancel (`refunding` → `cancelled`, the stock back, a credit note);
 *   refused, the order goes back to `paid` with the reason.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { PaymentMethod } from "../../contract/constants";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { orders, payments, refunds } from "../db/schema";
import type { OrderMail } from "../mail/outbox";
import type { PaymentGivenBack } from "../mail/templates";
import { announceMove, flagPayment, moveInTransaction, noteOrder, type MoveResult } from "../orders";
import { completeLineRefund, failLineRefund } from "./line-refunds";
import type { PaymentProvider, ProviderRefund } from "./provider";

export type RefundRow = typeof refunds.$inferSelect;
export type RefundKind = "cancel" | "late_payment" | "duplicate_payment" | "mismatch" | "refund";

const STORE = { id: null, role: "store" as const };
const money = (cents: number) => formatDollars(centsToDollars(cents));

const BATCH = 20;
/** Longer than one refund call may take (10 s, no retries of the SDK's own): a crashed worker's claim comes back after it. */
export const LEASE_MS = 30_000;
/** How often a refund pending at the provider is asked about when no event says how it ended. */
const POLL_PENDING_MS = 60_000;
const backoffSeconds = (tries: number) => Math.min(3600, 2 ** Math.max(1, tries));

/** The idempotency key of a refund's current attempt. */
export const refundKey = (r: Pick<RefundRow, "id" | "keyAttempt">) => (r.keyAttempt === 0 ? `refund-${r.id}` : `refund-${r.id}-${r.keyAttempt}`);

/** Writes a refund to be sent, in the caller's transaction (the decision's). Returns its id. */
export async function queueRefund(
  tx: Tx,
  refund: { orderId: string; kind: RefundKind; provider: PaymentMethod; paymentIntent: string | null; amountCents: number; reason?: string; actorId?: string | null },
): Promise<string> {
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId: refund.orderId,
      kind: refund.kind,
      provider: refund.provider,
      paymentIntent: refund.paymentIntent,
      amountCents: refund.amountCents,
      reason: refund.reason ?? "",
      actorId: refund.actorId ?? null,
    })
    .returning({ id: refunds.id });
  if (!row) throw new Error("refund not written");
  return row.id;
}

/**
 * Whether a payment (the provider's id of it) already has a refund of it whole, owed or given (a
 * late, second or mismatched payment's, a cancel's), whatever became of it: a payment is refunded
 * at most once, however many events of it arrive (issue 49). The owner's refunds of lines are
 * parts of a payment the order keeps, so they do not count.
 */
export async function paymentRefunded(tx: Tx, paymentIntent: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.paymentIntent, paymentIntent), ne(refunds.kind, "refund")))
    .limit(1);
  return row !== undefined;
}

export interface SettleContext {
  mail?: OrderMail | undefined;
}

/**
 * How a refund ended, applied once: the refund's row locked (still pending, or nothing
 * happens), then the order's. Returns the order's move, to announce after the commit.
 */
export async function settleRefund(
  tx: Tx,
  refundId: string,
  outcome: { status: "succeeded" | "failed"; providerRefundId?: string | null; message?: string | null },
  context: SettleContext,
): Promise<{ move?: MoveResult; to?: "cancelled" | "paid"; restocked?: boolean } | undefined> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
  if (!refund || refund.status !== "pending") return undefined;
  const succeeded = outcome.status === "succeeded";
  const reason = outcome.message ?? PAYMENT_TEXT.refundFailedUnknown;
  await tx
    .update(refunds)
    .set({
      status: outcome.status,
      providerStatus: outcome.status,
      ...(outcome.providerRefundId ? { providerRefundId: outcome.providerRefundId } : {}),
      lastError: succeeded ? null : reason,
      settledAt: sql`now()`,
      updatedAt: sql`now()`,
      // A failed refund's next attempt (the owner's) needs a new key.
      ...(succeeded ? {} : { keyAttempt: refund.keyAttempt + 1 }),
    })
    .where(eq(refunds.id, refundId));
  const providerId = outcome.providerRefundId ?? refund.providerRefundId;
  const amount = money(refund.amountCents);
  const [order] = await tx.select().from(orders).where(eq(orders.id, refund.orderId)).for("no key update");
  if (!order) return undefined;
  const note = (text: string) => noteOrder(tx, order, text);

  switch (refund.kind) {
    case "refund": {
      // The owner's refund of lines: confirmed, its restock, its return, its credit note and the customer's mail; failed, its units are refundable again.
      if (succeeded) return { restocked: await completeLineRefund(tx, refund, context.mail) };
      await failLineRefund(tx, refund, reason);
      return undefined;
    }
    case "cancel": {
      if (order.status !== "refunding") {
        await note(succeeded ? PAYMENT_TEXT.refunded(amount, providerId) : PAYMENT_TEXT.refundRefused(reason));
        return undefined;
      }
      if (succeeded) {
        await tx.update(payments).set({ status: "refunded", refundId: providerId, refundError: null }).where(eq(payments.orderId, order.id));
        await flagPayment(tx, order.id, null);
        const move = await moveInTransaction(tx, order.id, "cancelled", STORE, { mail: context.mail, note: PAYMENT_TEXT.refunded(amount, providerId) });
        return { move, to: "cancelled" };
      }
      await tx
        .update(payments)
        .set({ status: "refund_failed", refundError: reason, refundAttempts: sql`${payments.refundAttempts} + 1` })
        .where(eq(payments.orderId, order.id));
      await flagPayment(tx, order.id, "REFUND_FAILED");
      const move = await moveInTransaction(tx, order.id, "paid", STORE, { note: PAYMENT_TEXT.refundRefused(reason) });
      return { move, to: "paid" };
    }
    case "late_payment": {
      if (succeeded) {
        await tx.update(payments).set({ status: "refunded", refundId: providerId, refundError: null }).where(eq(payments.orderId, order.id));
        await paymentGivenBack(tx, "late_payment", refund, order, context);
      } else {
        await tx.update(payments).set({ status: "refund_failed", refundError: reason }).where(eq(payments.orderId, order.id));
        await flagPayment(tx, order.id, "LATE_PAYMENT_REFUND_FAILED");
      }
      await note(succeeded ? PAYMENT_TEXT.lateRefunded(amount) : PAYMENT_TEXT.lateRefundFailed(reason));
      return undefined;
    }
    case "duplicate_payment": {
      if (succeeded) await paymentGivenBack(tx, "duplicate_payment", refund, order, context);
      else await flagPayment(tx, order.id, "DUPLICATE_PAYMENT_REFUND_FAILED");
      await note(succeeded ? PAYMENT_TEXT.duplicateRefunded(amount) : PAYMENT_TEXT.duplicateRefundFailed(reason));
      return undefined;
    }
    default: {
      // A mismatched payment, given back when the owner cancelled its order.
      if (succeeded) await tx.update(payments).set({ status: "refunded", refundId: providerId, refundError: null }).where(eq(payments.orderId, order.id));
      else {
        await tx.update(payments).set({ status: "refund_failed", refundError: reason }).where(eq(payments.orderId, order.id));
        await flagPayment(tx, order.id, "REFUND_FAILED");
      }
      await note(succeeded ? PAYMENT_TEXT.refunded(amount, providerId) : PAYMENT_TEXT.refundRefused(reason));
      return undefined;
    }
  }
}

/**
 * A late or second payment's refund confirmed: its customer, told when it was owed (applyEvent),
 * hears it is done, by the line refunds' mail (no credit note: that payment was never invoiced).
 * A refused one is the owner's to look at (the order's paymentProblem), with no mail.
 */
async function paymentGivenBack(tx: Tx, payment: PaymentGivenBack, refund: RefundRow, order: { id: string; number: number; userId: string | null }, context: SettleContext): Promise<void> {
  await context.mail?.refundMade(tx, {
    id: refund.id,
    orderId: order.id,
    orderNumber: order.number,
    userId: order.userId,
    amountCents: refund.amountCents,
    creditNoteNumber: null,
    card: refund.provider === "card",
    payment,
  });
}

/** Settles in its own transaction and announces the order's move once committed. */
export async function settleAndAnnounce(
  db: Db,
  refundId: string,
  outcome: { status: "succeeded" | "failed"; providerRefundId?: string | null; message?: string | null },
  context: SettleContext,
): Promise<void> {
  const settled = await db.transaction((tx) => settleRefund(tx, refundId, outcome, context));
  if (settled?.move && settled.to) announceMove(db, settled.move, settled.to);
  if (settled?.restocked) announceChange(db, "tools");
}

/**
 * What the provider says about refunds (its events, or the worker's reading): each of the
 * store's refunds it names, by the provider's id or by the store's own id in its metadata,
 * takes that state (pending ones stay pending, with the provider's id kept).
 */
export async function applyProviderRefunds(db: Db, reported: ProviderRefund[], context: SettleContext): Promise<number> {
  let changed = 0;
  for (const r of reported) {
    const [row] = r.refundId
      ? await db.select().from(refunds).where(eq(refunds.id, r.refundId))
      : await db.select().from(refunds).where(eq(refunds.providerRefundId, r.id));
    if (!row || row.status !== "pending") continue;
    if (r.status === "pending") {
      await db.update(refunds).set({ providerRefundId: r.id, providerStatus: "pending", updatedAt: sql`now()` }).where(eq(refunds.id, row.id));
      continue;
    }
    // A failed refund at the provider that is not this attempt's (an earlier key's) changes nothing.
    if (row.providerRefundId && row.providerRefundId !== r.id) continue;
    await settleAndAnnounce(db, row.id, { status: r.status, providerRefundId: r.id, message: r.failureReason }, context);
    changed += 1;
  }
  return changed;
}

export interface RefundWorker {
  /** One round now (tests; the timer runs one every poll). Returns how many refunds it handled. */
  runOnce(): Promise<number>;
  /** Asks for a round soon (a refund was just written). */
  kick(): void;
  stop(): Promise<void>;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

interface ClaimedRow {
  id: string;
  order_id: string;
  provider: string;
  payment_intent: string | null;
  amount_cents: number | string;
  provider_refund_id: string | null;
  key_attempt: number;
  tries: number;
}

export function startRefundWorker(
  db: Db,
  providerOf: (method: string) => PaymentProvider | undefined,
  log: FastifyBaseLogger,
  context: SettleContext,
  options: { pollMs?: number; autostart?: boolean } = {},
): RefundWorker {
  const pollMs = options.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const claim = async (): Promise<ClaimedRow[]> =>
    rowsOf<ClaimedRow>(
      await db.execute(sql`
        update ${refunds} set tries = tries + 1, next_attempt_at = now() + ${`${LEASE_MS} milliseconds`}::interval, updated_at = now()
         where id in (select id from ${refunds} where status = 'pending' and next_attempt_at <= now()
                       order by next_attempt_at limit ${BATCH} for update skip locked)
        returning id, order_id, provider, payment_intent, amount_cents, provider_refund_id, key_attempt, tries`),
    );

  const later = async (id: string, delayMs: number, error: string | null, extra: Partial<typeof refunds.$inferInsert> = {}) => {
    await db
      .update(refunds)
      .set({ nextAttemptAt: sql`now() + ${`${delayMs} milliseconds`}::interval`, lastError: error, updatedAt: sql`now()`, ...extra })
      .where(eq(refunds.id, id));
  };

  async function handle(job: ClaimedRow): Promise<void> {
    const provider = providerOf(job.provider);
    const amountCents = Number(job.amount_cents);
    if (!provider) return later(job.id, backoffSeconds(job.tries) * 1000, PAYMENT_TEXT.cardUnavailable);
    if (!job.payment_intent && provider.online) return settleAndAnnounce(db, job.id, { status: "failed", message: PAYMENT_TEXT.noPaymentToRefund }, context);

    if (job.provider_refund_id) {
      // Sent and pending at the provider: ask how it ended.
      const theirs = (await provider.listRefunds(job.payment_intent ?? "")).find((r) => r.id === job.provider_refund_id);
      if (theirs && theirs.status !== "pending") {
        return settleAndAnnounce(db, job.id, { status: theirs.status, providerRefundId: theirs.id, message: theirs.failureReason }, context);
      }
      return later(job.id, POLL_PENDING_MS, null);
    }

    const attempt = await provider.refund({ refundId: job.id, key: refundKey({ id: job.id, keyAttempt: job.key_attempt }), orderId: job.order_id, paymentIntent: job.payment_intent ?? "", amountCents });
    if (attempt.kind === "unknown") {
      log.warn({ refund: job.id, order: job.order_id, tries: job.tries }, `refund ${job.id}: no answer from the provider (${attempt.message}); retrying with the same key`);
      return later(job.id, backoffSeconds(job.tries) * 1000, attempt.message);
    }
    if (attempt.kind === "sent") {
      if (attempt.refund.status === "pending") return later(job.id, POLL_PENDING_MS, null, { providerRefundId: attempt.refund.id, providerStatus: "pending" });
      return settleAndAnnounce(db, job.id, { status: attempt.refund.status, providerRefundId: attempt.refund.id, message: attempt.refund.failureReason }, context);
    }
    // A definite refusal: before anything else, is this refund already at the provider (a key of an earlier attempt that ran)?
    let theirs: ProviderRefund[];
    try {
      theirs = await provider.listRefunds(job.payment_intent ?? "");
    } catch (error) {
      return later(job.id, backoffSeconds(job.tries) * 1000, error instanceof Error ? error.message : String(error));
    }
    const mine = theirs.find((r) => r.refundId === job.id && r.status !== "failed");
    if (mine) {
      if (mine.status === "pending") return later(job.id, POLL_PENDING_MS, null, { providerRefundId: mine.id, providerStatus: "pending" });
      return settleAndAnnounce(db, job.id, { status: "succeeded", providerRefundId: mine.id }, context);
    }
    log.warn({ refund: job.id, order: job.order_id }, `refund ${job.id} refused by the provider: ${attempt.message}`);
    return settleAndAnnounce(db, job.id, { status: "failed", message: attempt.message }, context);
  }

  async function round(): Promise<number> {
    const batch = await claim();
    for (const job of batch) {
      try {
        await handle(job);
      } catch (error) {
        log.warn({ err: error, refund: job.id }, `refund ${job.id}: the attempt failed; it is retried`);
        await later(job.id, backoffSeconds(job.tries) * 1000, error instanceof Error ? error.message : String(error)).catch(() => undefined);
      }
    }
    return batch.length;
  }

  async function runOnce(): Promise<number> {
    while (running) await running.catch(() => 0);
    running = round();
    try {
      return await running;
    } finally {
      running = undefined;
    }
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    timer = undefined;
    if (stopped) return;
    runOnce()
      .catch((error: unknown) => log.warn({ err: error }, "refund worker round failed; trying again"))
      .finally(() => schedule(pollMs));
  };
  if (options.autostart !== false) schedule(pollMs);

  return {
    runOnce,
    kick() {
      if (options.autostart !== false) schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => 0);
    },
  };
}
