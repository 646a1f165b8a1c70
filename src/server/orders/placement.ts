/**
 * One way to place an order (DESIGN "One way to place an order"): the cart's checkout
 * (cart/checkout.ts), the purchase page (orders/desk.ts) and a quote's acceptance all place their
 * orders here, so a rule added once holds on every path. Each path only says what it asks for
 * (which lines, where to, how paid) and how it answers; the steps are this file's:
 *
 * 1. lock    the tools, in id order, and read the prices under the locks (`lockForPlacement`; a
 *            checkout locks its keys and carts first, so its own lock, checkout_lock_priced, takes
 *            the tools and hands them over in the same shape);
 * 2. price   every request through the one input builder (pricing/input.ts) and pricing/price.ts
 *            (a quote's acceptance brings its revision's cents, priced when it was sent);
 * 3. check   in arrival order: each line's tool, minimum and stock against what the requests
 *            before it left (allocate-lines.ts), the code (its row locked, its uses counted request
 *            by request), then the policies (`PlacementPolicy`: the seam for per-order rules such
 *            as a trade account's limits);
 * 4. take    the stock: the remaining stock of each tool, written with the orders;
 * 5. number  `numberInvoices`, the one place that decides which order takes an invoice number when;
 * 6. record  the orders with their lines, history and stock movements, the new stock, the codes'
 *            uses, the order mail (a card order's when it is paid) and the caller's own writes,
 *            in ONE statement (insertOrders);
 * 7. pay     after the commit, `startPayment` opens a card order's payment page (no network call
 *            holds a lock).
 *
 * A placement serves a whole batch in the caller's transaction (the desks batch requests,
 * decision 0009; a quote's acceptance is a batch of one), so its locks and its flush are paid
 * once for many orders: four round trips whatever the batch (lock, code when one is used,
 * numbers, record).
 */
import { randomUUID } from "node:crypto";
import { inArray, sql, type SQL } from "drizzle-orm";
import type { PaymentMethod } from "../../contract/constants";
import type { CheckoutProblem, Order } from "../../contract/schemas";
import type { Tx } from "../db/client";
import { orders, promotionRedemptions, promotions, tools } from "../db/schema";
import type { ApiError } from "../http/errors";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import type { OrderMail } from "../mail/outbox";
import { loadPromotions, placesJson, pricingContextOf, type LoadedPromotion, type PricingContext } from "../pricing/context";
import { exemptionFor, pricingInput } from "../pricing/input";
import { storeDate } from "../../contract/store-calendar";
import { dueDateOf, TradePolicy, type TradeDecision } from "./trade-policy";
import { price, type Priced } from "../pricing/price";
import { pricingRefusal } from "../pricing/problems";
import { allocateLines, type ToolState } from "./allocate-lines";
import { insertOrders, pricedFields, pricedLines, withDetails, type NewOrder, type NewOrderLine } from "./service";

/** Where an order goes and whom to call: the checkout form's, or the profile's. */
export interface Delivery {
  /** The street line. */
  address: string;
  city: string;
  region: string;
  postalCode: string;
  /** ISO alpha-2, or "" for a pickup order whose customer gave only the street line: priced for pickup at the store. */
  country: string;
  phone: string;
}

/** One order asked for. */
export interface PlacementRequest {
  userId: string;
  /** At least one; each tool once. */
  lines: { toolId: string; quantity: number }[];
  delivery: Delivery;
  paymentMethod: PaymentMethod;
  /** "pickup" or a delivery method's id. */
  shippingMethod: string;
  /** Upper-case, or null. */
  promoCode: string | null;
  note: string;
  /** The buyer's purchase order number (DESIGN "Trade accounts"), or null; required where the account says so. */
  poNumber?: string | null | undefined;
  /**
   * A quote's accepted revision (DESIGN "Quotes"): the order takes its cents as they are, never
   * re-priced, whatever the list price, tiers, rates or codes say now (no code applies). The lines'
   * rules (tool, minimum, stock) and the policies hold as on every path.
   */
  quoted?: { quoteId: string; quoteNumber: string; priced: Priced; taxExemptCertificate: string | null; taxExemptRegion: string | null } | undefined;
}

