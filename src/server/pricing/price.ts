/**
 * The one way an order is priced (DESIGN "Money"): the cart estimate, the checkout and the
 * purchase page all call `price`, so every path gives the same cents.
 *
 * Integer cents throughout. The rules, in order:
 * 1. subtotal = Σ unit price × quantity.
 * 2. A promotion's discount is computed on the subtotal of the lines it applies to (its
 *    categories, or all): percent → round half away from zero; amount → at most that subtotal.
 *    It is spread over those lines in proportion to their subtotals by largest remainder (ties
 *    to the earlier line), so the pieces add up to the discount exactly.
 * 3. Shipping: pickup is free; delivery is priced by the destination's zone (a region's zone
 *    before its country's) and the order's weight (the first band at least as heavy), free from
 *    the method's threshold on (subtotal − discount). It is spread over the lines like the
 *    discount, by what each line costs after its discount (by position when every line is free).
 * 4. Tax: one rate, the most specific that matches the destination (postal prefix, longest
 *    first, then region, then country); pickup is taxed at the store's address. Per line:
 *    tax = round_half_away((subtotal − discount + (taxShipping ? shipping : 0)) × bp / 10,000).
 *    The order's tax is the sum of its lines'. A tax-exempt customer pays none.
 * 5. total = subtotal − discount + shipping + tax, on every line and on the order.
 */
import type { Category } from "../../contract/constants";
import { PICKUP } from "../../contract/money-schemas";
import { MONEY_TEXT, type PricingProblem } from "../../contract/texts/money";

export interface PriceLine {
  toolId: string;
  category: Category;
  unitPriceCents: number;
  quantity: number;
  weightGrams: number;
}

export interface PlaceCents {
  country: string;
  region: string;
  postalCode: string;
}

export interface RateRow {
  id: string;
  name: string;
  country: string;
  region: string;
  postalPrefix: string;
  rateBasisPoints: number;
  taxShipping: boolean;
}

export interface MethodRow {
  id: string;
  name: string;
  freeOverCents: number | null;
  zones: { destinations: { country: string; region: string }[]; bands: { maxGrams: number; priceCents: number }[] }[];
}

export interface PromotionRow {
  id: string;
  code: string;
  kind: "percent" | "amount";
  /** percent: 1–100; amount: cents. */
  value: number;
  minSubtotalCents: number;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  categories: Category[];
  active: boolean;
  /** Uses so far, in all and by this customer. */
  redemptions: number;
  customerRedemptions: number;
}

export interface PriceInput {
  lines: PriceLine[];
  /** Where it goes; for pickup the store's address is used for tax. */
  destination: PlaceCents;
  store: PlaceCents;
  /** "pickup" or a method's id. */
  shippingMethod: string;
  methods: MethodRow[];
  rates: RateRow[];
  /** The code asked for: null when none; undefined row when no such code exists. */
  promoCode: string | null;
  promotion: PromotionRow | undefined;
  taxExempt: boolean;
  now: Date;
  /**
   * A quote's shipping, as the owner quoted it (DESIGN "Quotes"): the price of `shippingMethod`,
   * whatever the methods would charge; it is spread and taxed like any shipping.
   */
  quotedShipping?: { name: string; priceCents: number } | undefined;
}

