/** The ways this store takes payment: card only where the server has Stripe set up (DESIGN "Payments"). */
import { queryOptions } from "@tanstack/react-query";
import { PAYMENT_METHODS, type PaymentMethod } from "../../../contract/constants";
import { api } from "../../lib/api";

export interface PaymentMethods {
  methods: PaymentMethod[];
  holdMinutes: number;
}

/** Paying on delivery and by transfer need nothing from a provider: offered whatever the answer. */
const OFFLINE: readonly PaymentMethod[] = ["cash_on_delivery", "bank_transfer"];

export const paymentMethodsQuery = () =>
  queryOptions({
    queryKey: ["payment-methods"] as const,
    queryFn: ({ signal }) => api.get<PaymentMethods>("/api/payments/methods", signal),
    // The store's configuration: it changes with a restart, not while a customer checks out.
    staleTime: 5 * 60_000,
  });

/**
 * The options the checkout shows, in the usual order. Until the server has answered (or when it
 * could not), the offline methods alone: a card offered and then refused would cost the customer
 * a round trip, and the checkout works without it.
 */
export function offeredMethods(answer: PaymentMethods | undefined, onTerms = false): PaymentMethod[] {
  // Terms are a trade account member's, where the account has them (GET /api/account), never the store's list.
  const listed = new Set<PaymentMethod>([...OFFLINE, ...(answer?.methods ?? []), ...(onTerms ? (["terms"] as const) : [])]);
  return PAYMENT_METHODS.filter((m) => listed.has(m));
}

/** The provider's hosted page: a full navigation (another site; coming back loads the order afresh). */
export function openPaymentPage(url: string): void {
  window.location.assign(url);
}
