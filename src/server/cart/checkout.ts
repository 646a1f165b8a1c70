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
 * - Carts are placed by the one placement of every order (orders/placement.ts), in arrival
 *   order: every line is checked against what the checkouts before it left; a refused cart
 *   names each line and why (409 CART_PROBLEMS) and takes nothing.
 * - The cart must be the one the customer confirmed (`cartVersion`): a change made in another
 *   tab meanwhile is refused (409 CART_CHANGED), never silently ordered. An API client that
 *   leaves `cartVersion` out orders the cart as it is when the checkout runs.
 * - Lines are ordered at today's prices, rates and codes; `priceChanged` says when the page showed another total.
 * - An `Idempotency-Key` is claimed first in the transaction, so a retry (a double click, a
 *   lost answer) waits for the first attempt and then returns its order; the same key with
 *   another body is refused (409). A refused checkout gives its key back.
 *
 * A batch costs a few statements whatever its size (and BEGIN and COMMIT, each a round trip that
 * waits for the event loop while the tools are locked): checkout_lock_priced (migrations 0005,
 * 0008, 0011 and 0012: keys, carts, tools in that order, a number for each order, then the rates,
 * methods, store, weights, list prices and exemptions), which is the placement's first step for a
 * cart; then the placement's own (orders/placement.ts): when a code is used, its row locked; the
 * invoice counter, taken last; and one statement for every write (orders with their lines, history
 * and stock movements, the new stock, the codes' uses, the order mail, and the cart's own: the
 * emptied cart lines, the keys, the profiles).
 * Every cart is priced by the placement (DESIGN "Money"), under the locks, so the order has
 * the rates, methods and codes as they are now; `priceChanged` says when the page showed another total.
 */
import { createHash } from "node:crypto";
import { and, eq, or, sql } from "drizzle-orm";
import type { PaymentMethod } from "../../contract/constants";
import { dollarsToCents } from "../../contract/money";
import type { CheckoutResult } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { announceChange } from "../db/changes";
import { Batches, type Settled } from "../db/batches";
import type { Db, Tx } from "../db/client";
import { cartLines, idempotencyKeys, profiles } from "../db/schema";
import { ApiError, conflict } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { lockedOf, ordersById, placeOrders, type LockedToolJson, type PlacementRequest } from "../orders";
import { placesJson } from "../pricing/context";
import { cartVersion } from "./service";

export interface CheckoutRequest {
  address: string;
  city: string;
  region: string;
  postalCode: string;
  /** "" for a pickup order whose customer gave only the street line (as before issue 31). */
  country: string;
  phone: string;
  paymentMethod: PaymentMethod;
  shippingMethod: string;
  promoCode?: string | undefined;
  poNumber?: string | undefined;
  note: string;
  saveToProfile: boolean;
  /** Left out (an API client that just filled the cart): the cart as it is now is ordered. */
  cartVersion?: string | undefined;
  expectedTotal?: number | undefined;
}

export type CheckoutOutcome = CheckoutResult & { replayed: boolean };

interface Pending {
  userId: string;
  input: CheckoutRequest;
  key: string;
  hash: string;
}

/** Enough to amortise the locks and the flush, small enough to keep one transaction short. */
const MAX_BATCH = 100;

const hashOf = (input: CheckoutRequest) => createHash("sha256").update(JSON.stringify(input)).digest("base64url");
const keyOf = (p: { userId: string; key: string }) => `${p.userId}\u0000${p.key}`;
const keyReused = () => conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);

export class CheckoutDesk {
  private readonly batches: Batches<Pending, CheckoutOutcome>;

  constructor(
    private readonly db: Db,
    private readonly mail?: OrderMail,
    /** How long a card order's stock is held for its payment (PAYMENT_HOLD_MINUTES). */
    private readonly holdMs = 30 * 60_000,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.batches = new Batches((batch) => this.serve(batch), { maxBatch: MAX_BATCH });
  }

  checkout(userId: string, input: CheckoutRequest, key: string): Promise<CheckoutOutcome> {
    return this.batches.submit({ userId, input, key, hash: hashOf(input) });
  }

  private async serve(batch: Pending[]): Promise<Settled<CheckoutOutcome>[]> {
    const settled = await this.db.transaction((tx) => serveBatch(tx, batch, this.mail, this.holdMs, this.clock()));
    if (settled.some((s) => "ok" in s && !s.ok.replayed)) announceChange(this.db, "tools");
    return settled;
  }
}

