import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { COUNT_CAP, type PaymentMethod } from "../../contract/constants";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import type { Order, OrderEvent, OrderRefund, PaymentStatus } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
import { after, cappedCount, cappedTotal, splitPage, type Page } from "../db/paging";
import { decodeCursor } from "../http/paging";
import { orderEvents, orderLines, orders, payments, promotionRedemptions, promotions, refundLines, refunds, returns, shipments, stockMovements } from "../db/schema";
import { readReturns, toReturnDto, type ReturnLineRow } from "./returns";
import { readRefundedUnits, readShipments, withShipments, type RefundedUnits, type ShipmentLineRow, type ShipmentRow } from "./shipment-view";
import { issueCreditNote } from "./credit-notes";
import { returnToStock } from "../stock/ledger";
import type { Priced } from "../pricing/price";
import type { OrderMail } from "../mail/outbox";
import { openCents } from "./balance";
import { canMove, returnsStock, type OrderActor, type OrderStatus } from "../../contract/order-lifecycle";
import { badQuery, conflict, notFound } from "../http/errors";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import { SHIPMENT_TEXT } from "../../contract/texts/shipments";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type OrderEventRow = typeof orderEvents.$inferSelect;

/** Who moved an order, as its history tells it. */
export type ActorRole = OrderEvent["by"];

/** What an order shows of its card payment. */
export type PaymentView = Pick<typeof payments.$inferSelect, "status" | "url" | "refundError">;

export const toOrderDto = (row: OrderRow, lines: OrderLineRow[], events: OrderEventRow[], payment: PaymentView | null = null): Order => ({
  _id: row.id,
  number: row.number,
  toolId: row.toolId,
  name: row.toolName,
  quantity: row.quantity,
  unitPrice: centsToDollars(row.unitPriceCents),
  total: centsToDollars(row.totalCents),
  subtotal: centsToDollars(row.subtotalCents),
  discount: centsToDollars(row.discountCents),
  shipping: centsToDollars(row.shippingCents),
  tax: centsToDollars(row.taxCents),
  status: row.status,
  address: row.address,
  city: row.city,
  region: row.region,
  postalCode: row.postalCode,
  country: row.country,
  phone: row.phone,
  paymentMethod: row.paymentMethod,
  shippingMethod: row.shippingMethod,
  shippingMethodName: row.shippingMethodName,
  promoCode: row.promoCode,
  taxRate: row.taxRateName !== null && row.taxRateBasisPoints !== null ? { name: row.taxRateName, rateBasisPoints: row.taxRateBasisPoints } : null,
  taxExemptCertificate: row.taxExemptCertificate,
  invoiceNumber: row.invoiceNumber,
  creditNoteNumber: row.creditNoteNumber,
  paymentProblem: row.paymentProblem,
  payment: payment ? { status: payment.status as PaymentStatus, url: payment.status === "open" ? payment.url : null, refundError: payment.refundError } : null,
  paymentHoldUntil: row.paymentHoldUntil?.toISOString() ?? null,
  ...(row.quoteNumber ? { quoteNumber: row.quoteNumber } : {}),
  // A trade order's (DESIGN "Trade accounts"): its PO number, and a terms invoice's due date and what is still owed.
  ...(row.poNumber ? { poNumber: row.poNumber } : {}),
  ...(row.dueDate ? { dueDate: row.dueDate, balanceDue: centsToDollars(row.status === "cancelled" ? 0 : row.totalCents - row.paidCents) } : {}),
  ...(row.taxExemptRegion && row.taxExemptCertificate ? { taxExemption: { certificate: row.taxExemptCertificate, region: row.taxExemptRegion } } : {}),
  note: row.note,
  createdAt: row.createdAt.toISOString(),
  lines: [...lines]
    .sort((a, b) => a.position - b.position)
    .map((l) => ({
      toolId: l.toolId,
      name: l.toolName,
      quantity: l.quantity,
      unitPrice: centsToDollars(l.unitPriceCents),
      lineTotal: centsToDollars(l.lineTotalCents),
      subtotal: centsToDollars(l.lineTotalCents),
      discount: centsToDollars(l.discountCents),
      shipping: centsToDollars(l.shippingCents),
      tax: centsToDollars(l.taxCents),
      total: centsToDollars(l.totalCents),
      refundedQuantity: 0,
      shippedQuantity: 0,
    })),
  // Nothing refunded until withRefunds says otherwise (DESIGN "(shapes)"), nothing shipped until withShipments does.
  refundedTotal: 0,
  refunds: [],
  returns: [],
  shipments: [],
  paymentStatus: row.status === "paid" ? "paid" : "unpaid",
  fulfillmentStatus: row.status === "delivered" ? "delivered" : row.status === "shipped" ? "shipped" : "unfulfilled",
  history: [...events]
    .sort((a, b) => a.id - b.id)
    .map((e) => ({ status: e.status, at: e.createdAt.toISOString(), by: e.actorRole as ActorRole, ...(e.note ? { note: e.note } : {}) })),
});