/** A tool as its row was locked. */
export interface LockedTool extends ToolState {
  priceCents: number;
}

/** What step 1 hands the placement: the locked tools, the prices read under the locks, and the order numbers reserved. */
export interface Locked {
  tools: Map<string, LockedTool>;
  pricing: PricingContext;
  /** Reserved from the orders' sequence (ascending): the k-th order placed takes the k-th. */
  numbers: number[];
}

/** A tool as checkout_lock and placement_lock (migrations 0008, 0012) answer it. */
export interface LockedToolJson {
  id: string;
  name: string;
  price_cents: number;
  available_quantity: number;
  minimum_quantity: number;
  active: boolean;
}

/** The tools, numbers and prices of checkout_lock_priced's or placement_lock's answer. */
export function lockedOf(raw: { tools: LockedToolJson[]; numbers: (number | string)[]; pricing: unknown }): Locked {
  return {
    tools: new Map(
      raw.tools.map((t) => [
        t.id,
        { id: t.id, name: t.name, priceCents: Number(t.price_cents), availableQuantity: t.available_quantity, minimumQuantity: t.minimum_quantity, active: t.active },
      ]),
    ),
    pricing: pricingContextOf(raw.pricing),
    numbers: raw.numbers.map(Number),
  };
}

/**
 * Step 1 for a path without keys or carts to lock first (the purchase page, a quote): the tools'
 * rows locked in id order, `numbers` order numbers reserved and the prices read, in one round trip
 * (placement_lock, migration 0012).
 */
export async function lockForPlacement(tx: Tx, requests: PlacementRequest[], numbers = requests.length): Promise<Locked> {
  const toolIds = JSON.stringify([...new Set(requests.flatMap((r) => r.lines.map((l) => l.toolId)))]);
  const users = JSON.stringify([...new Set(requests.map((r) => r.userId))]);
  const countries = placesJson(requests.map((r) => r.delivery));
  const result = await tx.execute(sql`select placement_lock(${toolIds}::jsonb, ${users}::jsonb, ${countries}::jsonb, ${numbers}::integer) as locked`);
  const raw = (result as unknown as { rows: { locked: unknown }[] }).rows[0]?.locked;
  if (raw === undefined) throw new Error("placement_lock answered nothing");
  return lockedOf((typeof raw === "string" ? JSON.parse(raw) : raw) as { tools: LockedToolJson[]; numbers: number[]; pricing: unknown });
}

/** Why a request was not placed: its lines (each bad one named), or another rule (its code, a policy). */
export type Refusal = { kind: "lines"; problems: CheckoutProblem[] } | { kind: "other"; error: ApiError };

/** A request's outcome, in the batch's order. */
export type PlacementOutcome = { placed: Order; totalCents: number } | { refused: Refusal };

/** An order about to be recorded, as the caller's own writes see it (they run in the same statement). */
export interface PlacedDraft {
  /** The request's index in the batch. */
  index: number;
  request: PlacementRequest;
  id: string;
  number: number;
  priced: Priced;
  lines: NewOrderLine[];
  /** The trade account it is ordered for, and whether it waits for an approver. */
  trade: TradeDecision;
}

/**
 * A per-order rule beside the store's own (issue 43: a trade account's PO number, spending limits,
 * approval, credit and terms). Asked about each request whose lines, prices and code passed, in
 * arrival order under the batch's locks, after the orders before it in the batch were admitted:
 * it may refuse it (nothing is taken). What it needs it reads (and locks, after the tools) in
 * `prepare`, once for the batch.
 */
export interface PlacementPolicy {
  prepare?(tx: Tx, requests: PlacementRequest[]): Promise<void>;
  check(request: PlacementRequest, priced: Priced): ApiError | null;
}

export interface PlacementOptions {
  /** Where the order mail goes (written with the orders). */
  mail?: OrderMail | undefined;
  /** How long a card order's stock is held for its payment (PAYMENT_HOLD_MINUTES). */
  holdMs: number;
  policies?: PlacementPolicy[];
  /**
   * The caller's own writes (data-modifying CTEs, `name as (...)`), given what is about to be
   * recorded: run by the statement that records the orders, or alone when nothing is placed.
   */
  alongside?: (placed: PlacedDraft[]) => SQL[];
  now?: Date;
}

