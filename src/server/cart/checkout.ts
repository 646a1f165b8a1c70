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
 *   tab meanwhile is refused (409 CART_CHANGED), never silently ordered. An API client that
 *   leaves `cartVersion` out orders the cart as it is when the checkout runs.
 * - Lines are ordered at today's prices, rates and codes; `priceChanged` says when the page showed another total.
 * - An `Idempotency-Key` is claimed first in the transaction, so a retry (a double click, a
 *   lost answer) waits for the first attempt and then returns its order; the same key with
 *   another body is refused (409). A refused checkout gives its key back.
 *
 * A batch costs a few statements whatever its size (and BEGIN and COMMIT, each a round trip that
 * waits for the event loop while the tools are locked): checkout_lock_priced (migrations 0005,
 * 0008 and 0011: keys, carts, tools in that order, a number for each order, then the rates,
 * methods, store, weights and exemptions); when a code is used, promotions_for (its row locked); the invoice counter (invoices/numbers.ts, taken last: it
 * serializes every order of the year); and the writes (orders with their lines, history and
 * stock movements, the new stock, the emptied cart lines, the keys, the profiles, the codes'
 * uses and the order mail).
 * Every cart is priced by pricing/price.ts (DESIGN "Money"), under the locks, so the order has
 * the rates, methods and codes as they are now; `priceChanged` says when the page showed another total.
 */
import { createHash, randomUUID } from "node:crypto";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { PaymentMethod } from "../../contract/constants";
import { dollarsToCents } from "../../contract/money";
import type { CheckoutResult, Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import type { PricingProblem } from "../../contract/texts/money";
import { announceChange } from "../db/changes";
import { Batches, type Settled } from "../db/batches";
import type { Db, Tx } from "../db/client";
import { cartLines, idempotencyKeys, orders, profiles, promotionRedemptions, promotions, tools } from "../db/schema";
import { ApiError, conflict } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { insertOrders, pricedFields, pricedLines, withDetails } from "../orders/service";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import { loadPromotions, priceLineOf, pricingContextOf, promotionFor } from "../pricing/context";
import { price, type PriceLine, type Priced } from "../pricing/price";
import { problemMessage } from "./estimate";
import { allocateCarts } from "./allocate-carts";
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
  ) {
    this.batches = new Batches((batch) => this.serve(batch), { maxBatch: MAX_BATCH });
  }

  checkout(userId: string, input: CheckoutRequest, key: string): Promise<CheckoutOutcome> {
    return this.batches.submit({ userId, input, key, hash: hashOf(input) });
  }

  private async serve(batch: Pending[]): Promise<Settled<CheckoutOutcome>[]> {
    const settled = await this.db.transaction((tx) => serveBatch(tx, batch, this.mail, this.holdMs));
    if (settled.some((s) => "ok" in s && !s.ok.replayed)) announceChange(this.db, "tools");
    return settled;
  }
}

/** What checkout_lock_priced (migrations 0008, 0011) answers: the claimed keys, the locked carts and tools, a number for each claimed key, the prices. */
interface Locked {
  claimed: [string, string][];
  numbers: number[];
  carts: [string, string, number][];
  tools: { id: string; name: string; price_cents: number; available_quantity: number; minimum_quantity: number; active: boolean }[];
  /** pricing_context's answer for the locked tools and the batch's customers (checkout_lock_priced, migration 0011). */
  pricing: unknown;
}
type CartRow = { userId: string; toolId: string; quantity: number };
type PriceableLine = PriceLine & { toolName: string };
type LockedTool = { id: string; name: string; priceCents: number; availableQuantity: number; minimumQuantity: number; active: boolean };

/**
 * One batch in one transaction; returns each checkout's outcome in batch order. Round trips:
 * the locks (one function call) and the writes with the order mail (one statement), whatever the
 * batch (retries of earlier checkouts read their orders back: a few more).
 */