/** Rows by a key (Map.groupBy arrives in Node 21; we run on 20). */
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

export type RefundRowOf = typeof refunds.$inferSelect;
export type RefundLineRowOf = typeof refundLines.$inferSelect;

export const toRefundDto = (r: RefundRowOf, lines: RefundLineRowOf[] = []): OrderRefund => ({
  _id: r.id,
  amount: centsToDollars(r.amountCents),
  status: r.status as OrderRefund["status"],
  kind: r.kind as OrderRefund["kind"],
  reason: r.reason,
  error: r.lastError,
  creditNoteNumber: r.creditNoteNumber,
  lines: [...lines]
    .sort((a, b) => a.position - b.position)
    .map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity, amount: centsToDollars(l.amountCents), restocked: l.restocked })),
  shipping: centsToDollars(r.shippingCents),
  restock: r.restock,
  returnId: r.returnId,
  createdAt: r.createdAt.toISOString(),
  settledAt: r.settledAt?.toISOString() ?? null,
});

/**
 * An order's refunds (oldest first), what they gave back (`refundedTotal`: those that
 * succeeded) and each line's units given back (`refundedQuantity`, the same refunds'); 0 and
 * none for an order without any (DESIGN "(shapes)").
 */
export function withRefunds(order: Order, rows: RefundRowOf[] | undefined, lines: RefundLineRowOf[] | undefined): Order {
  const sorted = [...(rows ?? [])].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const succeeded = new Set(sorted.filter((r) => r.status === "succeeded").map((r) => r.id));
  const refunded = sorted.filter((r) => succeeded.has(r.id)).reduce((s, r) => s + r.amountCents, 0);
  const linesOf = groupBy(lines ?? [], (l) => l.refundId);
  const units = new Map<string, number>();
  for (const l of lines ?? []) if (succeeded.has(l.refundId)) units.set(l.toolId, (units.get(l.toolId) ?? 0) + l.quantity);
  return {
    ...order,
    // What a terms invoice still owes is less what its refunds gave back (balance.ts).
    ...(order.balanceDue !== undefined ? { balanceDue: centsToDollars(openCents(dollarsToCents(order.balanceDue), 0, refunded)) } : {}),
    refundedTotal: centsToDollars(refunded),
    refunds: sorted.map((r) => toRefundDto(r, linesOf.get(r.id))),
    lines: order.lines.map((l) => ({ ...l, refundedQuantity: units.get(l.toolId) ?? 0 })),
  };
}

/** An order's returns, oldest first (rows of other orders are left out). */
export function withReturns(order: Order, rows: (typeof returns.$inferSelect)[], lines: ReturnLineRow[]): Order {
  const mine = rows.filter((r) => r.orderId === order._id).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return { ...order, returns: mine.map((r) => toReturnDto(r, lines.filter((l) => l.returnId === r.id))) };
}

/** The refunds of these orders, and their lines. */
async function readRefunds(db: Db | Tx, orderIds: string[]): Promise<[RefundRowOf[], RefundLineRowOf[]]> {
  return readAll<[RefundRowOf[], RefundLineRowOf[]]>(db, [
    () => db.select().from(refunds).where(inArray(refunds.orderId, orderIds)),
    () =>
      db
        .select({ line: refundLines })
        .from(refundLines)
        .innerJoin(refunds, eq(refunds.id, refundLines.refundId))
        .where(inArray(refunds.orderId, orderIds))
        .then((r) => r.map((x) => x.line)),
  ]);
}

