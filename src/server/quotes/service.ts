/**
 * Quotes (DESIGN "Quotes", issue 41): a customer's request, immutable once sent; the owner's
 * revisions, each immutable once sent and priced by the Money rules for the quote's address; the
 * customer's decline; the owner's withdrawal; expiry; and the optional stock hold. Acceptance is
 * accept.ts (it places the order through the one placement).
 *
 * Every change of a quote runs in one transaction with the quote's row locked (FOR UPDATE), the
 * one lock order of every quote path: the caller's idempotency key (acceptance), the quote, then
 * the tools in id order. So a revision, a decline, a withdrawal, the expiry sweep and an accept
 * racing for one quote take turns, and each sees what the one before it left.
 *
 * The stock hold: a revision sent with `holdStock` takes its units from the stock (ledger reason
 * `quote_hold`); they go back (`quote_release`) exactly once, when the revision is declined,
 * withdrawn, superseded or expires, or are used by the order that accepts it. "Once" is
 * `hold_released_at`, set by a conditional UPDATE in the same transaction as the stock's return:
 * a second release finds it set and returns nothing.
 *
 * A revision whose validity has passed reads as expired at once (`statusOf`); the sweep
 * (`expireDueQuotes`, every instance runs it) writes it down and gives a held stock back.
 */
import { and, asc, count, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import type { QuoteRevisionStatus, QuoteStatus } from "../../contract/quote-states";
import type { AdminQuote, Quote, QuoteRequest, QuoteRevision, QuoteRevisionRequest } from "../../contract/quote-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { MONEY_TEXT } from "../../contract/texts/money";
import { QUOTE_API_TEXT, QUOTE_TEXT } from "../../contract/texts/quotes";
import { announceChange } from "../db/changes";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
import { quoteLines, quoteRevisions, quotes, tools, user, type QuoteLineCents } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { documentYear, takeDocumentNumbers } from "../invoices/numbers";
import { loadPricingContext } from "../pricing/context";
import { exemptionFor, quotePricingInput } from "../pricing/input";
import { price } from "../pricing/price";
import { changeStock } from "../stock/ledger";
import type { QuoteMail } from "./mail";

export type QuoteRow = typeof quotes.$inferSelect;
export type RevisionRow = typeof quoteRevisions.$inferSelect;
type LineRow = typeof quoteLines.$inferSelect;

// ---------------------------------------------------------------- reading

/** A revision's status as it reads now: a sent one past its validity is expired, even before the sweep writes it. */
export const revisionStatusOf = (r: Pick<RevisionRow, "status" | "validUntil">, now = new Date()): QuoteRevisionStatus =>
  r.status === "sent" && r.validUntil.getTime() <= now.getTime() ? "expired" : r.status;

/** The quote's status as it reads now (its current revision expired → expired). */
export function statusOf(quote: Pick<QuoteRow, "status">, revisions: Pick<RevisionRow, "status" | "validUntil">[], now = new Date()): QuoteStatus {
  const current = revisions.at(-1);
  return quote.status === "sent" && current && revisionStatusOf(current, now) === "expired" ? "expired" : quote.status;
}

const revisionDto = (r: RevisionRow, now: Date): QuoteRevision => ({
  revision: r.revision,
  status: revisionStatusOf(r, now),
  lines: r.lines.map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity, unitPrice: centsToDollars(l.unitPriceCents), lineTotal: centsToDollars(l.lineTotalCents) })),
  subtotal: centsToDollars(r.subtotalCents),
  shipping: centsToDollars(r.shippingCents),
  tax: centsToDollars(r.taxCents),
  total: centsToDollars(r.totalCents),
  validUntil: r.validUntil.toISOString(),
  message: r.message,
  holdStock: r.holdStock,
  taxRate: r.taxRateName !== null && r.taxRateBasisPoints !== null ? { name: r.taxRateName, rateBasisPoints: r.taxRateBasisPoints } : null,
  taxExemptCertificate: r.taxExemptCertificate,
  ...(r.taxExemptRegion && r.taxExemptCertificate ? { taxExemption: { certificate: r.taxExemptCertificate, region: r.taxExemptRegion } } : {}),
  createdAt: r.createdAt.toISOString(),
});

