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

/**
 * Why a payment could not be started. `definite`: the provider refused it (nothing exists there,
 * the order may be cancelled); otherwise the outcome is unknown (a timeout, a 5xx, a dropped
 * connection: a page may be live, so the order must not be cancelled on it).
 */
export class PaymentStartError extends Error {
  constructor(
    message: string,
    readonly definite: boolean,
  ) {
    super(message);
  }
}

/**
 * One refund call's outcome. `sent`: the provider holds the refund (`pending` until the bank
 * answers, or already `succeeded` / `failed`); `refused`: a definite no (the next attempt needs
 * a new key, after the provider's refunds were read); `unknown`: no answer we can trust (retry
 * with the same key, which the provider replays).
 */
export type RefundAttempt =
  | { kind: "sent"; refund: ProviderRefund }
  | { kind: "refused"; message: string }
  | { kind: "unknown"; message: string };

/** A refund as the provider keeps it. `refundId` is the store's refund it was made for (its metadata). */
export interface ProviderRefund {
  id: string;
  amountCents: number;
  status: "pending" | "succeeded" | "failed";
  failureReason: string | null;
  refundId: string | null;
  paymentIntent: string | null;
}

/** A payment page as the provider sees it now (the hold's sweep asks before it cancels). */
export interface SessionState {
  status: "open" | "complete" | "expired";
  paid: boolean;
  paymentIntent: string | null;
  amountCents: number | null;
  currency: string | null;
}

/** A provider's event, read and verified: what it says about which order. */
export interface PaymentEvent {
  id: string;
  /** The provider's own name for it (checkout.session.completed, ...). */
  type: string;
  kind: "paid" | "expired" | "refund" | "other";
  orderId: string | null;
  /** A member's card payment of a trade account's invoices (issue 43), instead of an order. */
  invoicePaymentId?: string | null;
  sessionId: string | null;
  paymentIntent: string | null;
  amountCents: number | null;
  currency: string | null;
  /** For `refund`: the refunds it reports, as they are now. */
  refunds?: ProviderRefund[];
}

export interface PaymentProvider {
  readonly method: PaymentMethod;
  /** Paid on the provider's page before the order is confirmed (the order waits, its stock held). */
  readonly online: boolean;
  /**
   * Starts (or, called again with the same order and expiry, finds) the payment of a new order;
   * null where nothing is started (paid outside the store). Throws PaymentStartError.
   */
  start(order: PaymentOrder, urls: { success: string; cancel: string }, expiresAt: Date): Promise<StartedPayment | null>;
  /**
   * Starts (or, called again with the same payment, finds) a member's payment of a trade
   * account's open invoices (issue 43); absent where the provider takes no such payment.
   */
  startInvoicePayment?(payment: { id: string; label: string; amountCents: number }, urls: { success: string; cancel: string }, expiresAt: Date): Promise<StartedPayment>;
  /** Gives money back with this idempotency key: the same key never refunds twice. */
  refund(request: { refundId: string; key: string; orderId: string; paymentIntent: string; amountCents: number }): Promise<RefundAttempt>;
  /** The refunds the provider holds for a payment (read before a new key is used). */
  listRefunds(paymentIntent: string): Promise<ProviderRefund[]>;
  /** A payment page's state now; undefined where the provider has none. */
  session?(sessionId: string): Promise<SessionState>;
  /** Closes a payment page that is no longer wanted (best effort: a late payment is refunded anyway). */
  expire(sessionId: string): Promise<void>;
  /**
   * Reads a webhook's event from its raw body after verifying its signature (throws when it does
   * not verify); absent for a provider that sends none.
   */
  readWebhook?(rawBody: Buffer, signature: string): PaymentEvent;
}

/** Cash on delivery, bank transfer and terms: nothing to start; money goes back by the owner's hand, recorded as paid back. */
export function offlineProvider(method: "cash_on_delivery" | "bank_transfer" | "terms"): PaymentProvider {
  return {
    method,
    online: false,
    start: () => Promise.resolve(null),
    refund: ({ refundId, amountCents }) =>
      Promise.resolve({ kind: "sent", refund: { id: `manual-${refundId}`, amountCents, status: "succeeded", failureReason: null, refundId, paymentIntent: null } }),
    listRefunds: () => Promise.resolve([]),
    expire: () => Promise.resolve(),
  };
}