/** These orders with their lines and history (and a card order's payment, and refunds): a few queries, however many orders. */
export async function withDetails(db: Db | Tx, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const cardIds = rows.filter((r) => r.paymentMethod === "card").map((r) => r.id);
  const [lines, events, cardPayments, [refundRows, refundLineRows], [returnRows, returnLineRows], parcels] = await readAll(db, [
    () => db.select().from(orderLines).where(inArray(orderLines.orderId, ids)),
    () => db.select().from(orderEvents).where(inArray(orderEvents.orderId, ids)).orderBy(asc(orderEvents.id)),
    () => (cardIds.length > 0 ? db.select().from(payments).where(inArray(payments.orderId, cardIds)) : Promise.resolve([])),
    () => readRefunds(db, ids),
    () => readReturns(db, ids),
    () => readParcels(db, ids),
  ] as const);
  const linesOf = groupBy(lines, (l) => l.orderId);
  const eventsOf = groupBy(events, (e) => e.orderId);
  const paymentOf = new Map(cardPayments.map((p) => [p.orderId, p]));
  const refundsOf = groupBy(refundRows, (r) => r.orderId);
  const orderOfRefund = new Map(refundRows.map((r) => [r.id, r.orderId]));
  const refundLinesOf = groupBy(refundLineRows, (l) => orderOfRefund.get(l.refundId) ?? "");
  return rows.map((row) =>
    withParcels(
      withReturns(
        withRefunds(toOrderDto(row, linesOf.get(row.id) ?? [], eventsOf.get(row.id) ?? [], paymentOf.get(row.id) ?? null), refundsOf.get(row.id), refundLinesOf.get(row.id)),
        returnRows,
        returnLineRows,
      ),
      parcels,
      row.paidCents,
    ),
  );
}

/** These orders' shipments and their refunds' units (what is left to ship counts them). */
interface Parcels {
  rows: ShipmentRow[];
  lines: ShipmentLineRow[];
  refunded: Map<string, Map<string, RefundedUnits[]>>;
}

async function readParcels(db: Db | Tx, ids: string[]): Promise<Parcels> {
  const [[rows, lines], refunded] = await readAll(db, [() => readShipments(db, ids), () => readRefundedUnits(db, ids)] as const);
  return { rows, lines, refunded };
}

const withParcels = (order: Order, parcels: Parcels, paidCents: number): Order =>
  withShipments(order, parcels.rows, parcels.lines, parcels.refunded.get(order._id) ?? new Map(), paidCents);

/** A line about to be ordered, priced (pricing/price.ts): lineTotalCents is its subtotal. */
export type NewOrderLine = Omit<OrderLineRow, "orderId" | "position">;

/** An order about to be placed: who, where to, how paid and delivered, its price, and its lines (at least one). */
export interface NewOrder {
  userId: string;
  address: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  phone: string;
  paymentMethod: PaymentMethod;
  note: string;
  shippingMethod: string;
  shippingMethodName: string;
  promotionId: string | null;
  promoCode: string | null;
  taxRateName: string | null;
  taxRateBasisPoints: number | null;
  taxExemptCertificate: string | null;
  /** Taken from the counter in the same transaction (invoices/numbers.ts); null only where no invoice is made. */
  invoiceNumber: string | null;
  /**
   * A card order starts awaiting its payment, its stock held until `paymentHoldUntil`; a trade
   * order over its buyer's limits awaiting approval; every other order starts pending.
   */
  status?: "pending" | "awaiting_payment" | "awaiting_approval";
  paymentHoldUntil?: Date | null;
  /** The quote the order accepts, and its number. */
  quoteId?: string | null;
  quoteNumber?: string | null;
  /** A trade order's account, PO number, due date (terms) and the region of its account's exemption. */
  accountId?: string | null;
  poNumber?: string | null;
  dueDate?: string | null;
  invoiceDate?: string | null;
  taxExemptRegion?: string | null;
  lines: NewOrderLine[];
}

/** The lines of a priced order, ready for `insertOrders`. */
export function pricedLines(lines: { toolId: string; toolName: string; quantity: number; unitPriceCents: number }[], priced: Priced): NewOrderLine[] {
  return lines.map((l, i) => {
    const p = priced.lines[i];
    if (!p || p.toolId !== l.toolId) throw new Error("priced lines do not match the order's lines");
    return { ...l, lineTotalCents: p.subtotalCents, discountCents: p.discountCents, shippingCents: p.shippingCents, taxCents: p.taxCents, totalCents: p.totalCents };
  });
}

/** What an order stores of its price besides the lines (the promotion's id is the caller's). */
export function pricedFields(priced: Priced): Pick<NewOrder, "shippingMethod" | "shippingMethodName" | "taxRateName" | "taxRateBasisPoints"> {
  return {
    shippingMethod: priced.shippingMethod.id,
    shippingMethodName: priced.shippingMethod.name,
    taxRateName: priced.taxRate?.name ?? null,
    taxRateBasisPoints: priced.taxRate?.rateBasisPoints ?? null,
  };
}