export function toQuoteDto(q: QuoteRow, lines: LineRow[], revisions: RevisionRow[], now = new Date()): Quote {
  const ordered = [...revisions].sort((a, b) => a.revision - b.revision);
  return {
    _id: q.id,
    number: q.number,
    status: statusOf(q, ordered, now),
    lines: [...lines].sort((a, b) => a.position - b.position).map((l) => ({ toolId: l.toolId, name: l.toolName, quantity: l.quantity })),
    message: q.message,
    neededBy: q.neededBy,
    address: q.address,
    city: q.city,
    region: q.region,
    postalCode: q.postalCode,
    country: q.country,
    revisions: ordered.map((r) => revisionDto(r, now)),
    orderId: q.orderId,
    createdAt: q.createdAt.toISOString(),
  };
}

/** These quotes with their lines and revisions: two more queries, however many quotes. */
async function withDetails(db: Db | Tx, rows: QuoteRow[], now: Date): Promise<Quote[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, revisions] = await readAll(db, [
    () => db.select().from(quoteLines).where(inArray(quoteLines.quoteId, ids)),
    () => db.select().from(quoteRevisions).where(inArray(quoteRevisions.quoteId, ids)),
  ] as const);
  return rows.map((q) =>
    toQuoteDto(
      q,
      lines.filter((l) => l.quoteId === q.id),
      revisions.filter((r) => r.quoteId === q.id),
      now,
    ),
  );
}

/** The caller's quotes, newest first, as they read at `now` (the app's clock). */
export async function listQuotes(db: Db, userId: string, query: { page: number; limit: number }, now = new Date()): Promise<{ items: Quote[]; total: number }> {
  const mine = eq(quotes.userId, userId);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(quotes)
      .where(mine)
      .orderBy(desc(quotes.createdAt), desc(quotes.number))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(quotes).where(mine),
  ]);
  return { items: await withDetails(db, rows, now), total: counted?.n ?? 0 };
}

/** One of the caller's quotes; anyone else's is not found. */
export async function getQuote(db: Db | Tx, userId: string, id: string, now = new Date()): Promise<Quote> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, id), eq(quotes.userId, userId)));
  if (!row) throw notFound(QUOTE_API_TEXT.notFound);
  return (await withDetails(db, [row], now))[0] as Quote;
}

/** The console's list: every quote (or those in `status`), newest first, with its customer. */
export async function listAdminQuotes(db: Db, query: { status?: QuoteStatus | undefined; page: number; limit: number }, now = new Date()): Promise<{ items: AdminQuote[]; total: number }> {
  // "expired" is also a sent quote whose revision's validity has passed and the sweep has not written yet.
  const where =
    query.status === undefined
      ? undefined
      : query.status === "expired"
        ? sql`(${quotes.status} = 'expired' or (${quotes.status} = 'sent' and exists (select 1 from ${quoteRevisions} r where r.quote_id = ${quotes.id} and r.status = 'sent' and r.valid_until <= ${now.toISOString()}::timestamptz)))`
        : query.status === "sent"
          ? sql`(${quotes.status} = 'sent' and not exists (select 1 from ${quoteRevisions} r where r.quote_id = ${quotes.id} and r.status = 'sent' and r.valid_until <= ${now.toISOString()}::timestamptz))`
          : eq(quotes.status, query.status);
  const [rows, [counted]] = await Promise.all([
    db
      .select({ quote: quotes, name: user.name, email: user.email })
      .from(quotes)
      .leftJoin(user, eq(user.id, quotes.userId))
      .where(where)
      .orderBy(desc(quotes.createdAt), desc(quotes.number))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(quotes).where(where),
  ]);
  const details = await withDetails(
    db,
    rows.map((r) => r.quote),
    now,
  );
  return { items: details.map((q, i) => ({ ...q, customer: rows[i]?.email ? { name: rows[i]?.name ?? "", email: rows[i]?.email ?? "" } : null })), total: counted?.n ?? 0 };
}