/**
 * Steps 2 to 6 for a batch whose tools are locked (`locked`): each request is placed or refused,
 * in arrival order. Runs in the caller's transaction; step 7 is `startPayment`, after the commit.
 */
export async function placeOrders(tx: Tx, requests: PlacementRequest[], locked: Locked, options: PlacementOptions): Promise<PlacementOutcome[]> {
  const now = options.now ?? new Date();
  const { tools: toolOf, pricing: ctx } = locked;

  // The codes' rows are locked (after the tools) and their uses counted request by request, so a
  // code limited to K uses gives exactly K orders however many requests race for it (issue 31).
  const codes = requests.flatMap((r) => (r.promoCode ? [r.promoCode] : []));
  const promotionsByCode: Map<string, LoadedPromotion> = codes.length > 0 ? await loadPromotions(tx, codes, requests.map((r) => r.userId), true) : new Map();
  for (const policy of options.policies ?? []) await policy.prepare?.(tx, requests);
  // A trade account's rules (trade-policy.ts): its accounts locked after the tools and codes.
  const trade = new TradePolicy(ctx, now);
  await trade.prepare(tx, requests.map(policyRequestOf));

  const pricedOf = new Map<number, Priced>();
  const { decisions, remaining } = allocateLines(toolOf, requests, (i): ApiError | null => {
    const request = requests[i] as PlacementRequest;
    const promotion = request.promoCode ? promotionsByCode.get(request.promoCode) : undefined;
    const priced = request.quoted ? request.quoted.priced : price(pricingInput(ctx, { ...request, destination: destinationOf(request.delivery) }, promotion, now));
    const [problem] = priced.problems;
    if (problem) return pricingRefusal(problem, promotion?.minSubtotalCents ?? 0);
    for (const policy of options.policies ?? []) {
      const refusal = policy.check(request, priced);
      if (refusal) return refusal;
    }
    // Last: a request it admits is placed, and counts against the month and the credit of those after it.
    const refusal = trade.check(i, policyRequestOf(request), priced.totalCents);
    if (refusal) return refusal;
    if (promotion && priced.promotionId) {
      promotion.redemptions += 1;
      promotion.byCustomer.set(request.userId, (promotion.byCustomer.get(request.userId) ?? 0) + 1);
    }
    pricedOf.set(i, priced);
    return null;
  });

  const outcomes: (PlacementOutcome | undefined)[] = decisions.map((d) =>
    d.kind === "refuse" ? { refused: { kind: "lines", problems: d.problems } } : d.kind === "refuse-other" ? { refused: { kind: "other", error: d.reason } } : undefined,
  );
  const accepted = decisions.flatMap((d, i) => (d.kind === "accept" ? [i] : []));
  if (locked.numbers.length < accepted.length) throw new Error("fewer order numbers were reserved than orders placed");

  const drafts: PlacedDraft[] = accepted.map((index, k) => {
    const request = requests[index] as PlacementRequest;
    const priced = pricedOf.get(index) as Priced;
    const named = priced.lines.map((p) => ({ toolId: p.toolId, toolName: (toolOf.get(p.toolId) as LockedTool).name, quantity: p.quantity, unitPriceCents: p.unitPriceCents }));
    return { index, request, id: randomUUID(), number: locked.numbers[k] as number, priced, lines: pricedLines(named, priced), trade: trade.decisionOf(index) };
  });
  const extra = options.alongside?.(drafts) ?? [];
  if (drafts.length === 0) {
    if (extra.length > 0) await tx.execute(sql`with ${sql.join(extra, sql`, `)} select 1`);
    return outcomes as PlacementOutcome[];
  }

  const invoiceNumbers = await numberInvoices(tx, drafts, now);
  const placed = await record(tx, drafts, invoiceNumbers, { locked, remaining, extra, options, now });
  drafts.forEach((d, k) => {
    outcomes[d.index] = { placed: placed[k] as Order, totalCents: d.priced.totalCents };
  });
  return outcomes as PlacementOutcome[];
}

const policyRequestOf = (r: PlacementRequest) => ({ userId: r.userId, paymentMethod: r.paymentMethod, poNumber: r.poNumber ?? null });

