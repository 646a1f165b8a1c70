/**
 * Card payments around an order (DESIGN "Payments", issue 32). The provider's webhook is the
 * only source of truth: the return URL only shows the order as the webhook left it.
 *
 * - A card checkout makes the order `awaiting_payment`, its stock held until the hold's end;
 *   `startPayment` then opens the provider's page (after the order's transaction: no network
 *   call holds a lock) and keeps the session in `payments`.
 * - `applyEvent` applies each event once by its id: the id's row in `payment_events` is written
 *   in the same transaction as the effect, so a duplicate, a replay or another instance's copy
 *   finds it and changes nothing. The order's row is locked, so an event racing the hold or an
 *   admin sees their result. Paid with the order's amount and currency → `paid`; another amount
 *   → flagged (AMOUNT_MISMATCH), not paid; paid after the order was cancelled → refunded at once
 *   and flagged (LATE_PAYMENT_REFUNDED); expired → `cancelled`, the stock back once.
 * - `refundAndCancel`: the owner cancels a paid card order; the provider refunds first (one
 *   idempotency key per order); a refusal leaves the order paid and says why.
 * - `expireHolds` (payments/hold.ts runs it): unpaid past the hold → `cancelled`, even if no
 *   event ever comes.
 */
import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { PaymentMethod } from "../../contract/constants";
import { centsToDollars, formatDollars } from "../../contract/money";
import type { Order } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import type { Db, Tx } from "../db/client";
import { cartLines, orderEvents, orders, paymentEvents, payments } from "../db/schema";
import { ApiError, conflict } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { announceMove, moveInTransaction, moveOrderStatus, type MoveResult } from "../orders/service";
import { offlineProvider, type PaymentEvent, type PaymentProvider } from "./provider";

const STORE = { id: null, role: "store" as const };
const money = (cents: number) => formatDollars(centsToDollars(cents));

export type EventOutcome = "applied" | "duplicate" | "ignored";

interface LateRefund {
  orderId: string;
  paymentIntent: string | null;
  amountCents: number;
  attempt: number;
}

export class Payments {
  private readonly providers = new Map<PaymentMethod, PaymentProvider>();