export async function getAdminQuote(db: Db | Tx, id: string, now = new Date()): Promise<AdminQuote> {
  const [row] = await db
    .select({ quote: quotes, name: user.name, email: user.email })
    .from(quotes)
    .leftJoin(user, eq(user.id, quotes.userId))
    .where(eq(quotes.id, id));
  if (!row) throw notFound(QUOTE_API_TEXT.notFound);
  const [quote] = await withDetails(db, [row.quote], now);
  return { ...(quote as Quote), customer: row.email ? { name: row.name ?? "", email: row.email } : null };
}

// ---------------------------------------------------------------- the customer's request

interface ToolState {
  id: string;
  name: string;
  active: boolean;
  minimumQuantity: number;
  availableQuantity: number;
}

/** The tools of some lines, locked in id order (the one lock order) or read. */
async function toolsOf(tx: Tx, ids: string[], lock: boolean): Promise<Map<string, ToolState>> {
  const select = tx
    .select({ id: tools.id, name: tools.name, active: tools.active, minimumQuantity: tools.minimumQuantity, availableQuantity: tools.availableQuantity })
    .from(tools)
    .where(inArray(tools.id, [...new Set(ids)]))
    .orderBy(asc(tools.id));
  const rows = lock ? await select.for("no key update") : await select;
  return new Map(rows.map((t) => [t.id, t]));
}

/**
 * The lines' tools must be sold and each quantity at least the tool's minimum; a request or a
 * revision that breaks it is refused naming the line, and nothing is written. `unavailable`
 * decides the answer to a tool no longer sold (the request: bad input; a revision: a conflict
 * with the catalogue, "the revision cannot be sent").
 */
function checkLines(lines: { toolId: string; quantity: number }[], toolOf: Map<string, ToolState>, unavailable: "400" | "409"): void {
  const details: { path: string; message: string }[] = [];
  lines.forEach((line, i) => {
    const tool = toolOf.get(line.toolId);
    if (!tool?.active) {
      const message = QUOTE_API_TEXT.toolUnavailable(tool?.name ?? line.toolId);
      if (unavailable === "409") throw new ApiError(409, "QUOTE_TOOL_UNAVAILABLE", message, { details: [{ path: `body.lines.${i}.toolId`, message }] });
      details.push({ path: `body.lines.${i}.toolId`, message });
    } else if (line.quantity < tool.minimumQuantity) {
      details.push({ path: `body.lines.${i}.quantity`, message: API_TEXT.belowMinimum(tool.minimumQuantity) });
    }
  });
  const [first] = details;
  if (!first) return;
  const below = details.every((d) => d.path.endsWith(".quantity"));
  throw new ApiError(400, below ? "BELOW_MINIMUM" : "VALIDATION", first.message, { details });
}

/** POST /api/quotes: the request, numbered Q-YYYY-NNNNNN (gapless, from the counter in this transaction), and the owners mailed. */
export async function requestQuote(db: Db, userId: string, input: QuoteRequest, mail: QuoteMail | undefined): Promise<Quote> {
  return db.transaction(async (tx) => {
    const toolOf = await toolsOf(
      tx,
      input.lines.map((l) => l.toolId),
      false,
    );
    checkLines(input.lines, toolOf, "400");
    const [number] = await takeDocumentNumbers(tx, "Q", documentYear(), 1);
    const [quote] = await tx
      .insert(quotes)
      .values({
        number: number as string,
        userId,
        message: input.message,
        neededBy: input.neededBy ?? null,
        address: input.address,
        city: input.city,
        region: input.region,
        postalCode: input.postalCode,
        country: input.country,
      })
      .returning();
    if (!quote) throw new Error("quote insert returned no row");
    const lines = await tx
      .insert(quoteLines)
      .values(input.lines.map((l, position) => ({ quoteId: quote.id, position, toolId: l.toolId, toolName: (toolOf.get(l.toolId) as ToolState).name, quantity: l.quantity })))
      .returning();
    const [customer] = await tx.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, userId));
    await mail?.requested(tx, quote, customer ? `${customer.name} <${customer.email}>` : userId);
    return toQuoteDto(quote, lines, []);
  });
}