/** Where a delivery is priced for: none (pickup at the store) without a country. */
const destinationOf = (d: Delivery) => (d.country === "" ? null : { country: d.country, region: d.region, postalCode: d.postalCode });

/**
 * Step 5, the one place that decides when an order takes its invoice number (DESIGN "Money"):
 * cash on delivery, bank transfer and terms as they are placed; a card order when it is paid
 * (payments/service.ts), so an abandoned card checkout uses no invoice (and no credit note); a
 * trade order waiting for approval when it is approved (accounts/approvals.ts). Numbers come from the counter row, last in the transaction
 * (invoices/numbers.ts: the row is held only for the record and the commit). Answers each draft's
 * number, or null for one that takes its number later.
 */
async function numberInvoices(tx: Tx, drafts: PlacedDraft[], now: Date): Promise<(string | null)[]> {
  const numbered = drafts.map((d) => !d.trade.awaitingApproval && d.request.paymentMethod !== "card");
  const count = numbered.filter(Boolean).length;
  const numbers = count > 0 ? await takeDocumentNumbers(tx, "INV", documentYear(now), count) : [];
  let next = 0;
  return numbered.map((yes) => (yes ? (numbers[next++] as string) : null));
}

/** Step 6: the orders and everything that goes with them, in one statement (insertOrders). */
async function record(
  tx: Tx,
  drafts: PlacedDraft[],
  invoiceNumbers: (string | null)[],
  with_: { locked: Locked; remaining: Map<string, number>; extra: SQL[]; options: PlacementOptions; now: Date },
): Promise<Order[]> {
  const { locked, remaining, extra, options, now } = with_;
  // Every tool's new stock (the rows are locked: these values are current).
  const stock = JSON.stringify(
    [...locked.tools.values()].filter((t) => remaining.get(t.id) !== t.availableQuantity).map((t) => ({ id: t.id, quantity: remaining.get(t.id) })),
  );
  const alongside = [
    sql`placed_stock as (
      update ${tools} t set available_quantity = s.quantity from jsonb_to_recordset(${stock}::jsonb) as s(id text, quantity integer)
       where t.id = s.id)`,
  ];
  // The codes' uses: the counter on the promotion and one row per order (a cancel gives it back once).
  const redeemed = drafts.flatMap(({ request, id, priced }) => (priced.promotionId ? [{ order_id: id, promotion_id: priced.promotionId, user_id: request.userId }] : []));
  if (redeemed.length > 0) {
    const useCount = new Map<string, number>();
    for (const r of redeemed) useCount.set(r.promotion_id, (useCount.get(r.promotion_id) ?? 0) + 1);
    const uses = JSON.stringify([...useCount].map(([id, n]) => ({ id, n })));
    alongside.push(
      sql`placed_code_uses as (
        update ${promotions} pr set redemptions = pr.redemptions + u.n from jsonb_to_recordset(${uses}::jsonb) as u(id text, n integer) where pr.id = u.id)`,
      sql`placed_code_redeemed as (
        insert into ${promotionRedemptions} (order_id, promotion_id, user_id)
        select r.order_id, r.promotion_id, r.user_id from jsonb_to_recordset(${JSON.stringify(redeemed)}::jsonb) as r(order_id text, promotion_id text, user_id text))`,
    );
  }
  const drafted: (NewOrder & { id: string; number: number })[] = drafts.map(({ request, id, number, priced, lines }, k) => ({
    id,
    number,
    userId: request.userId,
    ...request.delivery,
    paymentMethod: request.paymentMethod,
    note: request.note,
    ...pricedFields(priced),
    promotionId: priced.promotionId,
    promoCode: priced.promotionId ? request.promoCode : null,
    ...exemptionFields(request, locked, now),
    quoteId: request.quoted?.quoteId ?? null,
    quoteNumber: request.quoted?.quoteNumber ?? null,
    invoiceNumber: invoiceNumbers[k] ?? null,
    accountId: drafts[k]?.trade.accountId ?? null,
    poNumber: request.poNumber || null,
    // A terms order is invoiced with its due date (DESIGN "Trade accounts").
    ...(request.paymentMethod === "terms" && invoiceNumbers[k] ? { dueDate: dueDateOf(termsOf(locked, request.userId), now), invoiceDate: storeDate(now) } : {}),
    // An order over its buyer's limits waits for an approver, its stock held; a card order waits
    // for its payment with its stock held (DESIGN "Payments").
    ...(drafts[k]?.trade.awaitingApproval
      ? { status: "awaiting_approval" as const }
      : request.paymentMethod === "card"
        ? { status: "awaiting_payment" as const, paymentHoldUntil: new Date(now.getTime() + options.holdMs) }
        : {}),
    lines,
  }));
  // The order mail, whose texts name the numbers reserved in step 1. A card order's is written
  // when it is paid (payments/service.ts), so an abandoned card checkout mails nobody (issue 40).
  const mail = options.mail?.ordersPlacedInsert(
    drafted.flatMap((o, k) => {
      if (o.paymentMethod === "card") return [];
      const { priced } = drafts[k] as PlacedDraft;
      return [
        {
          id: o.id,
          number: o.number,
          userId: o.userId,
          totalCents: priced.totalCents,
          subtotalCents: priced.subtotalCents,
          discountCents: priced.discountCents,
          shippingCents: priced.shippingCents,
          taxCents: priced.taxCents,
          promoCode: o.promoCode,
          invoiceNumber: o.invoiceNumber,
          shippingMethodName: o.shippingMethodName,
          paymentMethod: o.paymentMethod,
          lines: o.lines.map((l) => ({ toolName: l.toolName, quantity: l.quantity, lineTotalCents: l.lineTotalCents })),
          quoteNumber: o.quoteNumber,
        },
      ];
    }),
  );
  if (mail) alongside.push(sql`placed_mail as (${mail})`);
  const approvals = options.mail?.approvalsInsert(
    drafts.flatMap((d) =>
      d.trade.awaitingApproval && d.trade.accountId ? [{ id: d.id, number: d.number, userId: d.request.userId, accountId: d.trade.accountId, totalCents: d.priced.totalCents }] : [],
    ),
  );
  if (approvals) alongside.push(sql`placed_approvals_mail as (${approvals})`);
  return insertOrders(tx, drafted, [...alongside, ...extra], now);
}

