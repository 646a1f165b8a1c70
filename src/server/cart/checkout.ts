/**
 * Checkout: a signed-in customer's cart becomes one order of many lines, taking every line's
 * stock or none.
 *
 * The checkout desk serves checkouts in batches: those that arrive while a transaction runs
 * wait for the next one, and each transaction serves its whole batch. Every checkout must
 * hold its tools' row locks until its commit is flushed, so one checkout per transaction
 * manages only ~1/commit-latency checkouts a second on hot tools; a batch pays the locks and
 * the flush once. Correctness does not depend on the batching:
 *
 * - Tools are locked in id order, so two transactions holding the same tools (another
 *   instance's batch, a cancel, the order desk) wait for each other instead of deadlocking.
 * - Carts are decided in arrival order (allocate-carts.ts): every line is checked against
 *   what the checkouts before it left; a refused cart names each line and why (409
 *   CART_PROBLEMS) and takes nothing.
 * - The cart must be the one the customer confirmed (`cartVersion`): a change made in another
 *   tab meanwhile is refused (409 CART_CHANGED), never silently ordered.
 * - Lines are ordered at today's prices; `priceChanged` says when the page showed others.
 * - An `Idempotency-Key` is claimed first in the transaction, so a retry (a double click, a
 *   lost answer) waits for the first attempt and then returns its order; the same key with
 *   another body is refused (409). A refused checkout gives its key back.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { dollarsToCents } from "../../contract/money";
import type { CheckoutResult, Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { cartLines, idempotencyKeys, orders, profiles, tools } from "../db/schema";
import { ApiError, conflict } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { insertOrders, withDetails } from "../orders/service";
import { allocateCarts } from "./allocate-carts";
import { cartVersion } from "./service";

export interface CheckoutRequest {
  address: string;
  phone: string;
  paymentMethod: "cash_on_delivery" | "bank_transfer";
  note: string;
  saveToProfile: boolean;
  cartVersion: string;
  expectedTotal?: number | undefined;
}

export type CheckoutOutcome = CheckoutResult & { replayed: boolean };

interface Pending {
  userId: string;
  input: CheckoutRequest;
  key: string;
  hash: string;
  resolve: (outcome: CheckoutOutcome) => void;
  reject: (error: unknown) => void;
}

type Settled = { ok: CheckoutOutcome } | { error: unknown };

/** Enough to amortise the locks and the flush, small enough to keep one transaction short. */
const MAX_BATCH = 100;

const hashOf = (input: CheckoutRequest) => createHash("sha256").update(JSON.stringify(input)).digest("base64url");
const keyOf = (p: { userId: string; key: string }) => `${p.userId}\u0000${p.key}`;
const keyReused = () => conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);

