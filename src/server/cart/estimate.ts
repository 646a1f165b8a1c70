/**
 * A cart's money (DESIGN "Money"): GET /api/cart prices it for the profile's address (pickup
 * at the store unless another method is asked for), POST /api/cart/estimate for the address
 * and method the checkout page shows. Both use pricing/price.ts, as checkout does, so the page
 * shows the cents the order will have (checkout re-prices under its locks and says when they differ).
 */
import { centsToDollars, dollarsToCents, formatDollars } from "../../contract/money";
import { PICKUP, type CartEstimate, type Destination } from "../../contract/money-schemas";
import { destinationProblems } from "../../contract/geo";
import type { Cart } from "../../contract/schemas";
import { MONEY_TEXT, type PricingProblem } from "../../contract/texts/money";
import type { Db } from "../db/client";
import { loadPricingContext, loadPromotions, priceLineOf, promotionFor, type LoadedPromotion } from "../pricing/context";
import { price, type PlaceCents, type Priced } from "../pricing/price";
import type { CartBase } from "./service";

/** Each problem in words; PROMO_BELOW_MINIMUM names the promotion's minimum (problemMessage). */
const PROBLEM_MESSAGE: Record<Exclude<PricingProblem, "PROMO_BELOW_MINIMUM">, string> = {
  NO_SHIPPING: MONEY_TEXT.noShipping,
  SHIPPING_METHOD_UNKNOWN: MONEY_TEXT.shippingMethodUnknown,
  PROMO_UNKNOWN: MONEY_TEXT.promoUnknown,
  PROMO_NOT_STARTED: MONEY_TEXT.promoNotStarted,
  PROMO_EXPIRED: MONEY_TEXT.promoExpired,
  PROMO_USED_UP: MONEY_TEXT.promoUsedUp,
  PROMO_USED_UP_BY_YOU: MONEY_TEXT.promoUsedUpByYou,
  PROMO_OTHER_CATEGORIES: MONEY_TEXT.promoOtherCategories,
};

export interface CartPricing {
  /** Where to price for: left out, the profile's address; null, none (pickup at the store). */
  destination?: Pick<Destination, "country" | "region" | "postalCode"> | null | undefined;
  shippingMethod?: string | undefined;
  promoCode?: string | undefined;
}

/** A place the store knows (a profile's may be empty or from before issue 31), else none. */
const known = (place: PlaceCents | undefined): PlaceCents | undefined => (place && place.country !== "" && destinationProblems(place).length === 0 ? place : undefined);

/**
 * Prices carts (their lines as they are, problems or not), reading the database once for all of
 * them: a batch of cart merges is priced with one call. Each is priced for `asked.destination`,
 * or (left out) its customer's profile address, or (none) pickup at the store.
 */
export async function priceCarts(db: Db, carts: { userId: string; cart: CartBase }[], asked: CartPricing = {}): Promise<{ priced: Priced; minSubtotalCents: number }[]> {
  const ctx = await loadPricingContext(db, {
    countries: asked.destination ? [asked.destination.country] : [],
    toolIds: carts.flatMap(({ cart }) => cart.lines.map((l) => l.toolId)),
    userIds: carts.map(({ userId }) => userId),
  });
  const code = asked.promoCode ?? null;
  const promotions: Map<string, LoadedPromotion> = code ? await loadPromotions(db, [code], carts.map(({ userId }) => userId), false) : new Map();
  const now = new Date();
  return carts.map(({ userId, cart }) => {
    const destination = asked.destination === undefined ? known(ctx.places.get(userId)) : (asked.destination ?? undefined);
    const promotion = code ? promotionFor(promotions.get(code), userId) : undefined;
    const priced = price({
      lines: cart.lines.map((l) => priceLineOf(ctx, { toolId: l.toolId, unitPriceCents: dollarsToCents(l.unitPrice), quantity: l.quantity })),
      destination: destination ?? ctx.store,
      store: ctx.store,
      // Without a destination only pickup can be priced.
      shippingMethod: destination ? (asked.shippingMethod ?? PICKUP) : PICKUP,
      methods: destination ? ctx.methods : [],
      rates: ctx.rates,
      promoCode: code,
      promotion,
      taxExempt: ctx.exempt.has(userId),
      now,
    });
    return { priced, minSubtotalCents: promotion?.minSubtotalCents ?? 0 };
  });
}

async function priceCart(db: Db, userId: string, cart: CartBase, asked: CartPricing): Promise<{ priced: Priced; minSubtotalCents: number }> {
  const [one] = await priceCarts(db, [{ userId, cart }], asked);
  if (!one) throw new Error("priceCarts answered nothing");
  return one;
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
  code === "PROMO_BELOW_MINIMUM" ? MONEY_TEXT.promoBelowMinimum(formatDollars(centsToDollars(minSubtotalCents))) : PROBLEM_MESSAGE[code];

/** GET /api/cart and the cart's other answers: the cart with its money, for the profile's address and pickup. */
export async function withMoney(db: Db, userId: string, cart: CartBase, asked: CartPricing = {}): Promise<Cart> {
  const { priced } = await priceCart(db, userId, cart, asked);
  return { ...cart, ...dollars(priced) };
}

/** Carts with their money, read once for all of them (a batch of merges). */
export async function allWithMoney(db: Db, carts: { userId: string; cart: CartBase }[]): Promise<Cart[]> {
  const priced = await priceCarts(db, carts);
  return carts.map(({ cart }, i) => ({ ...cart, ...dollars((priced[i] as { priced: Priced }).priced) }));
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