// ---------------------------------------------------------------- states

/** The quote's row, locked until the transaction ends; someone else's (for a customer) is not found. */
export async function lockQuote(tx: Tx, id: string, userId?: string): Promise<QuoteRow> {
  const [row] = await tx
    .select()
    .from(quotes)
    .where(and(eq(quotes.id, id), userId === undefined ? undefined : eq(quotes.userId, userId)))
    .for("update");
  if (!row) throw notFound(QUOTE_API_TEXT.notFound);
  return row;
}

/** The quote's newest revision (the current one), or undefined before the first is sent. */
export async function currentRevision(tx: Tx, quoteId: string): Promise<RevisionRow | undefined> {
  const [row] = await tx.select().from(quoteRevisions).where(eq(quoteRevisions.quoteId, quoteId)).orderBy(desc(quoteRevisions.revision)).limit(1);
  return row;
}

/** Why an open offer is not open: accepted, declined or withdrawn, or its revision expired. */
export function closedError(quote: QuoteRow, current: RevisionRow | undefined, now = new Date()): ApiError | null {
  if (quote.status === "accepted") return conflict("QUOTE_ALREADY_ACCEPTED", QUOTE_API_TEXT.alreadyAccepted);
  if (quote.status === "declined" || quote.status === "withdrawn") return conflict("QUOTE_CLOSED", QUOTE_API_TEXT.closed);
  if (!current) return conflict("QUOTE_NOT_SENT", QUOTE_API_TEXT.notSent);
  if (quote.status === "expired" || revisionStatusOf(current, now) !== "sent") return conflict("QUOTE_EXPIRED", QUOTE_API_TEXT.expired);
  return null;
}

/**
 * Gives a revision's held units back to the stock, exactly once (`hold_released_at` is set by a
 * conditional UPDATE: a second call finds it set and does nothing); or, with `usedBy`, marks them
 * used by the order that accepted it (the caller hands them to its placement). Answers the units
 * released.
 */
export async function releaseHold(tx: Tx, revision: Pick<RevisionRow, "id">, quoteNumber: string, how: { actorId: string | null } | { usedBy: true }): Promise<QuoteLineCents[]> {
  const [released] = await tx
    .update(quoteRevisions)
    .set({ holdReleasedAt: sql`now()` })
    .where(and(eq(quoteRevisions.id, revision.id), eq(quoteRevisions.holdStock, true), sql`${quoteRevisions.holdReleasedAt} is null`))
    .returning({ lines: quoteRevisions.lines });
  if (!released) return [];
  if ("usedBy" in how) return released.lines;
  // Through the ledger: the tools' stock rises in their id order, each rise a movement.
  await changeStock(
    tx,
    released.lines.map((l) => ({ toolId: l.toolId, delta: l.quantity, reason: "quote_release" as const, note: quoteNumber, actorId: how.actorId })),
  );
  return released.lines;
}

/** POST /api/quotes/:id/decline: the current revision is declined (its hold released); repeating it changes nothing. */
export async function declineQuote(db: Db, userId: string, id: string, mail: QuoteMail | undefined, now = new Date()): Promise<Quote> {
  let released = false;
  const quote = await db.transaction(async (tx) => {
    const quote = await lockQuote(tx, id, userId);
    if (quote.status === "declined") return getQuote(tx, userId, id, now);
    const current = await currentRevision(tx, id);
    const closed = closedError(quote, current, now);
    if (closed) throw closed;
    const revision = current as RevisionRow;
    await tx.update(quoteRevisions).set({ status: "declined" }).where(eq(quoteRevisions.id, revision.id));
    await tx.update(quotes).set({ status: "declined" }).where(eq(quotes.id, id));
    released = (await releaseHold(tx, revision, quote.number, { actorId: userId })).length > 0;
    await mail?.declined(tx, quote);
    return getQuote(tx, userId, id, now);
  });
  if (released) announceChange(db, "tools");
  return quote;
}