/** The terms of the account a member orders for. */
function termsOf(locked: Locked, userId: string) {
  const member = locked.pricing.members.get(userId);
  if (!member) throw new Error("a terms order without an account passed the policy");
  return member.terms;
}

/**
 * Why an order pays no tax: the profile's certificate or the account's for the region
 * (`exemptionFor`, pricing/input.ts); a quote's as its revision recorded it by that same rule when
 * it was priced (quotes/service.ts), never re-decided.
 */
function exemptionFields(request: PlacementRequest, locked: Locked, now: Date): { taxExemptCertificate: string | null; taxExemptRegion: string | null } {
  if (request.quoted) return { taxExemptCertificate: request.quoted.taxExemptCertificate, taxExemptRegion: request.quoted.taxExemptRegion };
  const place = destinationOf(request.delivery) ?? locked.pricing.store;
  const exemption = exemptionFor(locked.pricing, request.userId, place, now);
  return { taxExemptCertificate: exemption?.certificate ?? null, taxExemptRegion: exemption?.region ?? null };
}

/** Whatever opens a card order's payment page (the store's payments, `app.payments`). */
export interface PaymentStarter {
  startPayment(order: Order, userId: string): Promise<{ url: string } | undefined>;
}

/**
 * Step 7, after the commit: a card order's payment page is opened (a retry finds the one already
 * opened); the answer's order then shows it open, and the answer carries its address.
 */
export async function startPayment(payments: PaymentStarter, order: Order, userId: string): Promise<{ order: Order; payment?: { url: string } }> {
  const payment = await payments.startPayment(order, userId);
  return payment ? { order: { ...order, payment: { status: "open", url: payment.url, refundError: null } }, payment } : { order };
}

/** Orders placed before, by id, as the API shows them: what a retried request (the same key) is answered. */
export async function ordersById(tx: Tx, ids: string[]): Promise<Map<string, Order>> {
  if (ids.length === 0) return new Map();
  const placed = await withDetails(tx, await tx.select().from(orders).where(inArray(orders.id, ids)));
  return new Map(placed.map((o) => [o._id, o]));
}
