/**
 * The order lifecycle, in one table (DESIGN "Orders", "Payments"): pending → paid → shipped →
 * delivered; pending or paid → cancelled; a card order starts awaiting_payment → paid (the
 * payment provider's webhook) or cancelled (the webhook, the payment hold running out, or the
 * admin). The customer may cancel while pending; the admin makes the other moves; "store" is the
 * store itself (the webhook, the hold). The server refuses any move this table does not list
 * (409), and the console offers only the moves it lists. The owner's cancel of a paid card order
 * passes through `refunding` until the provider confirms the refund (issue 40).
 */
export const ORDER_STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled", "awaiting_payment", "awaiting_approval", "refunding"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderActor = "customer" | "admin" | "store" | "approver";

/** For each status, the statuses it may move to, and who may make the move. */
export const ORDER_MOVES: Record<OrderStatus, Partial<Record<OrderStatus, readonly OrderActor[]>>> = {
  // Only the provider's word makes a card order paid: not the admin, not the return URL.
  awaiting_payment: { paid: ["store"], cancelled: ["admin", "store"] },
  // A trade order over its buyer's limits (issue 43): an approver or the account's admin (never
  // the buyer) approves it (→ pending, or awaiting_payment for card) or rejects it; the owner may cancel it.
  awaiting_approval: { pending: ["approver"], awaiting_payment: ["approver"], cancelled: ["approver", "admin"] },
  // A cash-on-delivery or terms order ships while pending, since it is paid after delivery
  // (issue 52; orders/shipments.ts refuses it for any other method).
  pending: { paid: ["admin"], cancelled: ["customer", "admin"], shipped: ["admin"] },
  // A paid card order cancelled by the owner waits in `refunding` for the provider (nothing ships it meanwhile).
  paid: { shipped: ["admin"], cancelled: ["admin"], refunding: ["admin"] },
  // The refund's confirmation completes the cancel; a refusal gives the order back, paid.
  refunding: { cancelled: ["store"], paid: ["store"] },
  // A cancelled shipment leaves units to ship again: the store gives the order its step before back.
  shipped: { delivered: ["admin"], paid: ["store"], pending: ["store"] },
  delivered: {},
  cancelled: {},
};

export function canMove(from: OrderStatus, to: OrderStatus, actor: OrderActor): boolean {
  return ORDER_MOVES[from][to]?.includes(actor) ?? false;
}

/** Reached only by asking for another status: a paid card order asked to be `cancelled` goes to `refunding`. */
export const NOT_ASKED_FOR: readonly OrderStatus[] = ["refunding"];

/** The moves `actor` may ask for from `from`, in the table's order. */
export function nextStatuses(from: OrderStatus, actor: OrderActor): OrderStatus[] {
  return (Object.entries(ORDER_MOVES[from]) as [OrderStatus, readonly OrderActor[]][])
    .filter(([to, actors]) => actors.includes(actor) && !NOT_ASKED_FOR.includes(to))
    .map(([to]) => to);
}

/** A cancel gives the stock back; every other move leaves it where it is. */
export const returnsStock = (to: OrderStatus) => to === "cancelled";
