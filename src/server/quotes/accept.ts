/**
 * Accepting a quote (DESIGN "Quotes", issue 41): exactly one order at the quoted prices, under
 * races on one instance or several.
 *
 * One transaction, in the one lock order: the `Idempotency-Key` is claimed first (a retry with the
 * same key waits on the key's row for the first attempt, then gets its order back; another body
 * with the key is 409), then the quote's row is locked (a racing accept with another key waits,
 * then finds it accepted: 409 QUOTE_ALREADY_ACCEPTED), then the placement (orders/placement.ts)
 * locks the tools and places a batch of one: the revision's cents as they were sent, never
 * re-priced; stock all or none; the order numbered, recorded and mailed like any other (the
 * owners' "quote accepted" goes with its announcement: a card order's when it is paid); the quote
 * accepted and its key naming the order, in the same statement. Any refusal throws, so the
 * transaction (the key's claim included) leaves nothing behind.
 *
 * A held revision's units are the order's: they go back into the locked stock the placement
 * takes from (a `quote_release` movement beside the order's own), so an accept never fails for
 * stock the quote holds. A card order's payment page opens after the commit (`startPayment`); if
 * it is never paid, or the account's approver rejects the order, its cancel re-opens the
 * revision (the trigger of migrations quotes-reopen and trade-defects-sql).
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { QuoteAcceptInput } from "../../contract/quote-schemas";
import type { Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { MONEY_TEXT } from "../../contract/texts/money";
import { QUOTE_API_TEXT, QUOTE_TEXT } from "../../contract/texts/quotes";
import { announceChange } from "../db/changes";
import type { Db } from "../db/client";
import { idempotencyKeys, profiles, quoteRevisions, quotes } from "../db/schema";
import { recordMovements } from "../stock/ledger";
import { ApiError, conflict } from "../http/errors";
import type { OrderMail } from "../mail/outbox";
import { lockForPlacement, ordersById, placeOrders, type PlacementRequest } from "../orders";
import type { Priced } from "../pricing/price";
import { closedError, currentRevision, lockQuote, releaseHold, type RevisionRow } from "./service";

export interface AcceptOutcome {
  order: Order;
  replayed: boolean;
}

const keyReused = () => conflict("IDEMPOTENCY_KEY_REUSED", API_TEXT.idempotencyKeyReused);

/** The revision's cents as `price` would answer them: what the placement records, as sent. */
function pricedOf(revision: RevisionRow): Priced {
  const pickup = revision.shippingMethod === "pickup";
  return {
    subtotalCents: revision.subtotalCents,
    discountCents: 0,
    shippingCents: revision.shippingCents,
    taxCents: revision.taxCents,
    totalCents: revision.totalCents,
    lines: revision.lines.map((l) => ({
      toolId: l.toolId,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      subtotalCents: l.lineTotalCents,
      discountCents: 0,
      shippingCents: l.shippingCents,
      taxCents: l.taxCents,
      totalCents: l.totalCents,
      taxRateBasisPoints: revision.taxRateBasisPoints ?? 0,
    })),
    shippingOptions: [],
    shippingMethod: { id: revision.shippingMethod, name: pickup ? MONEY_TEXT.pickup : QUOTE_TEXT.quotedDelivery },
    promotionId: null,
    taxRate: revision.taxRateName !== null && revision.taxRateBasisPoints !== null ? { id: "", name: revision.taxRateName, rateBasisPoints: revision.taxRateBasisPoints } : null,
    problems: [],
  };
}

export class QuoteAcceptance {
  constructor(
    private readonly db: Db,
    private readonly options: { holdMs: number; mail?: OrderMail | undefined; clock?: (() => Date) | undefined },
  ) {}

