/**
 * The order desk of the spec's purchase page (POST /api/order): orders for the same tool that
 * arrive while that tool's transaction is running wait for the next one, and each transaction
 * serves its whole batch through the one placement (placement.ts), as the cart's checkout does.
 *
 * Why: every order must hold the tool's row lock until its commit is flushed, so a hot
 * tool served one order per transaction manages only ~1/commit-latency orders a second.
 * A batch takes the lock and pays the flush once. Correctness does not depend on the
 * batching: each transaction locks the row (placement_lock), so batches from several
 * instances serialize too, and the CHECK (stock >= 0) stays as the backstop.
 *
 * What is this path's own: the request (one line, delivered to the profile's address, priced
 * for pickup at the store, cash on delivery) and its answers (the spec's: 404 for a tool not
 * sold, 400 BELOW_MINIMUM, 409 NOT_ENOUGH_STOCK with what is left).
 */
import { inArray } from "drizzle-orm";
import { PICKUP } from "../../contract/money-schemas";
import type { OrderInput, Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { isForeignKeyViolation } from "../db/batches";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { profiles, user } from "../db/schema";
import { ApiError, conflict, notFound, unauthorized } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { lockForPlacement, placeOrders, type PlacementRequest, type Refusal } from "./placement";

interface Pending {
  userId: string;
  quantity: number;
  promoCode: string | null;
  poNumber: string | null;
  paymentMethod: "cash_on_delivery" | "bank_transfer" | "terms";
  resolve: (order: Order) => void;
  reject: (error: unknown) => void;
}

/** Enough to amortise the flush, small enough to keep one transaction short. */
const MAX_BATCH = 200;

export class OrderDesk {
  private readonly queues = new Map<string, Pending[]>();

  constructor(
    private readonly db: Db,
    private readonly mail?: OrderMail,
    /** How long a card order's stock is held for its payment (PAYMENT_HOLD_MINUTES); the purchase page takes cash on delivery. */
    private readonly holdMs = 30 * 60_000,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  place(userId: string, input: OrderInput): Promise<Order> {
    return new Promise<Order>((resolve, reject) => {
      const queue = this.queues.get(input.toolId);
      const pending = {
        userId,
        quantity: input.quantity,
        promoCode: input.promoCode ?? null,
        poNumber: input.poNumber || null,
        paymentMethod: input.paymentMethod ?? "cash_on_delivery",
        resolve,
        reject,
      };
      if (queue) {
        queue.push(pending);
        return;
      }
      this.queues.set(input.toolId, [pending]);
      void this.drain(input.toolId);
    });
  }

  /** Serves a tool's queue, batch after batch, until no order waits. */
  private async drain(toolId: string): Promise<void> {
    for (;;) {
      const queue = this.queues.get(toolId);
      if (!queue || queue.length === 0) {
        this.queues.delete(toolId);
        return;
      }
      const batch = queue.splice(0, MAX_BATCH);
      try {
        await this.serve(toolId, batch);
      } catch (error) {
        if (!isForeignKeyViolation(error)) {
          for (const p of batch) p.reject(error);
          continue;
        }
        // An account was deleted while its order waited (decision 0012): that order fails
        // alone, the others in its batch are served again without it.
        const live = await this.withoutDeletedAccounts(batch).catch((e: unknown) => {
          for (const p of batch) p.reject(e);
          return [];
        });
        if (live.length === 0) continue;
        try {
          await this.serve(toolId, live);
        } catch (again) {
          for (const p of live) p.reject(again);
        }
      }
    }
  }

  /** The orders of accounts that still exist; the others are answered 401 (the session outlived its account). */
  private async withoutDeletedAccounts(batch: Pending[]): Promise<Pending[]> {
    const ids = [...new Set(batch.map((p) => p.userId))];
    const existing = new Set((await this.db.select({ id: user.id }).from(user).where(inArray(user.id, ids))).map((u) => u.id));
    return batch.filter((p) => {
      if (!existing.has(p.userId)) p.reject(unauthorized());
      return existing.has(p.userId);
    });
  }

  private async serve(toolId: string, batch: Pending[]): Promise<void> {
    // Delivery details are read before the tool's row is locked: the lock is held only for
    // what must be atomic (the stock, the orders, their lines and first events).
    const userIds = [...new Set(batch.map((p) => p.userId))];
    const delivery = new Map((await this.db.select().from(profiles).where(inArray(profiles.userId, userIds))).map((p) => [p.userId, p]));
    const requests = batch.map((p): PlacementRequest => {
      const profile = delivery.get(p.userId);
      return {
        userId: p.userId,
        lines: [{ toolId, quantity: p.quantity }],
        delivery: {
          address: profile?.address ?? "",
          city: profile?.city ?? "",
          region: profile?.region ?? "",
          postalCode: profile?.postalCode ?? "",
          country: profile?.country ?? "",
          phone: profile?.phone ?? "",
        },
        paymentMethod: p.paymentMethod,
        poNumber: p.poNumber,
        // The spec's purchase page orders for pickup (DESIGN "Money"): taxed at the store's address.
        shippingMethod: PICKUP,
        promoCode: p.promoCode,
        note: "",
      };
    });
    const outcomes = await this.db.transaction(async (tx) => placeOrders(tx, requests, await lockForPlacement(tx, requests), { mail: this.mail, holdMs: this.holdMs, now: this.clock() }));

    if (outcomes.some((o) => "placed" in o)) announceChange(this.db, "tools");
    batch.forEach((p, i) => {
      const outcome = outcomes[i];
      if (!outcome) p.reject(new Error("placement answered fewer outcomes than requests"));
      else if ("placed" in outcome) p.resolve(outcome.placed);
      else p.reject(purchaseRefusal(outcome.refused, p.quantity));
    });
  }
}

/**
 * The purchase page's answer to a refused order (the spec's): a tool not sold is not found; a
 * quantity below the minimum is bad input, even where the stock is short too; otherwise there is
 * not enough stock, and the answer says how much is left.
 */
export function purchaseRefusal(refusal: Refusal, quantity: number): ApiError {
  if (refusal.kind === "other") return refusal.error;
  const [line] = refusal.problems;
  if (!line || line.problem === "UNAVAILABLE") return notFound(API_TEXT.toolNotFound);
  if (quantity < line.minimumQuantity) {
    const message = API_TEXT.belowMinimum(line.minimumQuantity);
    return new ApiError(400, "BELOW_MINIMUM", message, { details: [{ path: "body.quantity", message }] });
  }
  return conflict("NOT_ENOUGH_STOCK", API_TEXT.notEnoughStock(line.availableQuantity), { available: line.availableQuantity });
}
