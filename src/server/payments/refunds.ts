/**
 * Money owed back, durably (issue 40, decision 0016). A refund is a row of `refunds` written in
 * the same transaction as the decision that owes it (the owner's cancel of a paid card order, a
 * payment that came after the cancel, a second payment, a mismatched payment cancelled); the
 * transaction also sends its job (migration 0041's trigger, decision 0021), which asks the provider
 * after the commit:
 *
 * - pg-boss runs the job once across instances and retries it with backoff; the job leases the
 *   refund's row (its next attempt moves LEASE_MS ahead) before the provider is asked, so a job
 *   run twice never sends one refund twice at once, and a crashed run's claim comes back after
 *   the lease (pg-boss gives its job again once it expires);
 * - the idempotency key is the refund's own id (`refund-<id>`): a call whose outcome is unknown
 *   (no answer, a 5xx, a timeout) is retried with the SAME key, which the provider replays, so
 *   a refund that ran is never made twice; a new key (`refund-<id>-<n>`) only after a definite
 *   refusal, and only once the provider's refunds of the payment were read and none of them is
 *   this refund's;
 * - `pending` at the provider stays pending here until its events (refund.updated,
 *   refund.failed, charge.refunded) or the worker's own look (a job a minute) say how it ended;
 * - settling (`settleRefund`) locks the refund's row, then the order's: a cancel's refund
 *   confirmed completes the cancel (`refunding` → `cancelled`, the stock back, a credit note);
 *   refused, the order goes back to `paid` with the reason.
 */
