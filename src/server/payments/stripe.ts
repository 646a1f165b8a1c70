/**
 * Card payments through Stripe Checkout, with the official SDK: the card is typed on Stripe's
 * page, never on ours. Calls carry idempotency keys made from the order (a session) or the
 * store's refund (a refund), so a retried call gives the same session or refunds once.
 * STRIPE_API_URL points the SDK at another host (the tests' stand-in, tests/support/stripe.ts).
 */
import type { Stripe as StripeClient } from "stripe";
import type { StripeSettings } from "../config";
import { PaymentStartError, type PaymentEvent, type PaymentOrder, type PaymentProvider, type ProviderRefund, type RefundAttempt, type StartedPayment } from "./provider";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Whether Stripe said no for good: a 4xx it answered (invalid request, card, permission) other
 * than an idempotency error or a rate limit. Anything else (no answer, a 5xx, a timeout, a
 * 409/429) may have run or may run on a retry: its outcome is unknown.
 */
function definiteRefusal(error: unknown): boolean {
  const e = error as { statusCode?: number; rawType?: string; type?: string };
  if (e.type === "StripeIdempotencyError" || e.rawType === "idempotency_error") return false;
  return typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500 && e.statusCode !== 409 && e.statusCode !== 429 && e.statusCode !== 401;
}

/**
 * A Checkout session's `expires_at`: from the order's own hold, so a repeated start (a retried
 * checkout, the sweep) sends the same parameters and Stripe replays the first answer instead of
 * an `idempotency_error`. Stripe takes 30 minutes to 24 hours from the session's creation; the
 * store's hold (payments/service.ts) is the rule, and the sweep asks Stripe before it cancels.
 */
export function sessionExpiry(placedAt: Date, holdUntil: Date): number {
  const placed = placedAt.getTime();
  const earliest = placed + 32 * 60_000;
  const latest = placed + 23 * 3_600_000;
  return Math.floor(Math.min(Math.max(holdUntil.getTime(), earliest), latest) / 1000);
}

const refundStatus = (status: string | null | undefined): ProviderRefund["status"] =>
  status === "succeeded" ? "succeeded" : status === "failed" || status === "canceled" ? "failed" : "pending";

const providerRefund = (r: StripeClient.Refund): ProviderRefund => ({
  id: r.id,
  amountCents: r.amount,
  status: refundStatus(r.status),
  failureReason: r.failure_reason ?? null,
  refundId: r.metadata?.refundId ?? null,
  paymentIntent: typeof r.payment_intent === "string" ? r.payment_intent : (r.payment_intent?.id ?? null),
});