const sum = (lines: NewOrderLine[], pick: (l: NewOrderLine) => number) => lines.reduce((s, l) => s + pick(l), 0);

/**
 * Writes new orders, their lines and the first step of their history in ONE statement: one
 * round trip while the tools' rows are locked, and three parameters however many orders (the
 * rows travel as JSON), so building the query costs the same for one order as for a batch of
 * two hundred. Ids are made here (or by the caller), numbers by the database (or reserved by
 * the caller from the orders' sequence, as checkout_lock does). Nothing else is read back: the
 * answer is built from what was written (a hot path: both order desks call it for every batch).
 * `alongside`: more data-modifying CTEs (`name as (...)`) run by the same statement, so a
 * caller's other writes cost no round trip of their own; they see the statement's snapshot, not
 * the new orders (reference them by the ids the caller made).
 */
export async function insertOrders(tx: Tx, drafts: (NewOrder & { id?: string; number?: number })[], alongside: SQL[] = [], at0?: Date): Promise<Order[]> {
  if (drafts.length === 0) return [];
  // The placement's clock (a test's, for a trade account's month), else now.
  const createdAt = at0 ?? new Date();
  const at = createdAt.toISOString();
  const rows = drafts.map((draft) => {
    const first = draft.lines[0];
    if (!first) throw new Error("an order needs at least one line");
    return {
      id: draft.id ?? randomUUID(),
      number: draft.number ?? null,
      user_id: draft.userId,
      tool_id: first.toolId,
      tool_name: first.toolName,
      quantity: first.quantity,
      unit_price_cents: first.unitPriceCents,
      total_cents: sum(draft.lines, (l) => l.totalCents),
      subtotal_cents: sum(draft.lines, (l) => l.lineTotalCents),
      discount_cents: sum(draft.lines, (l) => l.discountCents),
      shipping_cents: sum(draft.lines, (l) => l.shippingCents),
      tax_cents: sum(draft.lines, (l) => l.taxCents),
      address: draft.address,
      city: draft.city,
      region: draft.region,
      postal_code: draft.postalCode,
      country: draft.country,
      phone: draft.phone,
      payment_method: draft.paymentMethod,
      note: draft.note,
      shipping_method: draft.shippingMethod,
      shipping_method_name: draft.shippingMethodName,
      promotion_id: draft.promotionId,
      promo_code: draft.promoCode,
      tax_rate_name: draft.taxRateName,
      tax_rate_basis_points: draft.taxRateBasisPoints,
      tax_exempt_certificate: draft.taxExemptCertificate,
      invoice_number: draft.invoiceNumber,
      status: draft.status ?? "pending",
      payment_hold_until: draft.paymentHoldUntil?.toISOString() ?? null,
      quote_id: draft.quoteId ?? null,
      quote_number: draft.quoteNumber ?? null,
      account_id: draft.accountId ?? null,
      po_number: draft.poNumber ?? null,
      due_date: draft.dueDate ?? null,
      invoice_date: draft.invoiceDate ?? null,
      tax_exempt_region: draft.taxExemptRegion ?? null,
    };
  });
  const lines = drafts.flatMap((draft, i) =>
    draft.lines.map((line, position) => ({
      order_id: rows[i]?.id,
      position,
      tool_id: line.toolId,
      tool_name: line.toolName,
      quantity: line.quantity,
      unit_price_cents: line.unitPriceCents,
      line_total_cents: line.lineTotalCents,
      discount_cents: line.discountCents,
      shipping_cents: line.shippingCents,
      tax_cents: line.taxCents,
      total_cents: line.totalCents,
    })),
  );
  const result = await tx.execute(sql`
    with o as (
      insert into ${orders} (id, number, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, subtotal_cents, discount_cents,
             shipping_cents, tax_cents, address, city, region, postal_code, country, phone, payment_method, note, shipping_method, shipping_method_name,
             promotion_id, promo_code, tax_rate_name, tax_rate_basis_points, tax_exempt_certificate, invoice_number, status, payment_hold_until, quote_id,
             quote_number, account_id, po_number, due_date, invoice_date, tax_exempt_region, created_at)
      select r.id, coalesce(r.number, nextval(pg_get_serial_sequence('orders', 'number'))), r.user_id, r.tool_id, r.tool_name, r.quantity,
             r.unit_price_cents, r.total_cents, r.subtotal_cents, r.discount_cents, r.shipping_cents, r.tax_cents, r.address, r.city, r.region,
             r.postal_code, r.country, r.phone, r.payment_method::payment_method, r.note, r.shipping_method, r.shipping_method_name, r.promotion_id,
             r.promo_code, r.tax_rate_name, r.tax_rate_basis_points, r.tax_exempt_certificate, r.invoice_number, r.status::order_status,
             r.payment_hold_until, r.quote_id, r.quote_number, r.account_id, r.po_number, r.due_date, r.invoice_date, r.tax_exempt_region, ${at}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id text, number integer, user_id text, tool_id text, tool_name text,
             quantity integer, unit_price_cents integer, total_cents bigint, subtotal_cents bigint, discount_cents bigint, shipping_cents bigint,
             tax_cents bigint, address text, city text, region text, postal_code text, country text, phone text, payment_method text, note text,
             shipping_method text, shipping_method_name text, promotion_id text, promo_code text, tax_rate_name text, tax_rate_basis_points integer,
             tax_exempt_certificate text, invoice_number text, status text, payment_hold_until timestamptz, quote_id text, quote_number text,
             account_id text, po_number text, due_date text, invoice_date text, tax_exempt_region text)
      returning id, number, user_id, status
    ), l as (
      insert into ${orderLines} (order_id, position, tool_id, tool_name, quantity, unit_price_cents, line_total_cents, discount_cents, shipping_cents, tax_cents, total_cents)
      select r.order_id, r.position, r.tool_id, r.tool_name, r.quantity, r.unit_price_cents, r.line_total_cents, r.discount_cents, r.shipping_cents,
             r.tax_cents, r.total_cents
        from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as r(order_id text, position smallint, tool_id text, tool_name text,
             quantity integer, unit_price_cents integer, line_total_cents bigint, discount_cents bigint, shipping_cents bigint, tax_cents bigint,
             total_cents bigint)
    ), e as (
      insert into ${orderEvents} (order_id, status, actor_id, actor_role, created_at)
      select o.id, o.status, o.user_id, 'customer', ${at}::timestamptz from o
    ), m as (
      insert into ${stockMovements} (tool_id, delta, reason, order_id, actor_id, created_at)
      select r.tool_id, -r.quantity, 'order', o.id, o.user_id, ${at}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as r(order_id text, tool_id text, quantity integer)
        join o on o.id = r.order_id
    )${alongside.length > 0 ? sql`, ${sql.join(alongside, sql`, `)}` : sql``}
    select id, number from o`);
  const numberOf = new Map((result as unknown as { rows: { id: string; number: number | string }[] }).rows.map((r) => [r.id, Number(r.number)]));
  return drafts.map((draft, i) => {
    const row = rows[i] as (typeof rows)[number];
    const number = numberOf.get(row.id);
    if (number === undefined) throw new Error(`order ${row.id} was not written`);
    const order: OrderRow = {
      id: row.id,
      number,
      userId: row.user_id,
      toolId: row.tool_id,
      toolName: row.tool_name,
      quantity: row.quantity,
      unitPriceCents: row.unit_price_cents,
      totalCents: row.total_cents,
      subtotalCents: row.subtotal_cents,
      discountCents: row.discount_cents,
      shippingCents: row.shipping_cents,
      taxCents: row.tax_cents,
      status: row.status,
      address: row.address,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
      phone: row.phone,
      paymentMethod: row.payment_method,
      note: row.note,
      shippingMethod: row.shipping_method,
      shippingMethodName: row.shipping_method_name,
      promotionId: row.promotion_id,
      promoCode: row.promo_code,
      taxRateName: row.tax_rate_name,
      taxRateBasisPoints: row.tax_rate_basis_points,
      taxExemptCertificate: row.tax_exempt_certificate,
      invoiceNumber: row.invoice_number,
      creditNoteNumber: null,
      creditedAt: null,
      paymentProblem: null,
      paymentHoldUntil: draft.paymentHoldUntil ?? null,
      quoteId: row.quote_id,
      quoteNumber: row.quote_number,
      accountId: row.account_id,
      poNumber: row.po_number,
      dueDate: row.due_date,
      invoiceDate: row.invoice_date,
      paidCents: 0,
      taxExemptRegion: row.tax_exempt_region,
      createdAt,
      cancelledAt: null,
    };
    const orderLinesOf = draft.lines.map((line, position) => ({ ...line, orderId: row.id, position }));
    // The event's id only orders a history; a new order's has one step.
    return toOrderDto(order, orderLinesOf, [{ id: 0, orderId: row.id, status: row.status, actorId: row.user_id, actorRole: "customer", note: null, createdAt }]);
  });
}