async function serveBatch(tx: Tx, batch: Pending[], mail: OrderMail | undefined, holdMs: number): Promise<Settled<CheckoutOutcome>[]> {
  const settled: (Settled<CheckoutOutcome> | undefined)[] = batch.map(() => undefined);

  // 1. Claim the keys, then lock the customers' carts, then their tools in id order. A key
  //    already claimed is a retry: of a checkout in this batch (it shares that one's outcome)
  //    or of an earlier one (its order is returned).
  const keys = JSON.stringify(batch.map((p) => ({ user_id: p.userId, key: p.key, request_hash: p.hash })));
  const users = JSON.stringify([...new Set(batch.map((p) => p.userId))]);
  // The prices come in the same round trip, read once the tools are locked (migration 0011).
  const countries = JSON.stringify([...new Set(batch.map((p) => p.input.country).filter((c) => c !== ""))]);
  const result = await tx.execute(
    sql`select checkout_lock_priced(${keys}::jsonb, array(select jsonb_array_elements_text(${users}::jsonb)), ${countries}::jsonb) as locked`,
  );
  const raw = (result as unknown as { rows: { locked: Locked | string }[] }).rows[0]?.locked;
  if (raw === undefined) throw new Error("checkout_lock_priced answered nothing");
  const locked = typeof raw === "string" ? (JSON.parse(raw) as Locked) : raw;

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
  if (live.length > 0) await placeOrders(tx, batch, live, settled, locked, mail, holdMs);
  for (const [i, first] of followers) {
    const result = settled[first] as Settled<CheckoutOutcome>;
    settled[i] = "ok" in result ? { ok: { ...result.ok, replayed: true } } : result;
  }
  return settled as Settled<CheckoutOutcome>[];
}

/**
 * A checkout that cannot be priced as asked, naming the field: a code used up (in all or by this
 * customer) is a conflict with the orders before it (409, as in a race for its last use); a code
 * that is unknown, not started, expired, below its minimum or for other categories, and a
 * delivery method that does not serve the address, are bad input (400).
 */