import { and, eq, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { PaymentMethod } from "../../contract/constants";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import type { JobRunner } from "../jobs";
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

/** The queue whose jobs send refunds (one a refund, `{id}`); the name is also in migration 0041's trigger. */
export const REFUND_QUEUE = "refund-send";
const refundJobSchema = z.object({ id: z.string().min(1) });

export interface RefundWorker {
  /** Runs the refund jobs that are due now, here (tests). Returns how many ran. */
  runOnce(): Promise<number>;
  /** Every refund job waiting (its backoff, its next look at a pending refund) is due now (tests). */
  dueNow(): Promise<void>;
  /** This instance's worker stops taking refund jobs (tests then run them with runOnce). */
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

/** An attempt that must be tried again after the queue's backoff (the job fails, pg-boss retries it). */
class TryAgain extends Error {}

/**
 * Defines the refund queue on `jobs` (before it starts): a job asks the provider for one refund
 * and settles it. It runs once across instances (pg-boss), and a job run twice (a duplicate, or
 * one pg-boss gave again after its holder died) does no harm: the refund's row is leased before
 * the provider is asked (a run that finds it settled does nothing, one that finds the lease held
 * looks again when it ends, in case its holder died), the
 * provider is asked with the refund's key, and settling applies once (settleRefund).
 */
export function startRefundWorker(
  jobs: JobRunner,
  db: Db,
  providerOf: (method: string) => PaymentProvider | undefined,
  log: FastifyBaseLogger,
  context: SettleContext,
): RefundWorker {
  const claim = async (id: string): Promise<ClaimedRow | undefined> =>
    rowsOf<ClaimedRow>(
      await db.execute(sql`
        update ${refunds} set tries = tries + 1, next_attempt_at = now() + ${`${LEASE_MS} milliseconds`}::interval, updated_at = now()
         where id = ${id} and status = 'pending' and next_attempt_at <= now()
        returning id, order_id, provider, payment_intent, amount_cents, provider_refund_id, key_attempt, tries`),
    )[0];
  /** Seconds until the lease another run holds on a pending refund ends; undefined when it is settled or gone. */
  const leaseLeft = async (id: string): Promise<number | undefined> =>
    rowsOf<{ left: number | string }>(
      await db.execute(sql`select greatest(0, extract(epoch from next_attempt_at - now())) as left from ${refunds} where id = ${id} and status = 'pending'`),
    ).map((r) => Number(r.left))[0];

  /** The lease ends now (the next job may claim it); the error is kept, and the job fails to be retried after its backoff. */
  const tryAgain = async (id: string, error: string): Promise<never> => {
    await db.update(refunds).set({ nextAttemptAt: sql`now()`, lastError: error, updatedAt: sql`now()` }).where(eq(refunds.id, id));
    throw new TryAgain(error);
  };
  /** Pending at the provider: the lease ends, and a job looks again in POLL_PENDING_MS (sent before this one completes). */
  const lookAgain = async (id: string, extra: Partial<typeof refunds.$inferInsert> = {}) => {
    await db.update(refunds).set({ nextAttemptAt: sql`now()`, lastError: null, updatedAt: sql`now()`, ...extra }).where(eq(refunds.id, id));
    await jobs.enqueue(db, REFUND_QUEUE, { id }, { startAfterSeconds: POLL_PENDING_MS / 1000 });
  };

  async function handle(id: string): Promise<void> {
    const job = await claim(id);
    if (!job) {
      // Settled already; or another run holds its lease: it may have died with its instance (its job
      // comes back only once pg-boss expires it), so this job looks again when the lease ends.
      const left = await leaseLeft(id);
      if (left !== undefined) await jobs.enqueue(db, REFUND_QUEUE, { id }, { startAfterSeconds: Math.ceil(left) + 1 });
      return;
    }
    try {
      await attempt(job);
    } catch (error) {
      if (error instanceof TryAgain) throw error;
      log.warn({ err: error, refund: job.id }, `refund ${job.id}: the attempt failed; it is retried`);
      await tryAgain(job.id, error instanceof Error ? error.message : String(error));
    }
  }

  async function attempt(job: ClaimedRow): Promise<void> {
    const provider = providerOf(job.provider);
    const amountCents = Number(job.amount_cents);
    if (!provider) return tryAgain(job.id, PAYMENT_TEXT.cardUnavailable);
    if (!job.payment_intent && provider.online) return settleAndAnnounce(db, job.id, { status: "failed", message: PAYMENT_TEXT.noPaymentToRefund }, context);

    if (job.provider_refund_id) {
      // Sent and pending at the provider: ask how it ended.
      const theirs = (await provider.listRefunds(job.payment_intent ?? "")).find((r) => r.id === job.provider_refund_id);
      if (theirs && theirs.status !== "pending") {
        return settleAndAnnounce(db, job.id, { status: theirs.status, providerRefundId: theirs.id, message: theirs.failureReason }, context);
      }
      return lookAgain(job.id);
    }

    const sent = await provider.refund({ refundId: job.id, key: refundKey({ id: job.id, keyAttempt: job.key_attempt }), orderId: job.order_id, paymentIntent: job.payment_intent ?? "", amountCents });
    if (sent.kind === "unknown") {
      log.warn({ refund: job.id, order: job.order_id, tries: job.tries }, `refund ${job.id}: no answer from the provider (${sent.message}); retrying with the same key`);
      return tryAgain(job.id, sent.message);
    }
    if (sent.kind === "sent") {
      if (sent.refund.status === "pending") return lookAgain(job.id, { providerRefundId: sent.refund.id, providerStatus: "pending" });
      return settleAndAnnounce(db, job.id, { status: sent.refund.status, providerRefundId: sent.refund.id, message: sent.refund.failureReason }, context);
    }
    // A definite refusal: before anything else, is this refund already at the provider (a key of an earlier attempt that ran)?
    let theirs: ProviderRefund[];
    try {
      theirs = await provider.listRefunds(job.payment_intent ?? "");
    } catch (error) {
      return tryAgain(job.id, error instanceof Error ? error.message : String(error));
    }
    const mine = theirs.find((r) => r.refundId === job.id && r.status !== "failed");
    if (mine) {
      if (mine.status === "pending") return lookAgain(job.id, { providerRefundId: mine.id, providerStatus: "pending" });
      return settleAndAnnounce(db, job.id, { status: "succeeded", providerRefundId: mine.id }, context);
    }
    log.warn({ refund: job.id, order: job.order_id }, `refund ${job.id} refused by the provider: ${sent.message}`);
    return settleAndAnnounce(db, job.id, { status: "failed", message: sent.message }, context);
  }

  // Money owed is never given up quietly: about three days of retries (2 s doubling), then the job is listed as failed (the refund stays pending, its error shown).
  jobs.define<{ id: string }>(REFUND_QUEUE, { handle: (data) => handle(refundJobSchema.parse(data).id), retryLimit: 16, retryDelaySeconds: 2, batchSize: BATCH });
  // At start, a pending refund with no job waiting gets one: refunds owed before the queue existed, and
  // those whose job was running on an instance that died (pg-boss gives an active job back only once it
  // expires; a job of a live instance is left to finish by the lease, see handle).
  jobs.atStart(() =>
    db.execute(sql`
      select refund_jobs(array(
        select r.id from ${refunds} r
         where r.status = 'pending'
           and not exists (select 1 from pgboss.job j where j.name = ${REFUND_QUEUE} and j.state in ('created', 'retry') and j.data->>'id' = r.id)))`),
  );

  return {
    runOnce: () => jobs.runDue(REFUND_QUEUE),
    dueNow: async () => {
      await db.update(refunds).set({ nextAttemptAt: sql`now()` }).where(eq(refunds.status, "pending"));
      await jobs.dueNow(REFUND_QUEUE);
    },
    stop: () => jobs.stopWorking(REFUND_QUEUE),
  };
}