/** An order's lines and history as `listOrders` reads them with the order (json_agg). */
interface LineJson {
  toolId: string;
  toolName: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  position: number;
}
interface EventJson {
  id: number;
  status: OrderRow["status"];
  actorRole: string;
  note: string | null;
  /** As Postgres writes a timestamptz in JSON (microseconds, an offset). */
  at: string;
}

/**
 * A customer's orders, newest first, from their index: a page number up to MAX_PAGE or the
 * cursor of the page before; the total counted up to COUNT_CAP. One statement: each order comes
 * with its lines and history (json_agg) and the page with the capped total, since My Orders is
 * asked for on every visit of the dashboard (four statements in two round trips cost a
 * customer's orders p95 13.6 ms at 1,000,000 orders, bench/scale.ts).
 */
export async function listOrders(
  db: Db,
  userId: string,
  query: { page: number; limit: number; cursor?: string | undefined },
): Promise<Page<Order>> {
  const mine = eq(orders.userId, userId);
  const conditions = [mine];
  if (query.cursor) {
    const [created, number] = decodeCursor(query.cursor, ["string", "number"]);
    if (Number.isNaN(Date.parse(String(created)))) throw badQuery("cursor", VALIDATION_TEXT.cursorInvalid);
    conditions.push(after([sql`${orders.createdAt}`, sql`${orders.number}`], [sql`${created}::timestamptz`, sql`${number}`], true));
  }
  // The subqueries name the outer row in full: Drizzle writes a one-table select's columns bare,
  // and a bare "id" inside them would be the history's own id.
  const select = db
    .select({
      row: orders,
      created: sql<string>`${orders.createdAt}::text`,
      lines: sql<LineJson[]>`(select coalesce(json_agg(json_build_object('toolId', l.tool_id, 'toolName', l.tool_name, 'quantity', l.quantity,
        'unitPriceCents', l.unit_price_cents, 'lineTotalCents', l.line_total_cents, 'discountCents', l.discount_cents,
        'shippingCents', l.shipping_cents, 'taxCents', l.tax_cents, 'totalCents', l.total_cents, 'position', l.position)), '[]'::json)
        from ${orderLines} l where l.order_id = "orders"."id")`,
      events: sql<EventJson[]>`(select coalesce(json_agg(json_build_object('id', e.id, 'status', e.status, 'actorRole', e.actor_role, 'note', e.note, 'at', e.created_at)), '[]'::json)
        from ${orderEvents} e where e.order_id = "orders"."id")`,
      payment: sql<PaymentView | null>`(select json_build_object('status', p.status, 'url', p.url, 'refundError', p.refund_error) from ${payments} p where p.order_id = "orders"."id")`,
      counted: sql<number>`(select count(*) from (select 1 from ${orders} mine where mine.user_id = ${userId} limit ${COUNT_CAP + 1}) capped)`.mapWith(Number),
      // Whether it has refunds: only then are they read (a second statement, for those orders alone).
      refunded: sql<boolean>`(exists (select 1 from ${refunds} r where r.order_id = "orders"."id") or exists (select 1 from ${returns} rt where rt.order_id = "orders"."id"))`,
      // Whether it has shipments: only then are they read.
      shipped: sql<boolean>`exists (select 1 from ${shipments} sh where sh.order_id = "orders"."id")`,
    })
    .from(orders)
    .where(and(...conditions))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(query.limit + 1);
  const rows = await (query.cursor ? select : select.offset((query.page - 1) * query.limit));
  const first = rows[0];
  // No row, no total with it: a first page is an exact 0, a page past the end counts.
  const firstPage = query.page === 1 && !query.cursor;
  const total = first || firstPage ? cappedTotal(first?.counted ?? 0) : await cappedCount(db, db.select({ one: sql`1` }).from(orders).where(mine).$dynamic());
  const page = splitPage(rows, query.limit, (r) => [r.created, r.row.number]);
  const refundedIds = page.rows.filter((r) => r.refunded).map((r) => r.row.id);
  const shippedIds = page.rows.filter((r) => r.shipped).map((r) => r.row.id);
  const [[refundRows, refundLineRows], [returnRows, returnLineRows], parcels] = await readAll(db, [
    async () => (refundedIds.length > 0 ? readRefunds(db, refundedIds) : ([[], []] as [RefundRowOf[], RefundLineRowOf[]])),
    async () => (refundedIds.length > 0 ? readReturns(db, refundedIds) : ([[], []] as Awaited<ReturnType<typeof readReturns>>)),
    async () => (shippedIds.length > 0 || refundedIds.length > 0 ? readParcels(db, [...new Set([...shippedIds, ...refundedIds])]) : ({ rows: [], lines: [], refunded: new Map() } as Parcels)),
  ] as const);
  const refundsOf = groupBy(refundRows, (r) => r.orderId);
  const items = page.rows.map((r) =>
    withParcels(
    withReturns(
    withRefunds(
      toOrderDto(
        r.row,
        r.lines.map((l) => ({ ...l, orderId: r.row.id })),
        r.events.map((e) => ({ id: Number(e.id), orderId: r.row.id, status: e.status, actorId: null, actorRole: e.actorRole, note: e.note, createdAt: new Date(e.at) })),
        r.payment,
      ),
      refundsOf.get(r.row.id),
      refundLineRows,
    ),
    returnRows,
    returnLineRows,
    ),
    parcels,
    r.row.paidCents,
    ),
  );
  return { items, ...total, next: page.next };
}