export interface Money {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

export interface PricedLine extends Money {
  toolId: string;
  quantity: number;
  /** The unit price the line was priced at (subtotal = unit price × quantity). */
  unitPriceCents: number;
  /** The rate applied to this line, in basis points (0 when exempt or none matches). */
  taxRateBasisPoints: number;
}

export interface Priced extends Money {
  lines: PricedLine[];
  /** Every delivery method that serves the destination, with its price for this cart, pickup first. */
  shippingOptions: { id: string; name: string; priceCents: number }[];
  /** The method priced (pickup when the one asked for is unknown or does not serve the address). */
  shippingMethod: { id: string; name: string };
  /** The promotion applied, if any. */
  promotionId: string | null;
  taxRate: { id: string; name: string; rateBasisPoints: number } | null;
  problems: PricingProblem[];
}

/** a × b / c rounded half away from zero, exact for any integer cents we handle (BigInt). */
export function mulDivRound(a: number, b: number, c: number): number {
  const n = BigInt(a) * BigInt(b);
  const d = BigInt(c);
  const sign = (n < 0n) !== (d < 0n) ? -1n : 1n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (2n * an + ad) / (2n * ad);
  return Number(sign * q);
}

/**
 * The part of a priced line's tax that is its shipping's (DESIGN "Refunds and returns": a refund
 * of the shipping gives back the shipping and its tax, a refund of units the goods' tax only).
 * Where the rate taxes delivery, a line's tax is one rounding of (subtotal − discount + its share
 * of the shipping) × rate (rule 4 above): the shipping's part is the tax of that share alone,
 * rounded half away from zero, and the goods keep the rest, so the two add up to the line's tax
 * to the cent. Where the line's tax is the goods' alone (delivery not taxed, an exempt customer,
 * no rate), the shipping's part is 0. Read from the line as it was priced, with the order's rate.
 */
export function lineShippingTax(line: { subtotalCents: number; discountCents: number; shippingCents: number; taxCents: number }, rateBasisPoints: number | null): number {
  if (!rateBasisPoints || line.shippingCents <= 0 || line.taxCents <= 0) return 0;
  const goods = line.subtotalCents - line.discountCents;
  const taxedWithShipping = line.taxCents === mulDivRound(goods + line.shippingCents, rateBasisPoints, 10_000) && line.taxCents !== mulDivRound(goods, rateBasisPoints, 10_000);
  return taxedWithShipping ? Math.min(line.taxCents, mulDivRound(line.shippingCents, rateBasisPoints, 10_000)) : 0;
}

/**
 * Splits `amount` cents over `weights` in proportion, by largest remainder: every piece is the
 * floor of its share, and the cents left go one each to the largest remainders (the earlier
 * line on a tie). The pieces add up to `amount` exactly. All-zero weights split by position.
 */
export function spread(amount: number, weights: number[]): number[] {
  if (weights.length === 0) return [];
  const total = weights.reduce((s, w) => s + w, 0);
  const w = total > 0 ? weights : weights.map(() => 1);
  const sum = total > 0 ? total : weights.length;
  const big = BigInt(amount);
  const pieces = w.map((wi) => (big * BigInt(wi)) / BigInt(sum));
  const remainders = w.map((wi, i) => ({ i, r: (big * BigInt(wi)) % BigInt(sum) }));
  let left = amount - pieces.reduce((s, p) => s + Number(p), 0);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  const out = pieces.map(Number);
  for (let k = 0; left > 0; k = (k + 1) % out.length, left--) {
    const i = (remainders[k] as { i: number }).i;
    out[i] = (out[i] as number) + 1;
  }
  return out;
}

const zoneServes = (zone: MethodRow["zones"][number], to: PlaceCents) =>
  zone.destinations.some((d) => d.country === to.country && (d.region === "" || d.region === to.region));
const zoneRank = (zone: MethodRow["zones"][number], to: PlaceCents) =>
  zone.destinations.some((d) => d.country === to.country && d.region !== "" && d.region === to.region) ? 2 : 1;

/** The price of delivering `grams` to `to` by `method`, or null where it does not deliver. */
export function deliveryPrice(method: MethodRow, to: PlaceCents, grams: number, paidCents: number): number | null {
  const zones = method.zones.filter((z) => zoneServes(z, to)).sort((a, b) => zoneRank(b, to) - zoneRank(a, to));
  const zone = zones[0];
  if (!zone) return null;
  const band = zone.bands.find((b) => grams <= b.maxGrams);
  if (!band) return null;
  return method.freeOverCents !== null && paidCents >= method.freeOverCents ? 0 : band.priceCents;
}

/** The most specific rate for a place: the longest matching postal prefix, then the region, then the country. */
export function rateFor(rates: RateRow[], at: PlaceCents): RateRow | undefined {
  const postal = at.postalCode.replace(/\s/g, "");
  let best: RateRow | undefined;
  let bestRank = -1;
  for (const r of rates) {
    if (r.country !== at.country) continue;
    if (r.region !== "" && r.region !== at.region) continue;
    const prefix = r.postalPrefix.replace(/\s/g, "");
    if (prefix !== "" && !postal.startsWith(prefix)) continue;
    const rank = (prefix.length + 1) * 10 + (r.region !== "" ? 1 : 0);
    if (rank > bestRank || (rank === bestRank && best !== undefined && r.id < best.id)) {
      best = r;
      bestRank = rank;
    }
  }
  return best;
}

/** Why a promotion cannot apply to these lines now, or null when it can. */
export function promotionProblem(p: PromotionRow | undefined, lines: PriceLine[], now: Date): PricingProblem | null {
  if (!p || !p.active) return "PROMO_UNKNOWN";
  if (p.startsAt && now < p.startsAt) return "PROMO_NOT_STARTED";
  if (p.endsAt && now >= p.endsAt) return "PROMO_EXPIRED";
  if (p.usageLimit !== null && p.redemptions >= p.usageLimit) return "PROMO_USED_UP";
  if (p.perCustomerLimit !== null && p.customerRedemptions >= p.perCustomerLimit) return "PROMO_USED_UP_BY_YOU";
  const eligible = lines.filter((l) => p.categories.length === 0 || p.categories.includes(l.category));
  if (eligible.length === 0) return "PROMO_OTHER_CATEGORIES";
  // The minimum is the code's: reached by the lines it applies to, not by the rest of the cart.
  const subtotal = eligible.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);
  if (subtotal < p.minSubtotalCents) return "PROMO_BELOW_MINIMUM";
  return null;
}