export class CheckoutDesk {
  private queue: Pending[] = [];
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly mail?: OrderMail,
  ) {}

  checkout(userId: string, input: CheckoutRequest, key: string): Promise<CheckoutOutcome> {
    return new Promise<CheckoutOutcome>((resolve, reject) => {
      this.queue.push({ userId, input, key, hash: hashOf(input), resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Serves the queue, batch after batch, until no checkout waits. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const settled = await this.serve(batch);
          batch.forEach((p, i) => {
            const result = settled[i] as Settled;
            if ("ok" in result) p.resolve(result.ok);
            else p.reject(result.error);
          });
        } catch (error) {
          for (const p of batch) p.reject(error);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async serve(batch: Pending[]): Promise<Settled[]> {
    const settled = await this.db.transaction(async (tx) => {
      const outcomes = await serveBatch(tx, batch);
      // Order mail is written with the orders (a replayed checkout placed nothing new).
      const placed = outcomes.flatMap((s, i) => ("ok" in s && !s.ok.replayed ? [{ userId: (batch[i] as Pending).userId, order: s.ok.order }] : []));
      await this.mail?.ordersPlaced(tx, placed);
      return outcomes;
    });
    if (settled.some((s) => "ok" in s && !s.ok.replayed)) announceChange(this.db, "tools");
    return settled;
  }
}

/** One batch in one transaction; returns each checkout's outcome in batch order. */
async function serveBatch(tx: Tx, batch: Pending[]): Promise<Settled[]> {
  const settled: (Settled | undefined)[] = batch.map(() => undefined);

  // 1. Claim the keys. A key already claimed is a retry: of a checkout in this batch (it
  //    shares that one's outcome) or of an earlier one (its order is returned).
  const claimed = new Set(
    (
      await tx
        .insert(idempotencyKeys)
        .values(batch.map((p) => ({ userId: p.userId, key: p.key, requestHash: p.hash })))
        .onConflictDoNothing()
        .returning({ userId: idempotencyKeys.userId, key: idempotencyKeys.key })
    ).map(keyOf),
  );
  const owner = new Map<string, number>();
  const followers: [number, number][] = [];
  const earlier: number[] = [];
  batch.forEach((p, i) => {
    const id = keyOf(p);
    const first = owner.get(id);
    if (first !== undefined) {
      if ((batch[first] as Pending).hash === p.hash) followers.push([i, first]);
      else settled[i] = { error: keyReused() };
    } else if (claimed.has(id)) owner.set(id, i);
    else earlier.push(i);
  });
  await replayEarlier(tx, batch, earlier, settled);

  const live = [...owner.values()];
  if (live.length > 0) await placeOrders(tx, batch, live, settled);
  for (const [i, first] of followers) {
    const result = settled[first] as Settled;
    settled[i] = "ok" in result ? { ok: { ...result.ok, replayed: true } } : result;
  }
  return settled as Settled[];
}

/** Retries of checkouts committed before this batch: their order, or 409 for another body. */
async function replayEarlier(tx: Tx, batch: Pending[], indexes: number[], settled: (Settled | undefined)[]): Promise<void> {
  if (indexes.length === 0) return;
  const wanted = indexes.map((i) => batch[i] as Pending);
  const rows = await tx
    .select()
    .from(idempotencyKeys)
    .where(or(...wanted.map((p) => and(eq(idempotencyKeys.userId, p.userId), eq(idempotencyKeys.key, p.key)))));
  const rowOf = new Map(rows.map((r) => [keyOf(r), r]));
  const orderIds = rows.flatMap((r) => (r.orderId ? [r.orderId] : []));
  const placed = orderIds.length > 0 ? await withDetails(tx, await tx.select().from(orders).where(inArray(orders.id, orderIds))) : [];
  const orderOf = new Map(placed.map((o) => [o._id, o]));
  for (const i of indexes) {
    const p = batch[i] as Pending;
    const row = rowOf.get(keyOf(p));
    const order = row?.orderId ? orderOf.get(row.orderId) : undefined;
    settled[i] = row && row.requestHash === p.hash && order ? { ok: { order, priceChanged: false, replayed: true } } : { error: keyReused() };
  }
}

/** The checkouts that claimed their key: decide, take the stock and write the orders. */
async function placeOrders(tx: Tx, batch: Pending[], live: number[], settled: (Settled | undefined)[]): Promise<void> {
  const users = [...new Set(live.map((i) => (batch[i] as Pending).userId))];
  // The carts' rows are locked too: two checkouts of one cart cannot both take it.
  const cartRows = await tx
    .select()
    .from(cartLines)
    .where(inArray(cartLines.userId, users))
    .orderBy(asc(cartLines.userId), asc(cartLines.addedAt), asc(cartLines.toolId))
    .for("update");
  const cartOf = new Map<string, (typeof cartRows)[number][]>();
  for (const row of cartRows) cartOf.set(row.userId, [...(cartOf.get(row.userId) ?? []), row]);

  // A cart is checked out once: a second checkout of it in the batch finds it empty.
  const taken = new Set<string>();
  const candidates: number[] = [];
  for (const i of live) {
    const p = batch[i] as Pending;
    const cart = taken.has(p.userId) ? [] : (cartOf.get(p.userId) ?? []);
    if (cart.length === 0) settled[i] = { error: conflict("CART_EMPTY", API_TEXT.cartEmpty) };
    else if (cartVersion(cart) !== p.input.cartVersion) settled[i] = { error: conflict("CART_CHANGED", API_TEXT.cartChanged) };
    else {
      taken.add(p.userId);
      candidates.push(i);
    }
  }

  const toolIds = [...new Set(candidates.flatMap((i) => (cartOf.get((batch[i] as Pending).userId) ?? []).map((l) => l.toolId)))];
  // NO KEY UPDATE: the lock an UPDATE of the stock takes anyway. It does not block the key-share
  // locks that adding a tool to a cart (a foreign key to it) takes, so shoppers filling carts
  // never wait for a checkout batch, nor it for them.
  const locked = toolIds.length > 0 ? await tx.select().from(tools).where(inArray(tools.id, toolIds)).orderBy(asc(tools.id)).for("no key update") : [];
  const toolOf = new Map(locked.map((t) => [t.id, t]));
  const { decisions, remaining } = allocateCarts(
    toolOf,
    candidates.map((i) => ({ lines: cartOf.get((batch[i] as Pending).userId) ?? [] })),
  );

  const accepted: number[] = [];
  candidates.forEach((i, k) => {
    const decision = decisions[k];
    if (decision?.kind === "refuse") settled[i] = { error: new ApiError(409, "CART_PROBLEMS", API_TEXT.cartProblems, { lines: decision.problems }) };
    else accepted.push(i);
  });

  // Keys of checkouts that made no order are given back: a corrected retry may use them.
  const unplaced = live.filter((i) => !accepted.includes(i)).map((i) => batch[i] as Pending);
  if (unplaced.length > 0) {
    await tx.delete(idempotencyKeys).where(or(...unplaced.map((p) => and(eq(idempotencyKeys.userId, p.userId), eq(idempotencyKeys.key, p.key)))));
  }
  if (accepted.length === 0) return;

  // Every tool's new stock in one statement (the rows are locked: these values are current).
  const changed = locked.filter((tool) => remaining.get(tool.id) !== tool.availableQuantity);
  if (changed.length > 0) {
    const stockOf = sql.join(
      changed.map((tool) => sql`when ${tool.id} then ${remaining.get(tool.id) ?? tool.availableQuantity}::integer`),
      sql` `,
    );
    await tx
      .update(tools)
      .set({ availableQuantity: sql`case ${tools.id} ${stockOf} end` })
      .where(inArray(tools.id, changed.map((tool) => tool.id)));
  }

  const drafts = accepted.map((i) => {
    const p = batch[i] as Pending;
    const lines = (cartOf.get(p.userId) ?? []).map((line) => {
      const tool = toolOf.get(line.toolId) as (typeof locked)[number];
      return { toolId: tool.id, toolName: tool.name, quantity: line.quantity, unitPriceCents: tool.priceCents, lineTotalCents: tool.priceCents * line.quantity };
    });
    return { p, lines, totalCents: lines.reduce((sum, l) => sum + l.lineTotalCents, 0) };
  });
  const placed = await insertOrders(
    tx,
    drafts.map(({ p, lines }) => ({
      userId: p.userId,
      address: p.input.address,
      phone: p.input.phone,
      paymentMethod: p.input.paymentMethod,
      note: p.input.note,
      lines,
    })),
  );

  // The ordered lines leave the carts, by their keys (a line added meanwhile in another tab stays).
  const ordered = drafts.flatMap(({ p, lines }) => lines.map((l) => sql`(${p.userId}, ${l.toolId})`));
  await tx.delete(cartLines).where(sql`(${cartLines.userId}, ${cartLines.toolId}) in (${sql.join(ordered, sql`, `)})`);
  // Each key now names its order.
  await tx
    .insert(idempotencyKeys)
    .values(drafts.map(({ p }, k) => ({ userId: p.userId, key: p.key, requestHash: p.hash, orderId: placed[k]?._id ?? null })))
    .onConflictDoUpdate({ target: [idempotencyKeys.userId, idempotencyKeys.key], set: { orderId: sql`excluded.order_id` } });

  // One delivery per customer (their last checkout in the batch wins, as it would one by one).
  const deliveries = new Map(
    drafts.filter(({ p }) => p.input.saveToProfile).map(({ p }) => [p.userId, { userId: p.userId, address: p.input.address, phone: p.input.phone }]),
  );
  if (deliveries.size > 0) {
    await tx
      .insert(profiles)
      .values([...deliveries.values()])
      .onConflictDoUpdate({ target: profiles.userId, set: { address: sql`excluded.address`, phone: sql`excluded.phone`, updatedAt: new Date() } });
  }

  drafts.forEach(({ p, totalCents }, k) => {
    const i = accepted[k] as number;
    const priceChanged = p.input.expectedTotal !== undefined && dollarsToCents(p.input.expectedTotal) !== totalCents;
    settled[i] = { ok: { order: placed[k] as Order, priceChanged, replayed: false } };
  });
}
