/**
 * Card payments around an order (DESIGN "Payments", issues 32 and 40). The provider's webhook is
 * the only source of truth: the return URL only shows the order as the webhook left it.
 *
 * - A card checkout makes the order `awaiting_payment`, its stock held until the hold's end;
 *   `startPayment` then writes the payment's row and opens the provider's page (after the
 *   order's transaction: no network call holds a lock). Its parameters come from the order
 *   alone (the key, the amount, `expires_at` from `paymentHoldUntil`), so a repeated checkout
 *   gets the same page. A definite refusal cancels the order (stock and cart back, the key given
 *   back); an unknown outcome (a timeout, a 5xx) leaves it: a page may be live.
 * - `applyEvent` applies each event once by its id: the id's row in `payment_events` is written
 *   in the same transaction as the effect. Paid with the order's amount → `paid`; another
 *   amount → flagged (AMOUNT_MISMATCH), not paid; paid after a cancel → a refund owed
 *   (LATE_PAYMENT_REFUNDED); a second payment of an order already paid → a refund owed
 *   (DUPLICATE_PAYMENT_REFUNDED), the order untouched; refund events settle the store's refunds.
 *   A payment owed back is refunded once, however many events of it arrive (refunds.ts' paymentRefunded).
 *   An event naming nothing the store knows is ignored (200).
 * - Money owed back is a row of `refunds` written in the decision's transaction and sent by the
 *   refund worker (refunds.ts): a crash or an outage neither loses nor doubles it.
 * - `cancelByAdmin`: a paid card order moves to `refunding` with its refund queued; the refund's
 *   confirmation completes the cancel, a refusal gives it back `paid` with the reason.
 * - `expireHolds` (the plugin's sweep): card orders unpaid past the hold; the provider is asked
 *   first (a page paid there is applied as paid), rows are taken with SKIP LOCKED.
 */
