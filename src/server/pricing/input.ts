/**
 * The one pricing input builder (DESIGN "One way to place an order"): what `price` is given for
 * an order or a cart, on every path. The placement (orders/placement.ts: the cart's checkout, the
 * purchase page) and the cart's answers (cart/estimate.ts: GET /api/cart, POST /api/cart/estimate)
 * build their input here and nowhere else, so a line's unit price, where the order is taxed, which
 * delivery methods apply and whether the customer pays tax are decided once.
 *
 * What each path asks for is its own (the checkout's address, the profile's for the cart, pickup
 * for the purchase page); how that is priced is this file's.
 */
import { PICKUP } from "../../contract/money-schemas";
import { unitPriceFor } from "../../contract/price-tiers";
import { storeDate } from "../../contract/store-calendar";
import type { LoadedPromotion, PricingContext } from "./context";
import { promotionFor } from "./context";
import type { PlaceCents, PriceInput, PriceLine } from "./price";

/** What is to be priced: whose, which tools and how many, where to and how, with which code. */
export interface PricingRequest {
  userId: string;
  lines: { toolId: string; quantity: number }[];
  /**
   * Where it is delivered, or null: picked up at the store, taxed at the store's address (a
   * checkout without a country, the purchase page, a cart for a profile without an address).
   */
  destination: PlaceCents | null;
  /** "pickup" or a delivery method's id. */
  shippingMethod: string;
  /** The code typed (upper-case), or null. */
  promoCode: string | null;
}

/**
 * A line's unit price for a quantity: the last price tier the quantity reaches, else the tool's
 * list price (DESIGN "Price tiers"; the line's subtotal is then exactly that × the quantity). A tool the context does not hold
 * (gone meanwhile) costs and weighs nothing and counts as hand tools, so a cart still showing it
 * can be priced; every placement refuses such a line before it is priced.
 */
export function priceLine(ctx: PricingContext, line: { toolId: string; quantity: number }, userId?: string): PriceLine {
  const tool = ctx.tools.get(line.toolId);
  const member = userId === undefined ? undefined : ctx.members.get(userId);
  return {
    toolId: line.toolId,
    quantity: line.quantity,
    unitPriceCents: tool ? unitPriceFor(tool.priceCents, tool.priceTiers, line.quantity, member?.discountBasisPoints ?? 0) : 0,
    category: tool?.category ?? "hand-tools",
    weightGrams: tool?.weightGrams ?? 0,
  };
}

/** `price`'s input for a request, with the promotion its code names (loaded by the caller, locked or not). */
export function pricingInput(ctx: PricingContext, request: PricingRequest, promotion: LoadedPromotion | undefined, now: Date): PriceInput {
  return {
    lines: request.lines.map((line) => priceLine(ctx, line, request.userId)),
    destination: request.destination ?? ctx.store,
    store: ctx.store,
    shippingMethod: request.shippingMethod,
    // Without a destination nothing can be delivered: only pickup is priced.
    methods: request.destination ? ctx.methods : [],
    rates: ctx.rates,
    promoCode: request.promoCode,
    promotion: request.promoCode ? promotionFor(promotion, request.userId) : undefined,
    taxExempt: exemptionFor(ctx, request.userId, request.destination ?? ctx.store, now) !== null,
    now,
  };
}

/**
 * Why a customer pays no tax on an order to `place`, or null: the certificate the owner put on
 * their profile (anywhere), else their trade account's certificate for that region, through its
 * expiry date (the store's calendar; DESIGN "Trade accounts"). `region` is null for a profile's.
 */
export function exemptionFor(ctx: PricingContext, userId: string, place: PlaceCents, now: Date): { certificate: string; region: string | null } | null {
  const own = ctx.exempt.get(userId);
  if (own) return { certificate: own, region: null };
  const member = ctx.members.get(userId);
  if (!member || member.exemptions.length === 0) return null;
  const today = storeDate(now);
  const found = member.exemptions.find((e) => e.country === place.country && e.region === place.region && e.expiresOn >= today);
  return found ? { certificate: found.certificate, region: found.region } : null;
}

/** What a quote's revision prices: the owner's unit prices and shipping, for the quote's address. */
export interface QuotePricingRequest {
  userId: string;
  lines: { toolId: string; quantity: number; unitPriceCents: number }[];
  /** The quote's address, or null: collected at the store (taxed at the store's address). */
  destination: PlaceCents | null;
  shipping: { name: string; priceCents: number };
}

/**
 * `price`'s input for a quote's revision (DESIGN "Quotes"): the unit prices are the owner's (they
 * may differ from the list price and the tiers), the shipping is the quoted amount, and the tax is
 * the Money rules' for the quote's address (or the store's), for this customer; no code applies.
 */
export function quotePricingInput(ctx: PricingContext, request: QuotePricingRequest, now: Date): PriceInput {
  return {
    lines: request.lines.map((line) => ({ ...priceLine(ctx, line), unitPriceCents: line.unitPriceCents })),
    destination: request.destination ?? ctx.store,
    store: ctx.store,
    shippingMethod: request.destination ? QUOTED_DELIVERY : PICKUP,
    methods: [],
    rates: ctx.rates,
    promoCode: null,
    promotion: undefined,
    taxExempt: exemptionFor(ctx, request.userId, request.destination ?? ctx.store, now) !== null,
    now,
    quotedShipping: request.shipping,
  };
}

/** The shipping method of a quote delivered to its address, at the quoted price. */
export const QUOTED_DELIVERY = "quoted";