// ---------------------------------------------------------------- the owner's answers

/**
 * POST /api/admin/quotes/:id/revisions: a new revision, priced (DESIGN "Money") for the quote's
 * address at the owner's unit prices and shipping; the previous sent one is superseded (its hold
 * released). With `holdStock` its units are taken from the stock now, all or none (409
 * NOT_ENOUGH_STOCK naming what is left). A tool no longer sold cannot be offered (409
 * QUOTE_TOOL_UNAVAILABLE); a quantity below the tool's minimum is refused (400). Nothing is
 * written unless the whole revision is.
 */
export async function sendRevision(db: Db, actorId: string, id: string, input: QuoteRevisionRequest, mail: QuoteMail | undefined, now = new Date()): Promise<QuoteRevision> {
  let stockMoved = false;
  const sent = await db.transaction(async (tx) => {
    const quote = await lockQuote(tx, id);
    if (quote.status === "accepted") throw conflict("QUOTE_ALREADY_ACCEPTED", QUOTE_API_TEXT.alreadyAccepted);
    if (quote.status === "declined" || quote.status === "withdrawn") throw conflict("QUOTE_CLOSED", QUOTE_API_TEXT.closed);
    const previous = await currentRevision(tx, id);

    // The tools, locked in id order (after the quote): what is offered and held is what they hold now.
    const toolOf = await toolsOf(
      tx,
      input.lines.map((l) => l.toolId),
      true,
    );
    checkLines(input.lines, toolOf, "409");

    // The previous offer ends here: superseded, its held units back (before this one takes its own).
    if (previous?.status === "sent") {
      await tx.update(quoteRevisions).set({ status: "superseded" }).where(eq(quoteRevisions.id, previous.id));
      for (const line of await releaseHold(tx, previous, quote.number, { actorId })) {
        stockMoved = true;
        const tool = toolOf.get(line.toolId);
        if (tool) tool.availableQuantity += line.quantity;
      }
    }
    if (input.holdStock) {
      for (const [i, line] of input.lines.entries()) {
        const tool = toolOf.get(line.toolId) as ToolState;
        if (line.quantity > tool.availableQuantity) {
          const message = API_TEXT.notEnoughStock(tool.availableQuantity);
          throw new ApiError(409, "NOT_ENOUGH_STOCK", message, { available: tool.availableQuantity, details: [{ path: `body.lines.${i}.quantity`, message }] });
        }
      }
    }

    // Priced by the Money rules: the owner's unit prices, the quoted shipping, the tax of the quote's address (or the store's).
    const destination = quote.country === "" ? null : { country: quote.country, region: quote.region, postalCode: quote.postalCode };
    const ctx = await loadPricingContext(tx, { places: destination ? [destination] : [], toolIds: input.lines.map((l) => l.toolId), userIds: [quote.userId] });
    const priced = price(
      quotePricingInput(
        ctx,
        {
          userId: quote.userId,
          lines: input.lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity, unitPriceCents: dollarsToCents(l.unitPrice) })),
          destination,
          shipping: { name: destination ? QUOTE_TEXT.quotedDelivery : MONEY_TEXT.pickup, priceCents: dollarsToCents(input.shipping) },
        },
        now,
      ),
    );
    // Why it pays no tax, recorded as an order records it: the one rule the pricing just applied (pricing/input.ts).
    const exemption = exemptionFor(ctx, quote.userId, destination ?? ctx.store, now);
    const lines: QuoteLineCents[] = input.lines.map((l, i) => {
      const p = priced.lines[i];
      if (!p) throw new Error("priced lines do not match the revision's");
      return {
        toolId: l.toolId,
        toolName: (toolOf.get(l.toolId) as ToolState).name,
        quantity: l.quantity,
        unitPriceCents: p.unitPriceCents,
        lineTotalCents: p.subtotalCents,
        shippingCents: p.shippingCents,
        taxCents: p.taxCents,
        totalCents: p.totalCents,
      };
    });
    const [revision] = await tx
      .insert(quoteRevisions)
      .values({
        quoteId: id,
        revision: (previous?.revision ?? 0) + 1,
        status: "sent",
        lines,
        subtotalCents: priced.subtotalCents,
        shippingCents: priced.shippingCents,
        taxCents: priced.taxCents,
        totalCents: priced.totalCents,
        shippingMethod: priced.shippingMethod.id,
        taxRateName: priced.taxRate?.name ?? null,
        taxRateBasisPoints: priced.taxRate?.rateBasisPoints ?? null,
        taxExemptCertificate: exemption?.certificate ?? null,
        taxExemptRegion: exemption?.region ?? null,
        validUntil: input.validUntil,
        message: input.message,
        holdStock: input.holdStock,
        sentBy: actorId,
      })
      .returning();
    if (!revision) throw new Error("revision insert returned no row");

    // The hold: the units leave the stock now, in the tools' id order, through the ledger.
    if (input.holdStock) {
      await changeStock(
        tx,
        lines.map((l) => ({ toolId: l.toolId, delta: -l.quantity, reason: "quote_hold" as const, note: quote.number, actorId })),
      );
      stockMoved = true;
    }
    await tx.update(quotes).set({ status: "sent" }).where(eq(quotes.id, id));
    await mail?.revisionSent(tx, quote, { revision: revision.revision, totalCents: revision.totalCents, validUntil: revision.validUntil, message: revision.message });
    return revisionDto(revision, now);
  });
  if (stockMoved) announceChange(db, "tools");
  return sent;
}

