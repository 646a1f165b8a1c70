/**
 * A cart's money (DESIGN "Money"): GET /api/cart prices it for the profile's address (pickup
 * at the store unless another method is asked for), POST /api/cart/estimate for the address
 * and method the checkout page shows. Both build their input with the placement's own builder
 * (pricing/input.ts) and price it with pricing/price.ts, so the page shows the cents the order
 * will have (the placement re-prices under its locks and checkout says when they differ).
 */
import { centsToDollars } from "../../contract/money";
import { PICKUP, type CartEstimate, type Destination } from "../../contract/money-schemas";
import { destinationProblems } from "../../contract/geo";
import { nextTier, tierReached } from "../../contract/price-tiers";
import type { Cart, CartLine } from "../../contract/schemas";
import type { Db } from "../db/client";
import { loadPricingContext, loadPromotions, type LoadedPromotion, type PricingContext } from "../pricing/context";
import { pricingInput } from "../pricing/input";
import { price, type PlaceCents, type Priced } from "../pricing/price";
import { problemMessage } from "../pricing/problems";
import type { CartBase } from "./service";

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
export async function priceCarts(db: Db, carts: { userId: string; cart: CartBase }[], asked: CartPricing = {}): Promise<PricedCart[]> {
  const ctx = await loadPricingContext(db, {
    places: asked.destination ? [asked.destination] : [],
    toolIds: carts.flatMap(({ cart }) => cart.lines.map((l) => l.toolId)),
    userIds: carts.map(({ userId }) => userId),
  });
  const code = asked.promoCode ?? null;
  const promotions: Map<string, LoadedPromotion> = code ? await loadPromotions(db, [code], carts.map(({ userId }) => userId), false) : new Map();
  const now = new Date();
  return carts.map(({ userId, cart }) => {
    const destination = asked.destination === undefined ? (known(ctx.places.get(userId)) ?? null) : asked.destination;
    const promotion = code ? promotions.get(code) : undefined;
    // The one input builder of every placement (pricing/input.ts), so the cart shows the cents the order will have.
    const lines = cart.lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity }));
    // Without a destination only pickup can be priced: a method asked for is not applied.
    const shippingMethod = destination ? (asked.shippingMethod ?? PICKUP) : PICKUP;
    const priced = price(pricingInput(ctx, { userId, lines, destination, shippingMethod, promoCode: code }, promotion, now));
    const tradeDiscountBasisPoints = ctx.members.get(userId)?.discountBasisPoints ?? 0;
    return { priced, minSubtotalCents: promotion?.minSubtotalCents ?? 0, tradeDiscountBasisPoints, lines: pricedLines(cart.lines, priced, ctx, tradeDiscountBasisPoints > 0) };
  });
}

interface PricedCart {
  priced: Priced;
  minSubtotalCents: number;
  /** The customer's trade account discount (0 outside one). */
  tradeDiscountBasisPoints: number;
  /** The cart's lines at the unit prices they were priced at, each saying its tier. */
  lines: CartLine[];
}

/**
 * The cart's lines as priced: each line's unit price is the one the order will have (its tier's,
 * DESIGN "Price tiers", less a trade account's discount), its total that × the quantity; a line
 * says which tier applies and how many more units reach the next, and a member's line that it is
 * at the account's trade price.
 */
function pricedLines(lines: CartLine[], priced: Priced, ctx: PricingContext, trade: boolean): CartLine[] {
  return lines.map((line, i) => {
    const pricedLine = priced.lines[i];
    const tiers = ctx.tools.get(line.toolId)?.priceTiers ?? [];
    if (!pricedLine || (tiers.length === 0 && !trade)) return line;
    const reached = tierReached(tiers, line.quantity);
    const next = nextTier(tiers, line.quantity);
    return {
      ...line,
      unitPrice: centsToDollars(pricedLine.unitPriceCents),
      lineTotal: centsToDollars(pricedLine.subtotalCents),
      ...(reached ? { tier: { minQuantity: reached.minQuantity, price: centsToDollars(reached.priceCents) } } : {}),
      ...(next ? { nextTier: { minQuantity: next.minQuantity, price: centsToDollars(next.priceCents), more: next.more } } : {}),
      ...(trade ? { tradePrice: true } : {}),
    };
  });
}

async function priceCart(db: Db, userId: string, cart: CartBase, asked: CartPricing): Promise<PricedCart> {
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

/** GET /api/cart and the cart's other answers: the cart with its money, for the profile's address and pickup. */
export async function withMoney(db: Db, userId: string, cart: CartBase, asked: CartPricing = {}): Promise<Cart> {
  const { priced, lines, tradeDiscountBasisPoints } = await priceCart(db, userId, cart, asked);
  return { ...cart, lines, ...dollars(priced), tradeDiscountPercent: tradeDiscountBasisPoints / 100 };
}

/** Carts with their money, read once for all of them (a batch of merges). */
export async function allWithMoney(db: Db, carts: { userId: string; cart: CartBase }[]): Promise<Cart[]> {
  const priced = await priceCarts(db, carts);
  return carts.map(({ cart }, i) => {
    const one = priced[i] as PricedCart;
    return { ...cart, lines: one.lines, ...dollars(one.priced), tradeDiscountPercent: one.tradeDiscountBasisPoints / 100 };
  });
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
