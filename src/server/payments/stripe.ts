/**
 * Card payments through Stripe Checkout, with the official SDK: the card is typed on Stripe's
 * page, never on ours. Calls carry idempotency keys made from the order, so a retried start
 * gives the same session and a retried refund refunds once. STRIPE_API_URL points the SDK at
 * another host (the tests' stand-in, tests/support/stripe.ts).
 */
import type { Stripe as StripeClient } from "stripe";
import type { StripeSettings } from "../config";
import type { PaymentEvent, PaymentOrder, PaymentProvider, RefundOutcome, StartedPayment } from "./provider";

/** Stripe answers errors with a type and a message; the SDK throws them as StripeError. */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

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
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: order.totalCents, product_data: { name: `Toolyard order #${order.number}` } } }],
          success_url: urls.success,
          cancel_url: urls.cancel,
          client_reference_id: order.id,
          metadata: { orderId: order.id },
          payment_intent_data: { metadata: { orderId: order.id } },
          // Stripe takes 30 minutes to 24 hours; the store's own hold (payments/hold.ts) is the rule.
          expires_at: Math.floor(Math.min(Math.max(expiresAt.getTime(), Date.now() + 30 * 60_000 + 5_000), Date.now() + 24 * 3_600_000 - 5_000) / 1000),
        },
        { idempotencyKey: `checkout-${order.id}` },
      );
      if (!session.url) throw new Error(`Stripe gave session ${session.id} no URL`);
      return { sessionId: session.id, url: session.url, amountCents: session.amount_total ?? order.totalCents, currency: session.currency ?? "usd" };
    },
    async refund({ orderId, paymentIntent, amountCents, attempt }): Promise<RefundOutcome> {
      if (!paymentIntent) return { ok: false, message: "The payment has no payment intent to refund" };
      try {
        const refund = await stripe.refunds.create({ payment_intent: paymentIntent, amount: amountCents, metadata: { orderId } }, { idempotencyKey: `refund-${orderId}-${attempt}` });
        if (refund.status === "failed" || refund.status === "canceled") return { ok: false, message: refund.failure_reason ?? `The refund ${refund.status}` };
        return { ok: true, refundId: refund.id, status: refund.status ?? "pending" };
      } catch (error) {
        return { ok: false, message: messageOf(error) };
      }
    },
    async expire(sessionId) {
      await stripe.checkout.sessions.expire(sessionId).catch(() => undefined);
    },
    readWebhook(rawBody, signature): PaymentEvent {
      const event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      const base = { id: event.id, type: event.type };
      if (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded" || event.type === "checkout.session.expired") {
        const session = event.data.object;
        // Completed means paid for cards; only a delayed method (a bank debit) completes `unpaid`
        // and pays later (checkout.session.async_payment_succeeded).
        const paid = event.type !== "checkout.session.expired" && session.payment_status !== "unpaid";
        return {
          ...base,
          kind: event.type === "checkout.session.expired" ? "expired" : paid ? "paid" : "other",
          orderId: session.metadata?.orderId ?? session.client_reference_id ?? null,
          sessionId: session.id,
          paymentIntent: typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null),
          amountCents: session.amount_total,
          currency: session.currency,
        };
      }
      return { ...base, kind: "other", orderId: null, sessionId: null, paymentIntent: null, amountCents: null, currency: null };
    },
  };
}
