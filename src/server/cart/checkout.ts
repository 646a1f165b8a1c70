/**
 * Checkout: the signed-in customer's cart becomes one order of many lines, in one transaction
 * that takes every line's stock or none.
 *
 * - Tools are locked in id order, so two carts holding the same tools in a different order
 *   wait for each other instead of deadlocking.
 * - Every line is checked against the tool (still in the catalogue, minimum, stock); a refused
 *   checkout names each line and why (409 CART_PROBLEMS) and takes nothing.
 * - The cart must be the one the customer confirmed (`cartVersion`): a change made in another
 *   tab meanwhile is refused (409 CART_CHANGED), never silently ordered.
 * - Lines are ordered at today's prices; `priceChanged` says when the page showed others.
 * - An `Idempotency-Key` makes a retry (a double click, a lost answer) return the first order;
 *   the same key with another body is refused (409). The key row is written first in the
 *   transaction, so a concurrent retry waits on it and then finds the order.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { dollarsToCents } from "../../contract/money";
import type { CheckoutInput, CheckoutProblem, CheckoutResult, Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { lineProblem } from "../../contract/cart";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { cartLines, idempotencyKeys, orders, profiles, tools } from "../db/schema";
import { ApiError, conflict } from "../http/errors";
import { recordPlacedOrders, withDetails } from "../orders/service";
import { cartVersion, clearCart } from "./service";

type ParsedCheckout = Required<Pick<CheckoutInput, "address" | "phone" | "paymentMethod" | "cartVersion">> & {
  note: string;
  saveToProfile: boolean;
  expectedTotal?: number | undefined;
};

const hashOf = (input: ParsedCheckout) => createHash("sha256").update(JSON.stringify(input)).digest("base64url");

/** The order an earlier request with this key made, or undefined if this key is new here. */
async function replay(tx: Tx, userId: string, key: string, requestHash: string): Promise<Order | undefined> {
  const inserted = await tx.insert(idempotencyKeys).values({ userId, key, requestHash }).onConflictDoNothing().returning();
  if (inserted.length > 0) return undefined;
  const [existing] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  if (!existing || existing.requestHash !== requestHash) throw conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);
  const [row] = existing.orderId ? await tx.select().from(orders).where(eq(orders.id, existing.orderId)) : [];
  if (!row) throw conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);
  const [order] = await withDetails(tx, [row]);
  return order;
}

export async function checkout(db: Db, userId: string, input: ParsedCheckout, idempotencyKey: string | undefined): Promise<CheckoutResult & { replayed: boolean }> {
  const result = await db.transaction(async (tx) => {
    if (idempotencyKey !== undefined) {
      const earlier = await replay(tx, userId, idempotencyKey, hashOf(input));
      if (earlier) return { order: earlier, priceChanged: false, replayed: true };
    }

    // The cart's rows are locked too: two checkouts of one cart cannot both take it.
    const cart = await tx
      .select()
      .from(cartLines)
      .where(eq(cartLines.userId, userId))
      .orderBy(asc(cartLines.addedAt), asc(cartLines.toolId))
      .for("update");
    if (cart.length === 0) throw conflict("CART_EMPTY", API_TEXT.cartEmpty);
    if (cartVersion(cart) !== input.cartVersion) throw conflict("CART_CHANGED", API_TEXT.cartChanged);

    const locked = await tx
      .select()
      .from(tools)
      .where(inArray(tools.id, cart.map((l) => l.toolId)))
      .orderBy(asc(tools.id))
      .for("update");
    const toolOf = new Map(locked.map((t) => [t.id, t]));

    const problems: CheckoutProblem[] = [];
    for (const line of cart) {
      const tool = toolOf.get(line.toolId);
      if (!tool) continue;
      const problem = lineProblem({ quantity: line.quantity, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.availableQuantity, active: tool.active });
      if (problem) {
        problems.push({ toolId: tool.id, name: tool.name, problem, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.active ? tool.availableQuantity : 0 });
      }
    }
    if (problems.length > 0) throw new ApiError(409, "CART_PROBLEMS", API_TEXT.cartProblems, { lines: problems });

    const lines = cart.map((line) => {
      const tool = toolOf.get(line.toolId) as (typeof locked)[number];
      return { toolId: tool.id, toolName: tool.name, quantity: line.quantity, unitPriceCents: tool.priceCents, lineTotalCents: tool.priceCents * line.quantity };
    });
    // Tools in id order, as they were locked.
    for (const tool of locked) {
      const quantity = cart.find((l) => l.toolId === tool.id)?.quantity ?? 0;
      await tx
        .update(tools)
        .set({ availableQuantity: sql`${tools.availableQuantity} - ${quantity}` })
        .where(eq(tools.id, tool.id));
    }
    const totalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
    const [first] = lines as [(typeof lines)[number], ...typeof lines];
    const [row] = await tx
      .insert(orders)
      .values({
        userId,
        toolId: first.toolId,
        toolName: first.toolName,
        quantity: first.quantity,
        unitPriceCents: first.unitPriceCents,
        totalCents,
        address: input.address,
        phone: input.phone,
        paymentMethod: input.paymentMethod,
        note: input.note,
      })
      .returning();
    if (!row) throw new Error("order insert returned no row");
    const [order] = await recordPlacedOrders(tx, [{ order: row, lines }]);
    await clearCart(tx, userId);
    if (idempotencyKey !== undefined) {
      await tx
        .update(idempotencyKeys)
        .set({ orderId: row.id })
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, idempotencyKey)));
    }
    if (input.saveToProfile) {
      const delivery = { address: input.address, phone: input.phone };
      await tx
        .insert(profiles)
        .values({ userId, ...delivery })
        .onConflictDoUpdate({ target: profiles.userId, set: { ...delivery, updatedAt: new Date() } });
    }
    const priceChanged = input.expectedTotal !== undefined && dollarsToCents(input.expectedTotal) !== totalCents;
    return { order: order as Order, priceChanged, replayed: false };
  });
  if (!result.replayed) announceChange(db, "tools");
  return result;
}