  constructor(
    private readonly db: Db,
    private readonly options: { publicUrl: string; holdMs: number; mail?: OrderMail | undefined; card?: PaymentProvider | undefined },
  ) {
    this.providers.set("cash_on_delivery", offlineProvider("cash_on_delivery"));
    this.providers.set("bank_transfer", offlineProvider("bank_transfer"));
    // A trade account's net terms (issue 43): invoiced now, paid against the invoice; the placement
    // refuses it to anyone whose account has no terms.
    this.providers.set("terms", offlineProvider("terms"));
    if (options.card) this.providers.set("card", options.card);
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

  /**
   * The payment page of a card order awaiting payment: the one already started (a retried
   * checkout), or a new one. A provider that cannot start it cancels the order (the stock goes
   * back), puts its lines back in the customer's cart and answers 503: nothing was charged.
   */
  async startPayment(order: Order, userId: string): Promise<{ url: string } | undefined> {
    const provider = this.provider(order.paymentMethod);
    if (!provider?.online || order.status !== "awaiting_payment") return undefined;
    const [existing] = await this.db.select().from(payments).where(eq(payments.orderId, order._id));
    if (existing?.url) return { url: existing.url };
    const back = `${this.options.publicUrl}/dashboard/orders/${order._id}`;
    // The stored cents, not the answer's dollars turned back into cents.
    const [stored] = await this.db.select({ totalCents: orders.totalCents }).from(orders).where(eq(orders.id, order._id));
    if (!stored) return undefined;
    let started;
    try {
      started = await provider.start(
        { id: order._id, number: order.number, totalCents: stored.totalCents },
        { success: `${back}?payment=return`, cancel: `${back}?payment=cancelled` },
        order.paymentHoldUntil ? new Date(order.paymentHoldUntil) : this.holdUntil(),
      );
    } catch {
      await moveOrderStatus(this.db, order._id, "cancelled", STORE, undefined, this.options.mail, PAYMENT_TEXT.providerUnavailable)
        .then(() =>
          // A line added meanwhile keeps its own quantity.
          this.db
            .insert(cartLines)
            .values(order.lines.map((l) => ({ userId, toolId: l.toolId, quantity: l.quantity })))
            .onConflictDoNothing(),
        )
        .catch(() => undefined);
      throw new ApiError(503, "PAYMENT_UNAVAILABLE", PAYMENT_TEXT.providerUnavailable, {}, { "retry-after": "5" });
    }
    if (!started) return undefined;
    await this.db
      .insert(payments)
      .values({ orderId: order._id, provider: provider.method, sessionId: started.sessionId, url: started.url, amountCents: started.amountCents, currency: started.currency })
      .onConflictDoNothing();
    return { url: started.url };
  }

  /** One verified event from the provider, applied once. */
  async applyEvent(event: PaymentEvent): Promise<EventOutcome> {
    let late: LateRefund | undefined;
    const moves: [MoveResult, "paid" | "cancelled"][] = [];
    const outcome = await this.db.transaction(async (tx): Promise<EventOutcome> => {
      const orderId = event.orderId ?? (event.sessionId ? await orderOfSession(tx, event.sessionId) : null);
      const [fresh] = await tx
        .insert(paymentEvents)
        .values({ id: event.id, type: event.type, orderId })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.id });
      if (!fresh) return "duplicate";
      if (!orderId || event.kind === "other") return "ignored";
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order || order.paymentMethod !== "card") return "ignored";
      const record = { provider: "card", amountCents: event.amountCents ?? order.totalCents, currency: event.currency ?? "usd", sessionId: event.sessionId };

      if (event.kind === "expired") {
        if (order.status !== "awaiting_payment") return "ignored";
        moves.push([await moveInTransaction(tx, orderId, "cancelled", STORE, { mail: this.options.mail, note: PAYMENT_TEXT.sessionExpired }), "cancelled"]);
        await upsertPayment(tx, orderId, { ...record, status: "expired" });
        return "applied";
      }

      // Paid: the provider charged the card.
      const matches = event.amountCents === Number(order.totalCents) && (event.currency ?? "").toLowerCase() === "usd";
      if (order.status === "cancelled") {
        // Too late: the order and its stock are gone. The money goes back at once.
        await upsertPayment(tx, orderId, { ...record, status: "paid", paymentIntent: event.paymentIntent });
        await tx.update(orders).set({ paymentProblem: "LATE_PAYMENT_REFUNDED" }).where(eq(orders.id, orderId));
        late = { orderId, paymentIntent: event.paymentIntent, amountCents: event.amountCents ?? Number(order.totalCents), attempt: 0 };
        return "applied";
      }
      if (!matches) {
        // Never marked paid on a wrong amount: the owner looks at it (the hold leaves flagged orders alone).
        await upsertPayment(tx, orderId, { ...record, status: "open", paymentIntent: event.paymentIntent });
        await tx.update(orders).set({ paymentProblem: "AMOUNT_MISMATCH" }).where(eq(orders.id, orderId));
        return "applied";
      }
      if (order.status !== "awaiting_payment") return "ignored";
      moves.push([await moveInTransaction(tx, orderId, "paid", STORE, { mail: this.options.mail }), "paid"]);
      await upsertPayment(tx, orderId, { ...record, status: "paid", paymentIntent: event.paymentIntent });
      return "applied";
    });
    for (const [result, to] of moves) announceMove(this.db, result, to);
    if (late) await this.refundLate(late);
    return outcome;
  }

  private async refundLate(late: LateRefund): Promise<void> {
    const result = await this.refundWith("card", late);
    await this.db.transaction(async (tx) => {
      await tx
        .update(payments)
        .set(
          result.ok
            ? { status: "refunded", refundId: result.refundId, refundError: null }
            : { status: "refund_failed", refundError: result.message, refundAttempts: sql`${payments.refundAttempts} + 1` },
        )
        .where(eq(payments.orderId, late.orderId));
      if (!result.ok) await tx.update(orders).set({ paymentProblem: "LATE_PAYMENT_REFUND_FAILED" }).where(eq(orders.id, late.orderId));
      await tx.insert(orderEvents).values({
        orderId: late.orderId,
        status: "cancelled",
        actorId: null,
        actorRole: "store",
        note: result.ok ? PAYMENT_TEXT.lateRefunded(money(late.amountCents)) : PAYMENT_TEXT.lateRefundFailed(result.message),
      });
    });
  }

  private async refundWith(method: PaymentMethod, payment: LateRefund) {
    const provider = this.provider(method);
    if (!provider) return { ok: false as const, message: PAYMENT_TEXT.cardUnavailable };
    return provider.refund(payment);
  }

  /**
   * The owner cancels an order. A paid card order is refunded through the provider first; a
   * refusal leaves it paid (409, with the provider's reason) and keeps the reason on its payment.
   * Every other cancel is the lifecycle's usual move.
   */
  async cancelByAdmin(orderId: string, actorId: string, inTransaction?: (tx: Tx, result: MoveResult) => Promise<void>): Promise<MoveResult> {
    const [order] = await this.db.select().from(orders).where(eq(orders.id, orderId));
    if (order?.paymentMethod === "card" && order.status === "paid") {
      const [payment] = await this.db.select().from(payments).where(eq(payments.orderId, orderId));
      const amountCents = payment?.amountCents ?? Number(order.totalCents);
      const result = await this.refundWith("card", { orderId, paymentIntent: payment?.paymentIntent ?? null, amountCents, attempt: payment?.refundAttempts ?? 0 });
      if (!result.ok) {
        await this.db.transaction(async (tx) => {
          await tx
            .update(payments)
            .set({ status: "refund_failed", refundError: result.message, refundAttempts: sql`${payments.refundAttempts} + 1` })
            .where(eq(payments.orderId, orderId));
          await tx.update(orders).set({ paymentProblem: "REFUND_FAILED" }).where(eq(orders.id, orderId));
        });
        throw conflict("REFUND_REFUSED", PAYMENT_TEXT.refundRefused(result.message));
      }
      return moveOrderStatus(
        this.db,
        orderId,
        "cancelled",
        { id: actorId, role: "admin" },
        async (tx, moved) => {
          await tx.update(payments).set({ status: "refunded", refundId: result.refundId, refundError: null }).where(eq(payments.orderId, orderId));
          await tx.update(orders).set({ paymentProblem: null }).where(and(eq(orders.id, orderId), eq(orders.paymentProblem, "REFUND_FAILED")));
          await inTransaction?.(tx, moved);
        },
        this.options.mail,
        PAYMENT_TEXT.refunded(money(amountCents), result.refundId),
      );
    }
    const moved = await moveOrderStatus(this.db, orderId, "cancelled", { id: actorId, role: "admin" }, inTransaction, this.options.mail);
    // A card order cancelled before it was paid: its payment page closes (a payment made anyway is refunded on its webhook).
    if (moved.moved && moved.before.status === "awaiting_payment") {
      const [payment] = await this.db.select({ sessionId: payments.sessionId }).from(payments).where(eq(payments.orderId, orderId));
      if (payment?.sessionId) await this.provider("card")?.expire(payment.sessionId);
    }
    return moved;
  }

  /**
   * Card orders unpaid past their hold are cancelled, their stock returned (once: the order's
   * row lock and its status decide), and their payment pages closed. Orders the owner must look
   * at (a payment with the wrong amount) are left to the owner. Returns how many were cancelled.
   */
  async expireHolds(now = new Date(), limit = 100): Promise<number> {
    const due = await this.db
      .select({ id: orders.id, sessionId: payments.sessionId })
      .from(orders)
      .leftJoin(payments, eq(payments.orderId, orders.id))
      .where(and(isNotNull(orders.paymentHoldUntil), lt(orders.paymentHoldUntil, now), eq(orders.status, "awaiting_payment"), isNull(orders.paymentProblem)))
      .limit(limit);
    let cancelled = 0;
    for (const { id, sessionId } of due) {
      const result = await moveOrderStatus(
        this.db,
        id,
        "cancelled",
        STORE,
        async (tx, moved) => {
          if (moved.moved) await tx.update(payments).set({ status: "expired" }).where(and(eq(payments.orderId, id), eq(payments.status, "open")));
        },
        this.options.mail,
        PAYMENT_TEXT.holdExpired,
      ).catch(() => undefined);
      if (result?.moved) {
        cancelled += 1;
        if (sessionId) await this.provider("card")?.expire(sessionId);
      }
    }
    return cancelled;
  }
}

async function orderOfSession(tx: Tx, sessionId: string): Promise<string | null> {
  const [row] = await tx.select({ orderId: payments.orderId }).from(payments).where(eq(payments.sessionId, sessionId));
  return row?.orderId ?? null;
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