/** One of the caller's orders; anyone else's is not found. */
export async function getOrder(db: Db, userId: string, orderId: string): Promise<Order> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!row) throw notFound(API_TEXT.orderNotFound);
  const [order] = await withDetails(db, [row]);
  return order as Order;
}

/**
 * Returns every line's stock of an order that has just been cancelled (in `tx`), tools in
 * id order like every other transaction that locks tools, each as a movement in the ledger.
 */
export async function restockCancelled(tx: Tx, order: OrderRow, actor: { id: string | null }): Promise<void> {
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const perTool = new Map<string, number>();
  for (const line of lines) perTool.set(line.toolId, (perTool.get(line.toolId) ?? 0) + line.quantity);
  await returnToStock(tx, perTool, { reason: "cancel", orderId: order.id, actorId: actor.id });
}

/**
 * A cancelled order gives its promotion code's use back, exactly once: the redemption row is
 * marked released only if it was not, and only then is the promotion's counter lowered.
 */
export async function releasePromotion(tx: Tx, orderId: string): Promise<void> {
  await tx.execute(sql`
    with released as (
      update ${promotionRedemptions} set released_at = now() where order_id = ${orderId} and released_at is null returning promotion_id
    )
    update ${promotions} p set redemptions = p.redemptions - 1 from released where p.id = released.promotion_id`);
}