export function price(input: PriceInput): Priced {
  const { lines } = input;
  const problems: PricingProblem[] = [];
  const subtotals = lines.map((l) => l.unitPriceCents * l.quantity);
  const subtotalCents = subtotals.reduce((s, c) => s + c, 0);

  // 2. The discount.
  let promotionId: string | null = null;
  let discounts = lines.map(() => 0);
  if (input.promoCode !== null) {
    const p = input.promotion;
    const problem = promotionProblem(p, lines, input.now);
    if (problem) problems.push(problem);
    else if (p) {
      const eligible = lines.map((l) => p.categories.length === 0 || p.categories.includes(l.category));
      const base = subtotals.reduce((s, c, i) => s + (eligible[i] ? c : 0), 0);
      const off = p.kind === "percent" ? mulDivRound(base, p.value, 100) : Math.min(p.value, base);
      discounts = spread(off, subtotals.map((c, i) => (eligible[i] ? c : 0)));
      promotionId = p.id;
    }
  }
  const discountCents = discounts.reduce((s, c) => s + c, 0);
  const paid = subtotals.map((c, i) => c - (discounts[i] as number));
  const paidCents = subtotalCents - discountCents;

  // 3. Shipping.
  const grams = lines.reduce((s, l) => s + l.weightGrams * l.quantity, 0);
  const pickup: { id: string; name: string; priceCents: number } = { id: PICKUP, name: MONEY_TEXT.pickup, priceCents: 0 };
  const shippingOptions = [pickup];
  for (const m of input.methods) {
    const cents = deliveryPrice(m, input.destination, grams, paidCents);
    if (cents !== null) shippingOptions.push({ id: m.id, name: m.name, priceCents: cents });
  }
  let chosen = input.quotedShipping ? { id: input.shippingMethod, ...input.quotedShipping } : shippingOptions.find((o) => o.id === input.shippingMethod);
  if (!chosen) {
    problems.push(shippingOptions.length === 1 ? "NO_SHIPPING" : "SHIPPING_METHOD_UNKNOWN");
    chosen = pickup;
  }
  const shippingCents = chosen.priceCents;
  const shippings = spread(shippingCents, paid);

  // 4. Tax.
  const taxedAt = chosen.id === PICKUP ? input.store : input.destination;
  const rate = input.taxExempt ? undefined : rateFor(input.rates, taxedAt);
  const bp = rate?.rateBasisPoints ?? 0;
  const taxes = paid.map((c, i) => mulDivRound(c + (rate?.taxShipping ? (shippings[i] as number) : 0), bp, 10_000));
  const taxCents = taxes.reduce((s, c) => s + c, 0);

  const priced: PricedLine[] = lines.map((l, i) => {
    const [sub, dis, shi, tax] = [subtotals[i] as number, discounts[i] as number, shippings[i] as number, taxes[i] as number];
    return { toolId: l.toolId, quantity: l.quantity, unitPriceCents: l.unitPriceCents, subtotalCents: sub, discountCents: dis, shippingCents: shi, taxCents: tax, totalCents: sub - dis + shi + tax, taxRateBasisPoints: bp };
  });
  return {
    subtotalCents,
    discountCents,
    shippingCents,
    taxCents,
    totalCents: subtotalCents - discountCents + shippingCents + taxCents,
    lines: priced,
    shippingOptions,
    shippingMethod: { id: chosen.id, name: chosen.name },
    promotionId,
    taxRate: rate ? { id: rate.id, name: rate.name, rateBasisPoints: rate.rateBasisPoints } : null,
    problems,
  };
}
