/**
 * A cart's money (DESIGN "Money"): GET /api/cart prices it for the profile's address (pickup
 * at the store unless another method is asked for), POST /api/cart/estimate for the address
 * and method the checkout page shows. Both use pricing/price.ts, as checkout does, so the page
 * shows the cents the order will have (checkout re-prices under its locks and says when they differ).
 */
import { centsToDollars } from "../../contract/money";
import { PICKUP, type CartEstimate, type Destination } from "../../contract/money-schemas";
import { destinationProblems } from "../../contract/geo";
import type { Cart } from "../../contract/schemas";
import { MONEY_TEXT, type PricingProblem } from "../../contract/texts/money";
import type { Db } from "../db/client";
import { profiles } from "../db/schema";
import { eq } from "drizzle-orm";
import { loadPricingContext, loadPromotions, promotionFor } from "../pricing/context";
import { price, type PlaceCents, type Priced } from "../pricing/price";
import type { CartBase } from "./service";

export const PROBLEM_MESSAGE: Record<PricingProblem, string> = {
  NO_SHIPPING: MONEY_TEXT.noShipping,
  SHIPPING_METHOD_UNKNOWN: MONEY_TEXT.shippingMethodUnknown,
  PROMO_UNKNOWN: MONEY_TEXT.promoUnknown,
  PROMO_NOT_STARTED: MONEY_TEXT.promoNotStarted,
  PROMO_EXPIRED: MONEY_TEXT.promoExpired,
  PROMO_USED_UP: MONEY_TEXT.promoUsedUp,
  PROMO_USED_UP_BY_YOU: MONEY_TEXT.promoUsedUpByYou,
  // The minimum is named where the problem is raised (it needs the promotion).
  PROMO_BELOW_MINIMUM: MONEY_TEXT.promoBelowMinimum(""),
  PROMO_OTHER_CATEGORIES: MONEY_TEXT.promoOtherCategories,
};

export interface CartPricing {
  /** Where to price for: left out, the profile's address; null, none (pickup at the store). */
  destination?: Pick<Destination, "country" | "region" | "postalCode"> | null | undefined;
  shippingMethod?: string | undefined;
  promoCode?: string | undefined;
}

/** The profile's destination when it is one the store knows, else none. */
async function profileDestination(db: Db, userId: string): Promise<PlaceCents | undefined> {
  const [row] = await db.select({ country: profiles.country, region: profiles.region, postalCode: profiles.postalCode }).from(profiles).where(eq(profiles.userId, userId));
  return row && row.country !== "" && destinationProblems(row).length === 0 ? row : undefined;
}

/** Prices a cart's lines (as they are, problems or not) for a customer. */
export async function priceCart(db: Db, userId: string, cart: CartBase, asked: CartPricing): Promise<{ priced: Priced; minSubtotalCents: number }> {
  const destination = asked.destination === undefined ? await profileDestination(db, userId) : (asked.destination ?? undefined);
  const ctx = await loadPricingContext(db, { countries: destination ? [destination.country] : [], toolIds: cart.lines.map((l) => l.toolId), userIds: [userId] });
  const code = asked.promoCode ?? null;
  const promotion = code ? promotionFor((await loadPromotions(db, [code], [userId], false)).get(code), userId) : undefined;
  const priced = price({
    lines: cart.lines.map((l) => {
      const tool = ctx.tools.get(l.toolId);
      return { toolId: l.toolId, category: tool?.category ?? "hand-tools", unitPriceCents: Math.round(l.unitPrice * 100), quantity: l.quantity, weightGrams: tool?.weightGrams ?? 0 };
    }),
    destination: destination ?? ctx.store,
    store: ctx.store,
    // Without a destination only pickup can be priced.
    shippingMethod: destination ? (asked.shippingMethod ?? PICKUP) : PICKUP,
    methods: destination ? ctx.methods : [],
    rates: ctx.rates,
    promoCode: code,
    promotion,
    taxExempt: ctx.exempt.has(userId),
    now: new Date(),
  });
  return { priced, minSubtotalCents: promotion?.minSubtotalCents ?? 0 };
}

const dollars = (p: Priced) => ({
  subtotal: centsToDollars(p.subtotalCents),
  discount: centsToDollars(p.discountCents),
  shipping: centsToDollars(p.shippingCents),
  tax: centsToDollars(p.taxCents),
  total: centsToDollars(p.totalCents),
});

/** A problem in words; the minimum is named for PROMO_BELOW_MINIMUM. */
export const problemMessage = (code: PricingProblem, minSubtotalCents: number): string =>
  code === "PROMO_BELOW_MINIMUM" ? MONEY_TEXT.promoBelowMinimum(`$${(minSubtotalCents / 100).toFixed(2)}`) : PROBLEM_MESSAGE[code];

/** GET /api/cart and the cart's other answers: the cart with its money, for the profile's address and pickup. */
export async function withMoney(db: Db, userId: string, cart: CartBase, asked: CartPricing = {}): Promise<Cart> {
  const { priced } = await priceCart(db, userId, cart, asked);
  return { ...cart, ...dollars(priced) };
}

/** POST /api/cart/estimate. */
export async function estimateCart(db: Db, userId: string, cart: CartBase, asked: CartPricing): Promise<CartEstimate> {
  const { priced, minSubtotalCents } = await priceCart(db, userId, cart, asked);
  return {
    ...dollars(priced),
    shippingOptions: priced.shippingOptions.map((o) => ({ id: o.id, name: o.name, price: centsToDollars(o.priceCents) })),
    problems: priced.problems.map((code) => ({ code, message: problemMessage(code, minSubtotalCents) })),
  };
}