/** What checkout_lock_priced (migrations 0008, 0011, 0012) answers: the claimed keys, the locked carts and tools, a number for each claimed key, the prices. */
interface LockAnswer {
  claimed: [string, string][];
  numbers: number[];
  carts: [string, string, number][];
  tools: LockedToolJson[];
  /** pricing_context's answer for the locked tools and the batch's customers, read under the locks. */
  pricing: unknown;
}
type CartRow = { userId: string; toolId: string; quantity: number };

/**
 * One batch in one transaction; returns each checkout's outcome in batch order. Round trips:
 * the locks (one function call) and the writes with the order mail (one statement), whatever the
 * batch (retries of earlier checkouts read their orders back: a few more).
 */
async function serveBatch(tx: Tx, batch: Pending[], mail: OrderMail | undefined, holdMs: number, now: Date): Promise<Settled<CheckoutOutcome>[]> {
  const settled: (Settled<CheckoutOutcome> | undefined)[] = batch.map(() => undefined);

  // 1. Claim the keys, then lock the customers' carts, then their tools in id order. A key
  //    already claimed is a retry: of a checkout in this batch (it shares that one's outcome)
  //    or of an earlier one (its order is returned).
  const keys = JSON.stringify(batch.map((p) => ({ user_id: p.userId, key: p.key, request_hash: p.hash })));
  const users = JSON.stringify([...new Set(batch.map((p) => p.userId))]);
  // The prices come in the same round trip, read once the tools are locked (migration 0011).
  const countries = placesJson(batch.map((p) => p.input));
  const result = await tx.execute(
    sql`select checkout_lock_priced(${keys}::jsonb, array(select jsonb_array_elements_text(${users}::jsonb)), ${countries}::jsonb) as locked`,
  );
  const raw = (result as unknown as { rows: { locked: LockAnswer | string }[] }).rows[0]?.locked;
  if (raw === undefined) throw new Error("checkout_lock_priced answered nothing");
  const locked = typeof raw === "string" ? (JSON.parse(raw) as LockAnswer) : raw;

  const claimed = new Set(locked.claimed.map(([userId, key]) => keyOf({ userId, key })));
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
  if (live.length > 0) await placeCheckouts(tx, batch, live, settled, locked, mail, holdMs, now);
  for (const [i, first] of followers) {
    const result = settled[first] as Settled<CheckoutOutcome>;
    settled[i] = "ok" in result ? { ok: { ...result.ok, replayed: true } } : result;
  }
  return settled as Settled<CheckoutOutcome>[];
}

/** Retries of checkouts committed before this batch: their order, or 409 for another body. */
async function replayEarlier(tx: Tx, batch: Pending[], indexes: number[], settled: (Settled<CheckoutOutcome> | undefined)[]): Promise<void> {
  if (indexes.length === 0) return;
  const wanted = indexes.map((i) => batch[i] as Pending);
  const rows = await tx
    .select()
    .from(idempotencyKeys)
    .where(or(...wanted.map((p) => and(eq(idempotencyKeys.userId, p.userId), eq(idempotencyKeys.key, p.key)))));
  const rowOf = new Map(rows.map((r) => [keyOf(r), r]));
  const orderOf = await ordersById(tx, rows.flatMap((r) => (r.orderId ? [r.orderId] : [])));
  for (const i of indexes) {
    const p = batch[i] as Pending;
    const row = rowOf.get(keyOf(p));
    const order = row?.orderId ? orderOf.get(row.orderId) : undefined;
    settled[i] = row && row.requestHash === p.hash && order ? { ok: { order, priceChanged: false, replayed: true } } : { error: keyReused() };
  }
}

/**
 * The checkouts that claimed their key: each cart becomes a request of the placement
 * (orders/placement.ts), which decides, takes the stock and writes the orders; the cart's own
 * writes (its ordered lines emptied, the keys, the profiles) travel in the same statement.
 */