function pricingRefusal(problem: PricingProblem, message: string): ApiError {
  const field = problem.startsWith("PROMO_") ? "body.promoCode" : "body.shippingMethod";
  const details = [{ path: field, message }];
  return problem === "PROMO_USED_UP" || problem === "PROMO_USED_UP_BY_YOU" ? conflict(problem, message, { details }) : new ApiError(400, problem, message, { details });
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
async function placeOrders(
  tx: Tx,
  batch: Pending[],
  live: number[],
  settled: (Settled<CheckoutOutcome> | undefined)[],
  locked: Locked,
  mail: OrderMail | undefined,
  holdMs: number,
): Promise<void> {
  // The carts' rows are locked: two checkouts of one cart cannot both take it.
  const cartOf = new Map<string, CartRow[]>();
  for (const [userId, toolId, quantity] of locked.carts) {
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

  const toolOf = new Map<string, LockedTool>(
    locked.tools.map((t) => [
      t.id,
      { id: t.id, name: t.name, priceCents: t.price_cents, availableQuantity: t.available_quantity, minimumQuantity: t.minimum_quantity, active: t.active },
    ]),
  );
  // Every candidate is priced (pricing/price.ts) with the rates, methods and codes as they are
  // now, under the locks: what changed since the page was shown is what the order gets. The
  // codes' rows are locked too, and counted cart by cart, so a code limited to K uses gives
  // exactly K orders however many checkouts race for it (issue 31).
  const userIds = candidates.map((i) => (batch[i] as Pending).userId);
  const ctx = pricingContextOf(locked.pricing);
  const codes = candidates.flatMap((i) => ((batch[i] as Pending).input.promoCode ? [(batch[i] as Pending).input.promoCode as string] : []));
  const promotionsByCode = await loadPromotions(tx, codes, userIds, true);
  const now = new Date();
  const pricedOf = new Map<number, { priced: Priced; lines: PriceableLine[] }>();
  const { decisions, remaining } = allocateCarts(
    toolOf,
    candidates.map((i) => ({ lines: cartOf.get((batch[i] as Pending).userId) ?? [] })),
    (k): ApiError | null => {
      const i = candidates[k] as number;
      const { userId, input } = batch[i] as Pending;
      const lines = (cartOf.get(userId) ?? []).map((line) => {
        const tool = toolOf.get(line.toolId) as LockedTool;
        return { ...priceLineOf(ctx, { toolId: tool.id, quantity: line.quantity, unitPriceCents: tool.priceCents }), toolName: tool.name };
      });
      const code = input.promoCode ?? null;
      const promotion = code ? promotionsByCode.get(code) : undefined;
      const priced = price({
        lines,
        destination: input.country === "" ? ctx.store : { country: input.country, region: input.region, postalCode: input.postalCode },
        store: ctx.store,
        shippingMethod: input.shippingMethod,
        methods: input.country === "" ? [] : ctx.methods,
        rates: ctx.rates,
        promoCode: code,
        promotion: promotionFor(promotion, userId),
        taxExempt: ctx.exempt.has(userId),
        now,
      });
      const [problem] = priced.problems;
      if (problem) return pricingRefusal(problem, problemMessage(problem, promotion?.minSubtotalCents ?? 0));
      if (promotion && priced.promotionId) {
        promotion.redemptions += 1;
        promotion.byCustomer.set(userId, (promotion.byCustomer.get(userId) ?? 0) + 1);
      }
      pricedOf.set(i, { priced, lines });
      return null;
    },
  );

  const accepted: number[] = [];
  candidates.forEach((i, k) => {
    const decision = decisions[k];
    if (decision?.kind === "refuse") settled[i] = { error: new ApiError(409, "CART_PROBLEMS", API_TEXT.cartProblems, { lines: decision.problems }) };
    else if (decision?.kind === "refuse-other") settled[i] = { error: decision.reason };
    else accepted.push(i);
  });

  // Keys of checkouts that made no order are given back: a corrected retry may use them.
  const acceptedSet = new Set(accepted);
  const unplaced = JSON.stringify(live.filter((i) => !acceptedSet.has(i)).map((i) => ({ user_id: (batch[i] as Pending).userId, key: (batch[i] as Pending).key })));
  const giveBack = sql`given_back as (
      delete from ${idempotencyKeys} k using jsonb_to_recordset(${unplaced}::jsonb) as u(user_id text, key text)
       where k.user_id = u.user_id and k.key = u.key)`;
  if (accepted.length === 0) {
    await tx.execute(sql`with ${giveBack} select 1`);
    return;
  }

  // Accepted checkouts claimed their keys, so each has a number reserved (in arrival order).
  if (locked.numbers.length < accepted.length) throw new Error("checkout_lock reserved fewer order numbers than orders");
  // Invoice numbers last: the counter's row is held only for the writes and the commit.
  const invoiceNumbers = await takeDocumentNumbers(tx, "INV", documentYear(now), accepted.length);
  const drafts = accepted.map((i, k) => {
    const p = batch[i] as Pending;
    const { priced, lines } = pricedOf.get(i) as { priced: Priced; lines: PriceableLine[] };
    return {
      p,
      id: randomUUID(),
      number: locked.numbers[k] as number,
      invoiceNumber: invoiceNumbers[k] as string,
      priced,
      lines: pricedLines(lines, priced),
    };
  });

  // The codes' uses: the counter on the promotion and one row per order (a cancel gives it back once).
  const redeemed = drafts.flatMap(({ p, id, priced }) => (priced.promotionId ? [{ order_id: id, promotion_id: priced.promotionId, user_id: p.userId }] : []));
  const useCount = new Map<string, number>();
  for (const r of redeemed) useCount.set(r.promotion_id, (useCount.get(r.promotion_id) ?? 0) + 1);
  const uses = JSON.stringify([...useCount].map(([id, n]) => ({ id, n })));

  // Everything else the batch writes travels with its orders, in the same statement:
  // - every tool's new stock (the rows are locked: these values are current);
  const stock = JSON.stringify(locked.tools.filter((t) => remaining.get(t.id) !== t.available_quantity).map((t) => ({ id: t.id, quantity: remaining.get(t.id) })));
  // - the ordered lines leave the carts, by their keys (a line added meanwhile in another tab stays);
  const ordered = JSON.stringify(drafts.flatMap(({ p, lines }) => lines.map((l) => ({ user_id: p.userId, tool_id: l.toolId }))));
  // - each key now names its order;
  const keyed = JSON.stringify(drafts.map(({ p, id }) => ({ user_id: p.userId, key: p.key, order_id: id })));
  // - one delivery per customer saved to My Profile (their last checkout in the batch wins, as it would one by one).
  const deliveries = JSON.stringify([
    ...new Map(
      drafts
        .filter(({ p }) => p.input.saveToProfile)
        .map(({ p }) => [
          p.userId,
          { user_id: p.userId, address: p.input.address, city: p.input.city, region: p.input.region, postal_code: p.input.postalCode, country: p.input.country, phone: p.input.phone },
        ]),
    ).values(),
  ]);
  const alongside = [
    giveBack,
    sql`stock as (
      update ${tools} t set available_quantity = s.quantity from jsonb_to_recordset(${stock}::jsonb) as s(id text, quantity integer)
       where t.id = s.id)`,
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
  if (redeemed.length > 0) {
    alongside.push(
      sql`promotion_uses as (
        update ${promotions} pr set redemptions = pr.redemptions + u.n from jsonb_to_recordset(${uses}::jsonb) as u(id text, n integer) where pr.id = u.id)`,
      sql`promotion_redeemed as (
        insert into ${promotionRedemptions} (order_id, promotion_id, user_id)
        select r.order_id, r.promotion_id, r.user_id from jsonb_to_recordset(${JSON.stringify(redeemed)}::jsonb) as r(order_id text, promotion_id text, user_id text))`,
    );
  }
  // - and the order mail, whose texts name the numbers reserved above.
  const mailInsert = mail?.ordersPlacedInsert(
    drafts.map(({ p, id, number, lines, priced, invoiceNumber }) => ({
      id,
      number,
      userId: p.userId,
      totalCents: priced.totalCents,
      subtotalCents: priced.subtotalCents,
      discountCents: priced.discountCents,
      shippingCents: priced.shippingCents,
      taxCents: priced.taxCents,
      invoiceNumber,
      shippingMethodName: priced.shippingMethod.name,
      paymentMethod: p.input.paymentMethod,
      lines: lines.map((l) => ({ toolName: l.toolName, quantity: l.quantity, lineTotalCents: l.lineTotalCents })),
    })),
  );
  if (mailInsert) alongside.push(sql`mail as (${mailInsert})`);
  const placed = await insertOrders(
    tx,
    drafts.map(({ p, id, number, lines, priced, invoiceNumber }) => ({
      id,
      number,
      userId: p.userId,
      address: p.input.address,
      city: p.input.city,
      region: p.input.region,
      postalCode: p.input.postalCode,
      country: p.input.country,
      phone: p.input.phone,
      paymentMethod: p.input.paymentMethod,
      note: p.input.note,
      ...pricedFields(priced),
      promotionId: priced.promotionId,
      promoCode: priced.promotionId ? (p.input.promoCode ?? null) : null,
      taxExemptCertificate: ctx.exempt.get(p.userId) ?? null,
      invoiceNumber,
      // A card order waits for its payment with its stock held (DESIGN "Payments").
      ...(p.input.paymentMethod === "card" ? { status: "awaiting_payment" as const, paymentHoldUntil: new Date(now.getTime() + holdMs) } : {}),
      lines,
    })),
    alongside,
  );

  drafts.forEach(({ p, priced }, k) => {
    const i = accepted[k] as number;
    const priceChanged = p.input.expectedTotal !== undefined && dollarsToCents(p.input.expectedTotal) !== priced.totalCents;
    settled[i] = { ok: { order: placed[k] as Order, priceChanged, replayed: false } };
  });
}
