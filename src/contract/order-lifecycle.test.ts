import { describe, expect, it } from "vitest";
import { canMove, nextStatuses, ORDER_STATUSES, type OrderActor, type OrderStatus } from "./order-lifecycle";

/** Every allowed move, written out once more by hand: the table must say exactly this. */
const ALLOWED: [OrderStatus, OrderStatus, OrderActor][] = [
  ["pending", "paid", "admin"],
  ["pending", "cancelled", "admin"],
  ["pending", "cancelled", "customer"],
  ["paid", "shipped", "admin"],
  ["paid", "cancelled", "admin"],
  ["shipped", "delivered", "admin"],
  // DESIGN "Payments": only the provider's webhook (the store) makes a card order paid.
  ["awaiting_payment", "paid", "store"],
  ["awaiting_payment", "cancelled", "store"],
  ["awaiting_payment", "cancelled", "admin"],
  // DESIGN "Trade accounts": an approver or the account's admin decides (never the buyer); the owner may cancel.
  ["awaiting_approval", "pending", "approver"],
  ["awaiting_approval", "awaiting_payment", "approver"],
  ["awaiting_approval", "cancelled", "approver"],
  ["awaiting_approval", "cancelled", "admin"],
  // Issue 40: the owner's cancel of a paid card order waits for its refund; the refund's outcome moves it on.
  ["paid", "refunding", "admin"],
  ["refunding", "cancelled", "store"],
  ["refunding", "paid", "store"],
  // Issue 52: cash on delivery and terms ship while pending; a cancelled shipment gives a shipped order its step before back.
  ["pending", "shipped", "admin"],
  ["shipped", "paid", "store"],
  ["shipped", "pending", "store"],
];

describe("the order lifecycle", () => {
  it("allows exactly the moves of DESIGN 'Orders' and 'Payments', and nothing else", () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        for (const actor of ["customer", "admin", "store", "approver"] as const) {
          const expected = ALLOWED.some(([f, t, a]) => f === from && t === to && a === actor);
          expect(canMove(from, to, actor), `${actor}: ${from} → ${to}`).toBe(expected);
        }
      }
    }
  });

  it("lists the next steps each side may take", () => {
    expect(nextStatuses("pending", "admin")).toEqual(["paid", "cancelled", "shipped"]);
    expect(nextStatuses("pending", "customer")).toEqual(["cancelled"]);
    expect(nextStatuses("paid", "customer")).toEqual([]);
    expect(nextStatuses("delivered", "admin")).toEqual([]);
    expect(nextStatuses("cancelled", "admin")).toEqual([]);
    // `refunding` is what a cancel of a paid card order becomes, never a move to ask for; nothing ships a refunding order.
    expect(nextStatuses("paid", "admin")).toEqual(["shipped", "cancelled"]);
    expect(nextStatuses("refunding", "admin")).toEqual([]);
  });
});