import { and, eq, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { PaymentMethod } from "../../contract/constants";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { Order } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import type { Db, Tx } from "../db/client";
import { cartLines, idempotencyKeys, orders, paymentEvents, payments } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { announceMove, flagPayment, moveInTransaction, numberPaidInvoice, withDetails, type MoveResult } from "../orders";
import { API_TEXT } from "../../contract/texts/api";
import { offlineProvider, PaymentStartError, type PaymentEvent, type PaymentProvider } from "./provider";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { hasLineRefunds } from "./line-refunds";
import { applyProviderRefunds, paymentRefunded, queueRefund, startRefundWorker, type RefundWorker } from "./refunds";
import { sessionExpiry } from "./stripe";

const STORE = { id: null, role: "store" as const };
const money = (cents: number) => formatDollars(centsToDollars(cents));
/** Statuses of an order whose money the store has (a payment for it again is a duplicate). */
const PAID_STATUSES = new Set(["paid", "shipped", "delivered", "refunding"]);

export type EventOutcome = "applied" | "duplicate" | "ignored";

/** A payment of something other than an order (a trade account's invoices), as the provider's page needs it. */
export interface InvoicePage {
  id: string;
  label: string;
  amountCents: number;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Applies a verified event about an invoice payment (one that names `invoicePaymentId`) in the
 * event's transaction. The module that owns those payments (accounts/) hands it over at start,
 * so payments/ knows no trade account.
 */
export type InvoicePaymentHandler = (tx: Tx, event: PaymentEvent) => Promise<"applied" | "ignored">;

export interface PaymentsOptions {
  publicUrl: string;
  holdMs: number;
  mail?: OrderMail | undefined;
  card?: PaymentProvider | undefined;
  log?: FastifyBaseLogger | undefined;
  /** Start the refund worker's timer (tests drive `refundWorker.runOnce()` themselves with false). */
  autostartRefunds?: boolean;
}

export class Payments {
  private readonly providers = new Map<PaymentMethod, PaymentProvider>();
  readonly refundWorker: RefundWorker;
  private readonly log: FastifyBaseLogger | undefined;
  private invoicePayments: InvoicePaymentHandler | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: PaymentsOptions,
  ) {
    this.providers.set("cash_on_delivery", offlineProvider("cash_on_delivery"));
    this.providers.set("bank_transfer", offlineProvider("bank_transfer"));
    // A trade account's net terms (issue 43): invoiced now, paid against the invoice; the placement
    // refuses it to anyone whose account has no terms.
    this.providers.set("terms", offlineProvider("terms"));
    if (options.card) this.providers.set("card", options.card);
    this.log = options.log;
    const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
    this.refundWorker = startRefundWorker(db, (method) => this.providers.get(method as PaymentMethod), options.log ?? silent, { mail: options.mail }, {
      autostart: options.autostartRefunds ?? false,
    });
  }

  /** The ways a customer may pay here: card only where Stripe is set up. */
  methods(): PaymentMethod[] {
    // Terms are a member's (GET /api/account says whether theirs has them), not offered to every shopper.
    return [...this.providers.keys()].filter((m) => m !== "terms");
  }

  accepts(method: PaymentMethod): boolean {
    return this.providers.has(method);
  }

  /** When a card order placed now stops holding its stock. */
  holdUntil(now = new Date()): Date {
    return new Date(now.getTime() + this.options.holdMs);
  }

  private provider(method: PaymentMethod): PaymentProvider | undefined {
    return this.providers.get(method);
  }

  /** A webhook of `method`'s provider, verified and read; undefined where that provider is not set up or sends none. Throws when the signature does not verify. */
  readWebhook(method: PaymentMethod, rawBody: Buffer, signature: string): PaymentEvent | undefined {
    return this.provider(method)?.readWebhook?.(rawBody, signature);
  }

  /** Whether `method`'s provider is set up and sends webhooks. */
  hasWebhook(method: PaymentMethod): boolean {
    return this.provider(method)?.readWebhook !== undefined;
  }

  private urls(orderId: string) {
    const back = `${this.options.publicUrl}/dashboard/orders/${orderId}`;
    return { success: `${back}?payment=return`, cancel: `${back}?payment=cancelled` };
  }

  /**
   * The payment page of a card order awaiting payment: the one already opened (a retried
   * checkout), or opened now with the order's own parameters (a retry after an unknown outcome
   * gets the page the first call made). The payment's row is written before the provider is
   * called. A definite refusal cancels the order (the stock goes back, its lines return to the
   * customer's cart, its checkout key is given back for a retry) and answers 503; an unknown
   * outcome answers 503 and keeps the order: its page may be live.
   */
  async startPayment(order: Order, userId: string): Promise<{ url: string } | undefined> {
    const provider = this.provider(order.paymentMethod);
    if (!provider?.online || order.status !== "awaiting_payment") return undefined;
    const [existing] = await this.db.select().from(payments).where(eq(payments.orderId, order._id));
    if (existing?.url && existing.status === "open") return { url: existing.url };
    // The stored cents, not the answer's dollars turned back into cents.
    const [stored] = await this.db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, order._id));
    if (!stored) return undefined;
    const totalCents = stored.totalCents;
    if (!existing) {
      await this.db.insert(payments).values({ orderId: order._id, provider: provider.method, amountCents: totalCents, currency: "usd", status: "open" }).onConflictDoNothing();
    }
    const holdUntil = order.paymentHoldUntil ? new Date(order.paymentHoldUntil) : this.holdUntil(new Date(order.createdAt));
    let started;
    try {
      started = await provider.start({ id: order._id, number: order.number, totalCents }, this.urls(order._id), new Date(sessionExpiry(new Date(order.createdAt), holdUntil) * 1000));
    } catch (error) {
      const definite = error instanceof PaymentStartError && error.definite;
      this.log?.warn({ err: error, order: order._id, definite }, `payment of order ${order._id} not started`);
      if (!definite) throw new ApiError(503, "PAYMENT_UNAVAILABLE", PAYMENT_TEXT.providerUnsure, {}, { "retry-after": "5" });
      await this.cancelUnstarted(order, userId).catch((e: unknown) => this.log?.error({ err: e, order: order._id }, "could not cancel an order whose payment was refused"));
      throw new ApiError(503, "PAYMENT_UNAVAILABLE", PAYMENT_TEXT.providerUnavailable, {}, { "retry-after": "5" });
    }
    if (!started) return undefined;
    await this.db
      .update(payments)
      .set({ sessionId: started.sessionId, url: started.url, amountCents: started.amountCents, currency: started.currency, updatedAt: sql`now()` })
      .where(eq(payments.orderId, order._id));
    return { url: started.url };
  }

  /** Who applies the events of invoice payments (accounts/, at start). */
  handleInvoicePayments(handler: InvoicePaymentHandler): void {
    this.invoicePayments = handler;
  }

  /**
   * Opens the card provider's page for a payment of trade invoices (issue 43) with the payment's
   * own parameters (a retry after an unknown outcome gets the page the first call made). 400
   * where no card provider is set up; 503 when the provider does not answer.
   */
  async openInvoicePage(row: InvoicePage): Promise<{ sessionId: string; url: string }> {
    const provider = this.provider("card");
    if (!provider?.startInvoicePayment) {
      throw new ApiError(400, "VALIDATION", PAYMENT_TEXT.cardUnavailable, { details: [{ path: "body.invoiceNumbers", message: PAYMENT_TEXT.cardUnavailable }] });
    }
    const back = `${this.options.publicUrl}/dashboard/account`;
    let started;
    try {
      started = await provider.startInvoicePayment(
        { id: row.id, label: row.label, amountCents: row.amountCents },
        { success: `${back}?payment=return`, cancel: `${back}?payment=cancelled` },
        new Date(sessionExpiry(row.createdAt, row.expiresAt) * 1000),
      );
    } catch (error) {
      this.log?.warn({ err: error, invoicePayment: row.id }, `invoice payment ${row.id} not started`);
      throw new ApiError(503, "PAYMENT_UNAVAILABLE", PAYMENT_TEXT.providerUnsure, {}, { "retry-after": "5" });
    }
    return { sessionId: started.sessionId, url: started.url };
  }

  /** A card order whose page the provider refused: cancelled, its lines back in the cart, its checkout key free for a retry. */
  private async cancelUnstarted(order: Order, userId: string): Promise<void> {
    const result = await this.db.transaction(async (tx) => {
      const moved = await moveInTransaction(tx, order._id, "cancelled", STORE, { mail: this.options.mail, note: PAYMENT_TEXT.providerUnavailable });
      if (!moved.moved) return moved;
      await tx.update(payments).set({ status: "expired" }).where(eq(payments.orderId, order._id));
      // A line added meanwhile keeps its own quantity.
      await tx
        .insert(cartLines)
        .values(order.lines.map((l) => ({ userId, toolId: l.toolId, quantity: l.quantity })))
        .onConflictDoNothing();
      // A retry with the same key places the cart again instead of answering with this cancelled order.
      await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.orderId, order._id));
      return moved;
    });
    announceMove(this.db, result, "cancelled");
  }

  /** One verified event from the provider, applied once. */
  async applyEvent(event: PaymentEvent): Promise<EventOutcome> {
    const moves: [MoveResult, "paid" | "cancelled"][] = [];
    let owed = false;
    const outcome = await this.db.transaction(async (tx): Promise<EventOutcome> => {
      if (event.invoicePaymentId) {
        // A member's payment of trade invoices (issue 43), not an order's.
        const [fresh] = await tx.insert(paymentEvents).values({ id: event.id, type: event.type, orderId: null }).onConflictDoNothing().returning({ id: paymentEvents.id });
        if (!fresh) return "duplicate";
        // Nothing is written without the module that owns the payment: the event's id goes back and the provider sends it again.
        if (!this.invoicePayments) throw new Error("an invoice payment's event came before accounts/ handed over its handler");
        return this.invoicePayments(tx, event);
      }
      const orderId = await this.orderOf(tx, event);
      const [fresh] = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, orderId })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (!fresh) return "duplicate";
      if (event.kind === "refund") return "applied";
      if (!orderId || event.kind === "other") return "ignored";
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order || order.paymentMethod !== "card") return "ignored";
      const [payment] = await tx.select().from(payments).where(eq(payments.orderId, orderId));
      const record = { provider: "card", amountCents: event.amountCents ?? order.totalCents, currency: event.currency ?? "usd", sessionId: event.sessionId ?? payment?.sessionId ?? null };

      if (event.kind === "expired") {
        if (order.status !== "awaiting_payment") return "ignored";
        // Another page than the order's own (there is one per order) changes nothing.
        if (payment?.sessionId && event.sessionId && payment.sessionId !== event.sessionId) return "ignored";
        moves.push([await moveInTransaction(tx, orderId, "cancelled", STORE, { mail: this.options.mail, note: PAYMENT_TEXT.sessionExpired }), "cancelled"]);
        await upsertPayment(tx, orderId, { ...record, status: "expired" });
        return "applied";
      }

      // Paid: the provider charged the card.
      const amountCents = event.amountCents ?? Number(order.totalCents);
      const known = payment?.paymentIntent != null && event.paymentIntent === payment.paymentIntent;
      const matches = event.amountCents === Number(order.totalCents) && (event.currency ?? "").toLowerCase() === "usd";
      // A payment already owed back (or given back) whole: another event of it changes nothing.
      if (event.paymentIntent && (await paymentRefunded(tx, event.paymentIntent))) return "ignored";
      if (order.status === "cancelled") {
        // Too late: the order and its stock are gone. The money goes back, by the refund worker.
        if (known && payment.status !== "open") return "ignored";
        await upsertPayment(tx, orderId, { ...record, status: "paid", paymentIntent: event.paymentIntent });
        await flagPayment(tx, orderId, "LATE_PAYMENT_REFUNDED");
        await queueRefund(tx, { orderId, kind: "late_payment", provider: "card", paymentIntent: event.paymentIntent, amountCents });
        // The customer's money left their card: they hear now that it comes back (and again once it has, settleRefund).
        await this.options.mail?.refundOwed(tx, { orderId, orderNumber: order.number, userId: order.userId, amountCents, payment: "late_payment" });
        owed = true;
        return "applied";
      }
      if (PAID_STATUSES.has(order.status)) {
        // The same payment told again (another event of it) changes nothing; another payment is given back, the order left as it is.
        if (known || !event.paymentIntent) return "ignored";
        await flagPayment(tx, orderId, "DUPLICATE_PAYMENT_REFUNDED");
        await queueRefund(tx, { orderId, kind: "duplicate_payment", provider: "card", paymentIntent: event.paymentIntent, amountCents });
        await this.options.mail?.refundOwed(tx, { orderId, orderNumber: order.number, userId: order.userId, amountCents, payment: "duplicate_payment" });
        owed = true;
        return "applied";
      }
      if (order.status !== "awaiting_payment") return "ignored";
      if (!matches) {
        // Never marked paid on a wrong amount: the owner looks at it (the hold leaves flagged orders alone).
        if (payment?.paymentIntent && !known) {
          await queueRefund(tx, { orderId, kind: "duplicate_payment", provider: "card", paymentIntent: event.paymentIntent, amountCents });
          await this.options.mail?.refundOwed(tx, { orderId, orderNumber: order.number, userId: order.userId, amountCents, payment: "duplicate_payment" });
          owed = true;
          return "applied";
        }
        await upsertPayment(tx, orderId, { ...record, status: "open", paymentIntent: event.paymentIntent });
        await flagPayment(tx, orderId, "AMOUNT_MISMATCH");
        return "applied";
      }
      if (order.paymentProblem === "AMOUNT_MISMATCH" && payment?.paymentIntent && !known) {
        // The right payment after a wrong one: the wrong one goes back.
        await queueRefund(tx, { orderId, kind: "mismatch", provider: "card", paymentIntent: payment.paymentIntent, amountCents: Number(payment.amountCents) });
        await flagPayment(tx, orderId, null);
        owed = true;
      }
      moves.push([await moveInTransaction(tx, orderId, "paid", STORE, { mail: this.options.mail }), "paid"]);
      await upsertPayment(tx, orderId, { ...record, status: "paid", paymentIntent: event.paymentIntent });
      // The order's mail (the customer's, its invoice attached, and the admins') is written now that
      // it is paid, not when it was placed: an abandoned card checkout mails nobody (issue 40). Its
      // details are read first, so that only the number and the mail follow the counter.
      const [detailed] = this.options.mail ? await withDetails(tx, [{ ...order, status: "paid" }]) : [];
      // A card order's invoice is numbered when it is paid, last in the transaction (the counter's row is held to the commit).
      const invoiceNumber = await numberPaidInvoice(tx, order);
      // An order whose customer deleted their account (userId null) mails the admins only: no user has the id "".
      if (detailed) await this.options.mail?.ordersPlaced(tx, [{ userId: order.userId ?? "", order: { ...detailed, invoiceNumber } }]);
      return "applied";
    });
    for (const [result, to] of moves) announceMove(this.db, result, to);
    if (outcome === "applied" && event.kind === "refund" && event.refunds) await applyProviderRefunds(this.db, event.refunds, { mail: this.options.mail });
    if (owed) this.refundWorker.kick();
    return outcome;
  }

  /** The order an event is about, if the store has it: its metadata, else its page, else its payment. */
  private async orderOf(tx: Tx, event: PaymentEvent): Promise<string | null> {
    if (event.orderId) {
      const [row] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, event.orderId));
      if (row) return row.id;
    }
    if (event.sessionId) {
      const [row] = await tx.select({ orderId: payments.orderId }).from(payments).where(eq(payments.sessionId, event.sessionId));
      if (row) return row.orderId;
    }
    if (event.paymentIntent && event.kind === "refund") {
      const [row] = await tx.select({ orderId: payments.orderId }).from(payments).where(eq(payments.paymentIntent, event.paymentIntent));
      if (row) return row.orderId;
    }
    return null;
  }

  /**
   * The owner cancels an order. A paid card order moves to `refunding` with its refund queued in
   * the same transaction (its confirmation completes the cancel; nothing ships it meanwhile); a
   * card order whose payment was mismatched is cancelled and what was captured is refunded.
   * Every other cancel is the lifecycle's usual move.
   */
  async cancelByAdmin(orderId: string, actorId: string, inTransaction?: (tx: Tx, result: MoveResult) => Promise<void>): Promise<MoveResult> {
    const actor = { id: actorId, role: "admin" as const };
    let owed = false;
    const { moved, to } = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
      if (!order) throw notFound(API_TEXT.orderNotFound);
      // Part of it given back already (refunds of lines): the rest is refunded the same way, not by a cancel that would credit it all.
      if (order.status !== "cancelled" && (await hasLineRefunds(tx, orderId))) throw conflict("ORDER_PARTLY_REFUNDED", REFUND_TEXT.partlyRefunded);
      const [payment] = order.paymentMethod === "card" ? await tx.select().from(payments).where(eq(payments.orderId, orderId)) : [];
      if (order.paymentMethod === "card" && order.status === "paid") {
        const amountCents = payment ? Number(payment.amountCents) : Number(order.totalCents);
        const result = await moveInTransaction(tx, orderId, "refunding", actor, { inTransaction, note: PAYMENT_TEXT.refundRequested(money(amountCents)) });
        await tx.update(payments).set({ refundError: null }).where(eq(payments.orderId, orderId));
        await queueRefund(tx, { orderId, kind: "cancel", provider: "card", paymentIntent: payment?.paymentIntent ?? null, amountCents, actorId });
        owed = true;
        return { moved: result, to: "refunding" as const };
      }
      const captured = order.status === "awaiting_payment" && payment?.paymentIntent && payment.status === "open";
      const result = await moveInTransaction(tx, orderId, "cancelled", actor, {
        inTransaction,
        mail: this.options.mail,
        ...(captured ? { note: PAYMENT_TEXT.mismatchRefundRequested(money(Number(payment.amountCents))) } : {}),
      });
      if (captured && result.moved) {
        await queueRefund(tx, { orderId, kind: "mismatch", provider: "card", paymentIntent: payment.paymentIntent, amountCents: Number(payment.amountCents), actorId });
        owed = true;
      }
      return { moved: result, to: "cancelled" as const };
    });
    if (to === "cancelled") announceMove(this.db, moved, "cancelled");
    if (owed) this.refundWorker.kick();
    // A card order cancelled before it was paid: its payment page closes (a payment made anyway is refunded on its webhook).
    if (moved.moved && moved.before.status === "awaiting_payment") {
      const [payment] = await this.db.select({ sessionId: payments.sessionId }).from(payments).where(eq(payments.orderId, orderId));
      if (payment?.sessionId) await this.provider("card")?.expire(payment.sessionId);
    }
    return moved;
  }

  /**
   * Card orders unpaid past their hold, for every provider that holds stock. Each is asked
   * about first: a page paid at the provider is applied as paid; an open one is closed, then
   * the order is cancelled and its stock returned (once: the order's row, taken with SKIP LOCKED
   * so two instances' sweeps never wait on each other, and its status decide). Orders the
   * owner must look at (a payment with the wrong amount) are left to the owner. Errors are
   * logged per order; the others go on. Returns how many were cancelled.
   */
  async expireHolds(now = new Date(), limit = 100): Promise<number> {
    const online = [...this.providers.values()].filter((p) => p.online).map((p) => p.method);
    if (online.length === 0) return 0;
    const due = await this.db
      .select({ id: orders.id, number: orders.number, method: orders.paymentMethod, totalCents: orders.totalCents, createdAt: orders.createdAt, holdUntil: orders.paymentHoldUntil, sessionId: payments.sessionId, hasPayment: payments.orderId })
      .from(orders)
      .leftJoin(payments, eq(payments.orderId, orders.id))
      .where(and(isNotNull(orders.paymentHoldUntil), lt(orders.paymentHoldUntil, now), eq(orders.status, "awaiting_payment"), isNull(orders.paymentProblem), inArray(orders.paymentMethod, online)))
      .limit(limit);
    let cancelled = 0;
    for (const row of due) {
      try {
        if (await this.expireOne(row)) cancelled += 1;
      } catch (error) {
        this.log?.warn({ err: error, order: row.id }, `the payment hold's sweep could not settle order ${row.id}; it is tried again`);
      }
    }
    return cancelled;
  }

  private async expireOne(row: { id: string; number: number; method: PaymentMethod; totalCents: number; createdAt: Date; holdUntil: Date | null; sessionId: string | null; hasPayment: string | null }): Promise<boolean> {
    const provider = this.provider(row.method);
    if (!provider) return false;
    let sessionId = row.sessionId;
    if (!sessionId && row.hasPayment) {
      // The page's start had no answer: the same call again tells whether it made one (the provider replays it).
      try {
        const started = await provider.start({ id: row.id, number: row.number, totalCents: Number(row.totalCents) }, this.urls(row.id), new Date(sessionExpiry(row.createdAt, row.holdUntil ?? row.createdAt) * 1000));
        if (started) {
          sessionId = started.sessionId;
          await this.db.update(payments).set({ sessionId, url: started.url, updatedAt: sql`now()` }).where(eq(payments.orderId, row.id));
        }
      } catch (error) {
        if (!(error instanceof PaymentStartError && error.definite)) throw error;
      }
    }
    if (sessionId && provider.session) {
      let state = await provider.session(sessionId);
      if (state.status === "open") {
        await provider.expire(sessionId);
        state = await provider.session(sessionId);
      }
      if (state.status === "open") throw new Error(`the payment page ${sessionId} is still open`);
      if (state.status === "complete" && state.paid) {
        // Paid in time, its event not here (yet): applied as the event would be (the event, when it comes, changes nothing).
        await this.applyEvent({
          id: `sweep:${sessionId}`,
          type: "sweep.session_paid",
          kind: "paid",
          orderId: row.id,
          sessionId,
          paymentIntent: state.paymentIntent,
          amountCents: state.amountCents,
          currency: state.currency,
        });
        return false;
      }
    }
    const result = await this.db.transaction(async (tx) => {
      const [free] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.id, row.id), eq(orders.status, "awaiting_payment"), isNull(orders.paymentProblem)))
        .for("update", { skipLocked: true });
      if (!free) return undefined;
      const moved = await moveInTransaction(tx, row.id, "cancelled", STORE, { mail: this.options.mail, note: PAYMENT_TEXT.holdExpired });
      if (moved.moved) await tx.update(payments).set({ status: "expired" }).where(and(eq(payments.orderId, row.id), eq(payments.status, "open")));
      return moved;
    });
    if (!result) return false;
    announceMove(this.db, result, "cancelled");
    return result.moved;
  }
}

async function upsertPayment(
  tx: Tx,
  orderId: string,
  values: { provider: string; amountCents: number; currency: string; sessionId: string | null; status: string; paymentIntent?: string | null },
): Promise<void> {
  await tx
    .insert(payments)
    .values({ orderId, ...values })
    .onConflictDoUpdate({
      target: payments.orderId,
      set: { status: values.status, amountCents: values.amountCents, currency: values.currency, ...(values.paymentIntent ? { paymentIntent: values.paymentIntent } : {}), updatedAt: sql`now()` },
    });
}