async function placeCheckouts(
  tx: Tx,
  batch: Pending[],
  live: number[],
  settled: (Settled<CheckoutOutcome> | undefined)[],
  answer: LockAnswer,
  mail: OrderMail | undefined,
  holdMs: number,
  now: Date,
): Promise<void> {
  // The carts' rows are locked: two checkouts of one cart cannot both take it.
  const cartOf = new Map<string, CartRow[]>();
  for (const [userId, toolId, quantity] of answer.carts) {
    const cart = cartOf.get(userId);
    if (cart) cart.push({ userId, toolId, quantity });
    else cartOf.set(userId, [{ userId, toolId, quantity }]);
  }

  // A cart is checked out once: a second checkout of it in the batch finds it empty.
  const taken = new Set<string>();
  const candidates: number[] = [];
  for (const i of live) {
    const p = batch[i] as Pending;
    const cart = taken.has(p.userId) ? [] : (cartOf.get(p.userId) ?? []);
    if (cart.length === 0) settled[i] = { error: conflict("CART_EMPTY", API_TEXT.cartEmpty) };
    else if (p.input.cartVersion !== undefined && cartVersion(cart) !== p.input.cartVersion) settled[i] = { error: conflict("CART_CHANGED", API_TEXT.cartChanged) };
    else {
      taken.add(p.userId);
      candidates.push(i);
    }
  }

  // Each cart is ordered at today's prices, rates and codes, under the locks (the placement prices it).
  const requests: PlacementRequest[] = candidates.map((i) => {
    const { userId, input } = batch[i] as Pending;
    return {
      userId,
      lines: (cartOf.get(userId) ?? []).map(({ toolId, quantity }) => ({ toolId, quantity })),
      delivery: { address: input.address, city: input.city, region: input.region, postalCode: input.postalCode, country: input.country, phone: input.phone },
      paymentMethod: input.paymentMethod,
      shippingMethod: input.shippingMethod,
      promoCode: input.promoCode ?? null,
      poNumber: input.poNumber || null,
      note: input.note,
    };
  });

  const outcomes = await placeOrders(tx, requests, lockedOf(answer), {
    mail,
    holdMs,
    now,
    alongside: (drafts) => {
      const placed = drafts.map((d) => ({ p: batch[candidates[d.index] as number] as Pending, id: d.id, lines: d.lines }));
      const placedSet = new Set(drafts.map((d) => candidates[d.index] as number));
      // Keys of checkouts that made no order are given back: a corrected retry may use them.
      const unplaced = JSON.stringify(live.filter((i) => !placedSet.has(i)).map((i) => ({ user_id: (batch[i] as Pending).userId, key: (batch[i] as Pending).key })));
      const giveBack = sql`given_back as (
      delete from ${idempotencyKeys} k using jsonb_to_recordset(${unplaced}::jsonb) as u(user_id text, key text)
       where k.user_id = u.user_id and k.key = u.key)`;
      if (placed.length === 0) return [giveBack];
      // The ordered lines leave the carts, by their keys (a line added meanwhile in another tab stays);
      const ordered = JSON.stringify(placed.flatMap(({ p, lines }) => lines.map((l) => ({ user_id: p.userId, tool_id: l.toolId }))));
      // each key now names its order;
      const keyed = JSON.stringify(placed.map(({ p, id }) => ({ user_id: p.userId, key: p.key, order_id: id })));
      // one delivery per customer saved to My Profile (their last checkout in the batch wins, as it would one by one).
      const deliveries = JSON.stringify([
        ...new Map(
          placed
            .filter(({ p }) => p.input.saveToProfile)
            .map(({ p }) => [
              p.userId,
              { user_id: p.userId, address: p.input.address, city: p.input.city, region: p.input.region, postal_code: p.input.postalCode, country: p.input.country, phone: p.input.phone },
            ]),
        ).values(),
      ]);
      return [
        giveBack,
        sql`emptied as (
      delete from ${cartLines} c using jsonb_to_recordset(${ordered}::jsonb) as d(user_id text, tool_id text)
       where c.user_id = d.user_id and c.tool_id = d.tool_id)`,
        sql`keyed as (
      update ${idempotencyKeys} k set order_id = r.order_id from jsonb_to_recordset(${keyed}::jsonb) as r(user_id text, key text, order_id text)
       where k.user_id = r.user_id and k.key = r.key)`,
        sql`saved as (
      insert into ${profiles} (user_id, address, city, region, postal_code, country, phone)
      select d.user_id, d.address, d.city, d.region, d.postal_code, d.country, d.phone
        from jsonb_to_recordset(${deliveries}::jsonb) as d(user_id text, address text, city text, region text, postal_code text, country text, phone text)
      on conflict (user_id) do update set address = excluded.address, city = excluded.city, region = excluded.region, postal_code = excluded.postal_code,
         country = excluded.country, phone = excluded.phone, updated_at = now())`,
      ];
    },
  });

  outcomes.forEach((outcome, k) => {
    const i = candidates[k] as number;
    if ("refused" in outcome) {
      const { refused } = outcome;
      settled[i] = { error: refused.kind === "lines" ? new ApiError(409, "CART_PROBLEMS", API_TEXT.cartProblems, { lines: refused.problems }) : refused.error };
      return;
    }
    const { input } = batch[i] as Pending;
    const priceChanged = input.expectedTotal !== undefined && dollarsToCents(input.expectedTotal) !== outcome.totalCents;
    settled[i] = { ok: { order: outcome.placed, priceChanged, replayed: false } };
  });
}
