/**
 * The order desk: orders for the same tool that arrive while that tool's transaction is
 * running wait for the next one, and each transaction serves its whole batch.
 *
 * Why: every order must hold the tool's row lock until its commit is flushed, so a hot
 * tool served one order per transaction manages only ~1/commit-latency orders a second.
 * A batch takes the lock and pays the flush once. Correctness does not depend on the
 * batching: each transaction locks the row (SELECT … FOR UPDATE), so batches from several
 * instances serialize too, and the CHECK (stock >= 0) stays as the backstop.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { OrderInput, Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { isForeignKeyViolation } from "../db/batches";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { profiles, tools, user } from "../db/schema";
import { ApiError, conflict, notFound, unauthorized } from "../http/errors";
import { allocate, type Decision } from "./allocate";
import type { OrderMail } from "../mail/outbox";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import { loadPricingContext } from "../pricing/context";
import { PICKUP } from "../../contract/money-schemas";
import { price } from "../pricing/price";
import { insertOrders, pricedFields, pricedLines } from "./service";

interface Pending {
  userId: string;
  quantity: number;
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
  ) {}

  place(userId: string, input: OrderInput): Promise<Order> {
    return new Promise<Order>((resolve, reject) => {
      const queue = this.queues.get(input.toolId);
      const pending = { userId, quantity: input.quantity, resolve, reject };
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
    const outcome = await this.db.transaction(async (tx) => {
      const [tool] = await tx
        .select({
          name: tools.name,
          priceCents: tools.priceCents,
          available: tools.availableQuantity,
          minimum: tools.minimumQuantity,
          category: tools.category,
          weightGrams: tools.weightGrams,
        })
        .from(tools)
        .where(and(eq(tools.id, toolId), eq(tools.active, true)))
        // The lock an UPDATE of the stock takes anyway; it lets carts (foreign keys) share the row.
        .for("no key update");
      if (!tool) return null;

      const { decisions, remaining } = allocate(tool.available, tool.minimum, batch.map((p) => p.quantity));
      const accepted = batch.filter((_, i) => decisions[i]?.kind === "accept");
      if (accepted.length === 0) return { decisions, rows: [] };

      // The spec's purchase page orders for pickup (DESIGN "Money"), priced like every order
      // (pricing/price.ts): taxed at the store's address, unless the customer is tax-exempt.
      const ctx = await loadPricingContext(tx, { countries: [], toolIds: [], userIds: [] });
      const now = new Date();
      await tx.update(tools).set({ availableQuantity: remaining }).where(eq(tools.id, toolId));
      const invoiceNumbers = await takeDocumentNumbers(tx, "INV", documentYear(now), accepted.length);
      const placed = await insertOrders(
        tx,
        accepted.map((p, k) => {
          const profile = delivery.get(p.userId);
          const exempt = profile?.taxExemptCertificate ? profile.taxExemptCertificate : null;
          const line = { toolId, toolName: tool.name, quantity: p.quantity, unitPriceCents: tool.priceCents };
          const priced = price({
            lines: [{ ...line, category: tool.category, weightGrams: tool.weightGrams }],
            destination: ctx.store,
            store: ctx.store,
            shippingMethod: PICKUP,
            methods: [],
            rates: ctx.rates,
            promoCode: null,
            promotion: undefined,
            taxExempt: exempt !== null,
            now,
          });
          return {
            userId: p.userId,
            address: profile?.address ?? "",
            city: profile?.city ?? "",
            region: profile?.region ?? "",
            postalCode: profile?.postalCode ?? "",
            country: profile?.country ?? "",
            phone: profile?.phone ?? "",
            paymentMethod: "cash_on_delivery" as const,
            note: "",
            ...pricedFields(priced),
            promotionId: null,
            promoCode: null,
            taxExemptCertificate: exempt,
            invoiceNumber: invoiceNumbers[k] as string,
            lines: pricedLines([line], priced),
          };
        }),
      );
      await this.mail?.ordersPlaced(
        tx,
        placed.map((order, k) => ({ userId: (accepted[k] as Pending).userId, order })),
      );
      return { decisions, rows: placed };
    });

    if (!outcome) {
      for (const p of batch) p.reject(notFound(API_TEXT.toolNotFound));
      return;
    }
    if (outcome.rows.length > 0) announceChange(this.db, "tools");
    let next = 0;
    batch.forEach((p, i) => {
      const decision = outcome.decisions[i] as Decision;
      if (decision.kind === "accept") {
        const row = outcome.rows[next++];
        if (row) p.resolve(row);
        else p.reject(new Error("order row missing"));
      } else if (decision.kind === "below-minimum") {
        const message = API_TEXT.belowMinimum(decision.minimum);
        p.reject(new ApiError(400, "BELOW_MINIMUM", message, { details: [{ path: "body.quantity", message }] }));
      } else {
        p.reject(conflict("NOT_ENOUGH_STOCK", API_TEXT.notEnoughStock(decision.available), { available: decision.available }));
      }
    });
  }
}