export async function stripeProvider(settings: StripeSettings): Promise<PaymentProvider> {
  const { default: Stripe } = await import("stripe");
  const target = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
  const stripe: StripeClient = new Stripe(settings.secretKey, {
    ...(target ? { host: target.hostname, port: target.port || (target.protocol === "https:" ? 443 : 80), protocol: target.protocol === "https:" ? "https" : "http" } : {}),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  return {
    method: "card",
    online: true,
    async start(order: PaymentOrder, urls, expiresAt): Promise<StartedPayment> {
      let session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: order.totalCents, product_data: { name: `Toolyard order #${order.number}` } } }],
            success_url: urls.success,
            cancel_url: urls.cancel,
            client_reference_id: order.id,
            metadata: { orderId: order.id },
            payment_intent_data: { metadata: { orderId: order.id } },
            expires_at: Math.floor(expiresAt.getTime() / 1000),
          },
          { idempotencyKey: `checkout-${order.id}` },
        );
      } catch (error) {
        throw new PaymentStartError(messageOf(error), definiteRefusal(error));
      }
      if (!session.url) throw new PaymentStartError(`Stripe gave session ${session.id} no URL (${session.status ?? "?"})`, false);
      return { sessionId: session.id, url: session.url, amountCents: session.amount_total ?? order.totalCents, currency: session.currency ?? "usd" };
    },
    async startInvoicePayment(payment, urls, expiresAt): Promise<StartedPayment> {
      let session;
      try {
        session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: payment.amountCents, product_data: { name: payment.label } } }],
            success_url: urls.success,
            cancel_url: urls.cancel,
            metadata: { invoicePaymentId: payment.id },
            payment_intent_data: { metadata: { invoicePaymentId: payment.id } },
            expires_at: Math.floor(expiresAt.getTime() / 1000),
          },
          { idempotencyKey: `invoices-${payment.id}` },
        );
      } catch (error) {
        throw new PaymentStartError(messageOf(error), definiteRefusal(error));
      }
      if (!session.url) throw new PaymentStartError(`Stripe gave session ${session.id} no URL (${session.status ?? "?"})`, false);
      return { sessionId: session.id, url: session.url, amountCents: session.amount_total ?? payment.amountCents, currency: session.currency ?? "usd" };
    },
    async refund({ refundId, key, orderId, paymentIntent, amountCents }): Promise<RefundAttempt> {
      try {
        // No retries of the SDK's own: the refund worker retries with the same key, and records each try.
        const refund = await stripe.refunds.create(
          { payment_intent: paymentIntent, amount: amountCents, metadata: { orderId, refundId } },
          { idempotencyKey: key, maxNetworkRetries: 0, timeout: 10_000 },
        );
        return { kind: "sent", refund: providerRefund(refund) };
      } catch (error) {
        return definiteRefusal(error) ? { kind: "refused", message: messageOf(error) } : { kind: "unknown", message: messageOf(error) };
      }
    },
    async listRefunds(paymentIntent) {
      const list = await stripe.refunds.list({ payment_intent: paymentIntent, limit: 100 });
      return list.data.map(providerRefund);
    },
    async session(sessionId) {
      const s = await stripe.checkout.sessions.retrieve(sessionId);
      return {
        status: s.status === "complete" ? "complete" : s.status === "expired" ? "expired" : "open",
        paid: s.payment_status === "paid" || s.payment_status === "no_payment_required",
        paymentIntent: typeof s.payment_intent === "string" ? s.payment_intent : (s.payment_intent?.id ?? null),
        amountCents: s.amount_total,
        currency: s.currency,
      };
    },
    async expire(sessionId) {
      await stripe.checkout.sessions.expire(sessionId).catch(() => undefined);
    },
    readWebhook(rawBody, signature): PaymentEvent {
      const event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      const base = { id: event.id, type: event.type };
      const none = { orderId: null, sessionId: null, paymentIntent: null, amountCents: null, currency: null };
      if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded" || event.type === "checkout.session.expired") {
        const session = event.data.object;
        // Completed means paid for cards; only a delayed method (a bank debit) completes `unpaid`
        // and pays later (checkout.session.async_payment_succeeded).
        const paid = event.type !== "checkout.session.expired" && session.payment_status !== "unpaid";
        return {
          ...base,
          kind: event.type === "checkout.session.expired" ? "expired" : paid ? "paid" : "other",
          orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
          invoicePaymentId: session.metadata?.invoicePaymentId ?? null,
          sessionId: session.id,
          paymentIntent: typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null),
          amountCents: session.amount_total,
          currency: session.currency,
        };
      }
      if (event.type === "refund.updated" || event.type === "refund.failed" || event.type === "refund.created") {
        const refund = providerRefund(event.data.object);
        return { ...base, ...none, kind: "refund", orderId: event.data.object.metadata?.orderId ?? null, paymentIntent: refund.paymentIntent, refunds: [refund] };
      }
      if (event.type === "charge.refunded") {
        const charge = event.data.object;
        return {
          ...base,
          ...none,
          kind: "refund",
          paymentIntent: typeof charge.payment_intent === "string" ? charge.payment_intent : (charge.payment_intent?.id ?? null),
          refunds: (charge.refunds?.data ?? []).map(providerRefund),
        };
      }
      return { ...base, ...none, kind: "other" };
    },
  };
}