/** POST /api/admin/quotes/:id/withdraw: the offer is withdrawn (its hold released); repeating it changes nothing. */
export async function withdrawQuote(db: Db, actorId: string, id: string, mail: QuoteMail | undefined, now = new Date()): Promise<AdminQuote> {
  let released = false;
  await db.transaction(async (tx) => {
    const quote = await lockQuote(tx, id);
    if (quote.status === "withdrawn") return;
    if (quote.status === "accepted") throw conflict("QUOTE_ALREADY_ACCEPTED", QUOTE_API_TEXT.alreadyAccepted);
    if (quote.status === "declined") throw conflict("QUOTE_CLOSED", QUOTE_API_TEXT.closed);
    const current = await currentRevision(tx, id);
    if (current && (current.status === "sent" || current.status === "expired")) {
      await tx.update(quoteRevisions).set({ status: "withdrawn" }).where(eq(quoteRevisions.id, current.id));
      released = (await releaseHold(tx, current, quote.number, { actorId })).length > 0;
    }
    await tx.update(quotes).set({ status: "withdrawn" }).where(eq(quotes.id, id));
    await mail?.withdrawn(tx, quote);
  });
  if (released) announceChange(db, "tools");
  return getAdminQuote(db, id, now);
}

/**
 * Sent revisions whose validity has passed are written down as expired (and their quotes), their
 * held units back in stock, once each: every instance sweeps, and the quote's row lock decides.
 * Returns how many expired.
 */
export async function expireDueQuotes(db: Db, now = new Date(), limit = 100): Promise<number> {
  const due = await db
    .select({ id: quoteRevisions.id, quoteId: quoteRevisions.quoteId })
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.status, "sent"), lte(quoteRevisions.validUntil, now)))
    .limit(limit);
  let expired = 0;
  let released = false;
  for (const { id, quoteId } of due) {
    await db.transaction(async (tx) => {
      const quote = await lockQuote(tx, quoteId);
      const [revision] = await tx.select().from(quoteRevisions).where(eq(quoteRevisions.id, id));
      if (!revision || revision.status !== "sent" || revision.validUntil.getTime() > now.getTime()) return;
      await tx.update(quoteRevisions).set({ status: "expired" }).where(eq(quoteRevisions.id, id));
      if (quote.status === "sent") await tx.update(quotes).set({ status: "expired" }).where(eq(quotes.id, quoteId));
      if ((await releaseHold(tx, revision, quote.number, { actorId: null })).length > 0) released = true;
      expired += 1;
    });
  }
  if (released) announceChange(db, "tools");
  return expired;
}
