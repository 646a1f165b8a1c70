/**
 * How an order is paid, behind one interface (DESIGN "Payments", issue 32). Cash on delivery
 * and bank transfer are paid outside the store (the owner marks them paid); a card is paid on
 * the provider's hosted page and confirmed only by the provider's webhook.
 */
import type { PaymentMethod } from "../../contract/constants";

export interface PaymentOrder {
  id: string;
  number: number;
  totalCents: number;
}

/** A payment started at the provider: where the customer pays, and what the provider will charge. */
export interface StartedPayment {
  sessionId: string;
  url: string;
  amountCents: number;
  currency: string;
}

export type RefundOutcome = { ok: true; refundId: string | null; status: string } | { ok: false; message: string };

/** A provider's event, read and verified: what it says about which order. */
export interface PaymentEvent {
  id: string;
  /** The provider's own name for it (checkout.session.completed, ...). */
  type: string;
  kind: "paid" | "expired" | "other";
  orderId: string | null;
  sessionId: string | null;
  paymentIntent: string | null;
  amountCents: number | null;
  currency: string | null;
}

export interface PaymentProvider {
  readonly method: PaymentMethod;
  /** Paid on the provider's page before the order is confirmed (the order waits, its stock held). */
  readonly online: boolean;
  /** Starts the payment of a new order; null where nothing is started (paid outside the store). */
  start(order: PaymentOrder, urls: { success: string; cancel: string }, expiresAt: Date): Promise<StartedPayment | null>;
  /**
   * Gives the money back. `attempt` makes the idempotency key with the order's id: two requests
   * of one attempt (a double click, two instances) refund once; after a refusal the next attempt
   * has a new key (the provider replays a refused key's answer).
   */
  refund(payment: { orderId: string; paymentIntent: string | null; amountCents: number; attempt: number }): Promise<RefundOutcome>;
  /** Closes a payment page that is no longer wanted (best effort: a late payment is refunded anyway). */
  expire(sessionId: string): Promise<void>;
  /**
   * Reads a webhook's event from its raw body after verifying its signature (throws when it does
   * not verify); absent for a provider that sends none.
   */
  readWebhook?(rawBody: Buffer, signature: string): PaymentEvent;
}

/** Cash on delivery and bank transfer: nothing to start; a refund is the owner's, by hand. */
export function offlineProvider(method: "cash_on_delivery" | "bank_transfer" | "terms"): PaymentProvider {
  return {
    method,
    online: false,
    start: () => Promise.resolve(null),
    refund: () => Promise.resolve({ ok: true, refundId: null, status: "manual" }),
    expire: () => Promise.resolve(),
  };
}
