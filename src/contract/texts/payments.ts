/** Card payments' texts (issue 32, DESIGN "Payments"). */
export const PAYMENT_TEXT = {
  cardUnavailable: "Card payments are not available in this store",
  providerUnavailable: "The card payment could not be started. Nothing was charged and your cart is as it was: try again, or choose another way to pay.",
  refundRefused: (reason: string) => `The card payment could not be refunded, so the order stays paid: ${reason}`,
  refunded: (amount: string, refundId: string | null) => `Refunded ${amount} to the card${refundId ? ` (${refundId})` : ""}.`,
  lateRefunded: (amount: string) => `A payment of ${amount} arrived after the order was cancelled and was refunded.`,
  lateRefundFailed: (reason: string) => `A payment arrived after the order was cancelled and its refund failed: ${reason}`,
  refundFailedUnknown: "The payment provider refused the refund",
  noPaymentToRefund: "The payment has no captured charge to refund",
  duplicateRefunded: (amount: string) => `A second payment of ${amount} arrived for this order, already paid, and was refunded.`,
  duplicateRefundFailed: (reason: string) => `A second payment arrived for this order, already paid, and its refund failed: ${reason}`,
  /** The history beside the owner's cancel of a paid card order: the order waits for the refund. */
  refundRequested: (amount: string) => `Refund of ${amount} to the card requested; the order is cancelled once the payment provider confirms it.`,
  mismatchRefundRequested: (amount: string) => `The ${amount} paid (not the order's amount) is being refunded to the card.`,
  /** A retried checkout whose payment page could not be opened, nor said not to exist. */
  providerUnsure: "The card payment page could not be opened just now. Your order is kept for you: try again in a moment.",
  holdExpired: "The card payment did not arrive in time: the order was cancelled and its tools put back.",
  sessionExpired: "The card payment page expired: the order was cancelled and its tools put back.",
  badSignature: "The webhook's signature does not match",
  status: {
    open: "Waiting for the card payment",
    paid: "Paid by card",
    expired: "Payment not completed",
    refunded: "Refunded",
    refund_failed: "Refund failed",
  },
  /** An order's refunds, on its page and in the console (decision 0016). */
  refunds: {
    title: "Refunds",
    columns: { date: "Date", amount: "Amount", why: "Why", status: "Status" },
    kinds: { cancel: "Order cancelled", late_payment: "Payment after the cancel", duplicate_payment: "Second payment", mismatch: "Payment of another amount", refund: "Refund of lines" },
    statuses: { pending: "Pending", succeeded: "Refunded", failed: "Failed" },
    refundedTotal: (amount: string) => `Refunded so far: ${amount}`,
    filter: "Show",
    all: "All refunds",
    empty: "No refund matches.",
    order: "Order",
    tries: "Tries",
    note: "Last error or next try",
    /** While the provider has not confirmed a refund: the page asks again by itself. */
    waiting: "Waiting for the payment provider to confirm the refund. This page updates by itself.",
  },
  payNow: "Pay now",
  /** The order page, while a card order awaits its payment: when the hold runs out. */
  payBy: (when: string) => `Pay by ${when}; after that the order is cancelled and its tools put back.`,
  /** The checkout, between the order's 201 and the provider's page. */
  redirecting: "Taking you to the secure card payment page…",
  /** The console's label for the card payment's state. */
  state: "Card payment",
  refundError: (reason: string) => `The refund was refused: ${reason}`,
  waiting: "We are waiting for the card payment to be confirmed. This page updates by itself.",
  problems: {
    AMOUNT_MISMATCH: "The amount paid does not match the order: check it at the payment provider before shipping.",
    LATE_PAYMENT_REFUNDED: "A payment arrived after the order was cancelled; it was refunded.",
    LATE_PAYMENT_REFUND_FAILED: "A payment arrived after the order was cancelled and could not be refunded: refund it at the payment provider.",
    REFUND_FAILED: "The refund was refused by the payment provider.",
    DUPLICATE_PAYMENT_REFUNDED: "A second payment arrived for this order, already paid; it was refunded.",
    DUPLICATE_PAYMENT_REFUND_FAILED: "A second payment arrived for this order and could not be refunded: refund it at the payment provider.",
  } as Record<string, string>,
} as const;