/** Who asks for a move: a customer may only move their own orders (anyone else's is not found). */
export interface MoveActor {
  /** Null for the store itself (a payment provider's webhook, the payment hold running out). */
  id: string | null;
  role: OrderActor;
}

export interface MoveResult {
  /** The order before the move (or as it is, when nothing moved). */
  before: OrderRow;
  after: OrderRow;
  /** False when the order already had that status: a repeated request changes nothing. */
  moved: boolean;
}

/**
 * THE one place where an order changes status: every move (a customer's cancel, an admin's
 * step along the lifecycle) goes through here. In one transaction it locks the order's row,
 * checks the lifecycle (order-lifecycle.ts) for this actor, updates the status, writes the
 * history step and, for a cancel, returns the stock (exactly once: the row lock makes a
 * second cancel see the first one's result and change nothing). `inTransaction` runs in the
 * same transaction after the move (the audit entry, a mail in the outbox).
 *
 * Throws 404 for an unknown order (or another customer's), 409 for a move the lifecycle forbids.
 */
export async function moveOrderStatus(
  db: Db,
  orderId: string,
  to: OrderStatus,
  actor: MoveActor,
  inTransaction?: (tx: Tx, result: MoveResult) => Promise<void>,
  /** The customer's e-mail about the move (shipped, cancelled), written in the same transaction. */
  mail?: OrderMail,
  /** Said in the history beside the move (a refund and its state). */
  note?: string,
): Promise<MoveResult> {
  const result = await db.transaction((tx) => moveInTransaction(tx, orderId, to, actor, { inTransaction, mail, note }));
  announceMove(db, result, to);
  return result;
}