  async accept(userId: string, quoteId: string, input: QuoteAcceptInput, key: string): Promise<AcceptOutcome> {
    const hash = createHash("sha256").update(JSON.stringify({ quote: quoteId, revision: input.revision, paymentMethod: input.paymentMethod, ...(input.poNumber ? { poNumber: input.poNumber } : {}) })).digest("base64url");
    // One clock on the whole path: the revision's validity, the placement's month, exemptions and holds (the app's, a test's).
    const now = this.options.clock?.() ?? new Date();
    const outcome = await this.db.transaction(async (tx): Promise<AcceptOutcome> => {
      // 1. The key: claimed, or a retry of an attempt that committed (waits for it if it runs).
      const claimed = await tx.insert(idempotencyKeys).values({ userId, key, requestHash: hash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const [row] = await tx
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
        const order = row?.orderId && row.requestHash === hash ? (await ordersById(tx, [row.orderId])).get(row.orderId) : undefined;
        if (!order) throw keyReused();
        return { order, replayed: true };
      }

      // 2. The quote, locked: one accept at a time, and it must be the current revision, open and valid.
      const quote = await lockQuote(tx, quoteId, userId);
      const current = await currentRevision(tx, quoteId);
      if (quote.status !== "accepted" && current && input.revision > current.revision) {
        throw new ApiError(400, "VALIDATION", QUOTE_API_TEXT.revisionUnknown, { details: [{ path: "body.revision", message: QUOTE_API_TEXT.revisionUnknown }] });
      }
      const closed = closedError(quote, current, now);
      if (closed && closed.code !== "QUOTE_EXPIRED") throw closed;
      const revision = current as RevisionRow;
      if (input.revision < revision.revision) throw conflict("QUOTE_SUPERSEDED", QUOTE_API_TEXT.superseded);
      if (closed) throw closed;

      // 3. The order, through the one placement, at the revision's cents.
      const [profile] = await tx.select({ phone: profiles.phone }).from(profiles).where(eq(profiles.userId, userId));
      const request: PlacementRequest = {
        userId,
        lines: revision.lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity })),
        delivery: { address: quote.address, city: quote.city, region: quote.region, postalCode: quote.postalCode, country: quote.country, phone: profile?.phone ?? "" },
        paymentMethod: input.paymentMethod,
        shippingMethod: revision.shippingMethod,
        promoCode: null,
        poNumber: input.poNumber || null,
        note: "",
        quoted: { quoteId, quoteNumber: quote.number, priced: pricedOf(revision), taxExemptCertificate: revision.taxExemptCertificate, taxExemptRegion: revision.taxExemptRegion },
      };
      const locked = await lockForPlacement(tx, [request]);
      // The held units are the order's: back into the stock the placement takes from, with their movement.
      const held = await releaseHold(tx, revision, quote.number, { usedBy: true });
      for (const line of held) {
        const tool = locked.tools.get(line.toolId);
        if (tool) tool.availableQuantity += line.quantity;
      }
      // Their movement in the ledger, beside the order's own (the placement writes the tools' stock, in its lock order).
      await recordMovements(
        tx,
        held.map((l) => ({ toolId: l.toolId, delta: l.quantity, reason: "quote_release" as const, note: quote.number, actorId: userId })),
      );

      const [result] = await placeOrders(tx, [request], locked, {
        mail: this.options.mail,
        holdMs: this.options.holdMs,
        now,
        alongside: ([draft]) => {
          if (!draft) return [];
          return [
            sql`quote_accepted as (
              update ${quotes} set status = 'accepted', order_id = ${draft.id}, updated_at = now() where id = ${quoteId})`,
            sql`revision_accepted as (
              update ${quoteRevisions} set status = 'accepted' where id = ${revision.id})`,
            sql`quote_keyed as (
              update ${idempotencyKeys} set order_id = ${draft.id} where user_id = ${userId} and key = ${key})`,
          ];
          // The owners hear of the acceptance with the order's announcement (mail/outbox.ts): now, or a card order's when it is paid.
        },
      });
      if (!result) throw new Error("the placement answered nothing");
      if ("refused" in result) {
        const { refused } = result;
        if (refused.kind === "other") throw refused.error;
        // The quote's lines as the cart's are answered: each bad line named, nothing taken.
        const [line] = refused.problems;
        if (line?.problem === "NOT_ENOUGH_STOCK") throw conflict("NOT_ENOUGH_STOCK", API_TEXT.notEnoughStock(line.availableQuantity), { available: line.availableQuantity, lines: refused.problems });
        throw conflict("QUOTE_LINES_UNAVAILABLE", line?.problem === "UNAVAILABLE" ? QUOTE_API_TEXT.toolUnavailable(line.name) : API_TEXT.cartProblems, { lines: refused.problems });
      }
      return { order: result.placed, replayed: false };
    });
    if (!outcome.replayed) announceChange(this.db, "tools");
    return outcome;
  }
}
