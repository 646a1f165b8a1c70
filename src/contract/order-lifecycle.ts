/**
 * The order lifecycle, in one table (DESIGN "Orders"): pending → paid → shipped → delivered;
 * pending or paid → cancelled. The customer may cancel while pending; the admin makes every
 * other move. The server refuses any move this table does not list (409), and the console
 * offers only the moves it lists.
 */
export const ORDER_STATUSES = ["pending", "paid", "shipped", "delivered", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export type OrderActor = "customer" | "admin";

/** For each status, the statuses it may move to, and who may make the move. */
export const ORDER_MOVES: Record<OrderStatus, Partial<Record<OrderStatus, readonly OrderActor[]>>> = {
  pending: { paid: ["admin"], cancelled: ["customer", "admin"] },
  paid: { shipped: ["admin"], cancelled: ["admin"] },
  shipped: { delivered: ["admin"] },
  delivered: {},
  cancelled: {},
};

export function canMove(from: OrderStatus, to: OrderStatus, actor: OrderActor): boolean {
  return ORDER_MOVES[from][to]?.includes(actor) ?? false;
}

/** The moves `actor` may make from `from`, in the table's order. */
export function nextStatuses(from: OrderStatus, actor: OrderActor): OrderStatus[] {
  return (Object.entries(ORDER_MOVES[from]) as [OrderStatus, readonly OrderActor[]][])
    .filter(([, actors]) => actors.includes(actor))
    .map(([to]) => to);
}

/** A cancel gives the stock back; every other move leaves it where it is. */
export const returnsStock = (to: OrderStatus) => to === "cancelled";