/** What a committed move changed for the lists and caches of every instance. */
export function announceMove(db: Db, result: MoveResult, to: OrderStatus): void {
  if (result.moved && returnsStock(to)) announceChange(db, "tools");
  // A delivered order makes its customer's reviews 'Verified buyer'.
  if (result.moved && to === "delivered") announceChange(db, "reviews");
}

/** moveOrderStatus inside a transaction the caller holds (the payment webhook's); the caller announces the move once committed. */
export async function moveInTransaction(
  tx: Tx,
  orderId: string,
  to: OrderStatus,
  actor: MoveActor,
  options: { inTransaction?: ((tx: Tx, result: MoveResult) => Promise<void>) | undefined; mail?: OrderMail | undefined; note?: string | undefined } = {},
): Promise<MoveResult> {
  const { inTransaction, mail, note } = options;
  const ownOnly = actor.role === "customer" && actor.id !== null ? eq(orders.userId, actor.id) : undefined;
  const [before] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), ownOnly))
    // Enough to serialize moves; new rows pointing at the order (its events) are not blocked.
    .for("no key update");
  if (!before) throw notFound(API_TEXT.orderNotFound);
  if (before.status === to) return { before, after: before, moved: false };
  if (!canMove(before.status, to, actor.role)) {
    if (actor.role === "customer" && to === "cancelled") throw conflict("ORDER_NOT_PENDING", API_TEXT.orderNotPending);
    throw conflict("ORDER_MOVE_FORBIDDEN", ADMIN_API_TEXT.orderMoveForbidden(before.status, to));
  }
  const cancelling = to === "cancelled";
  // A cancel's credit note takes back the whole invoice: with payments against it, the statement
  // would owe the customer what they paid, never given back. Refunded instead (issue 49).
  if (cancelling && before.paymentMethod === "terms" && before.paidCents > 0) throw conflict("INVOICE_PAID", TRADE_TEXT.invoicePaidCancel);
  // A cancel gives every unit back to stock: not once a parcel left (issue 52). Cancel the parcels, or refund what is left.
  if (cancelling || to === "refunding") {
    const [parcel] = await tx
      .select({ id: shipments.id })
      .from(shipments)
      .where(and(eq(shipments.orderId, orderId), ne(shipments.status, "cancelled")))
      .limit(1);
    if (parcel) throw conflict("ORDER_PARTLY_SHIPPED", SHIPMENT_TEXT.partlyShipped);
  }
  const [moved0] = await tx
    .update(orders)
    .set({ status: to, ...(cancelling ? { cancelledAt: sql`now()` } : {}) })
    .where(eq(orders.id, orderId))
    .returning();
  if (!moved0) throw new Error("order row vanished under its lock");
  let after = moved0;
  await tx.insert(orderEvents).values({ orderId, status: to, actorId: actor.id, actorRole: actor.role, note: note ?? null });
  if (returnsStock(to)) await restockCancelled(tx, after, actor);
  if (cancelling) {
    await releasePromotion(tx, orderId);
    // An order with an invoice gets a credit note, numbered like the invoice from the counter in
    // this transaction, last (the counter's row is held only to the commit). Once: the order's
    // row lock makes a second cancel see this one and change nothing.
    if (after.invoiceNumber && !after.creditNoteNumber) {
      await issueCreditNote(tx, { orderId });
      const [credited] = await tx.select().from(orders).where(eq(orders.id, orderId));
      if (credited) after = credited;
    }
  }
  const moved: MoveResult = { before, after, moved: true };
  await inTransaction?.(tx, moved);
  // A card order is announced when it is paid (payments/service.ts): one cancelled before that,
  // with no payment to look at (waiting for its payment, or still for its account's approver),
  // was never announced and is cancelled without a word (issues 40, 49).
  const unpaidCard = before.status === "awaiting_payment" || (before.status === "awaiting_approval" && before.paymentMethod === "card");
  const unannounced = cancelling && unpaidCard && before.paymentProblem === null;
  if (!unannounced) await mail?.statusMoved(tx, after);
  return moved;
}

/**
 * Cancels the caller's own pending order and returns each line's stock (moveOrderStatus).
 * Repeating the cancel changes nothing and says so; a paid or later order is 409; someone
 * else's order is simply not found.
 */
export async function cancelOrder(db: Db, userId: string, orderId: string, mail?: OrderMail): Promise<Order> {
  await moveOrderStatus(db, orderId, "cancelled", { id: userId, role: "customer" }, undefined, mail);
  return getOrder(db, userId, orderId);
}
