/**
 * The pricing rules (DESIGN "Money"): examples for each rule, and properties over random
 * carts, rates, methods and codes: the pieces always add up, to the cent.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../contract/constants";
import { deliveryPrice, mulDivRound, price, rateFor, spread, type MethodRow, type PriceInput, type PriceLine, type PromotionRow, type RateRow } from "./price";

const STORE = { country: "US", region: "NY", postalCode: "11201" };
const line = (over: Partial<PriceLine> = {}): PriceLine => ({ toolId: "t1", category: "hand-tools", unitPriceCents: 1000, quantity: 1, weightGrams: 500, ...over });
const rate = (over: Partial<RateRow> = {}): RateRow => ({ id: "r1", name: "Tax", country: "US", region: "", postalPrefix: "", rateBasisPoints: 0, taxShipping: false, ...over });
const promo = (over: Partial<PromotionRow> = {}): PromotionRow => ({
  id: "p1",
  code: "SAVE",
  kind: "percent",
  value: 10,
  minSubtotalCents: 0,
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  perCustomerLimit: null,
  categories: [],
  active: true,
  redemptions: 0,
  customerRedemptions: 0,
  ...over,
});
const STANDARD: MethodRow = {
  id: "std",
  name: "Standard",
  freeOverCents: 50_000,
  zones: [
    { destinations: [{ country: "US", region: "" }], bands: [{ maxGrams: 2000, priceCents: 599 }, { maxGrams: 30_000, priceCents: 1999 }] },
    { destinations: [{ country: "US", region: "AK" }, { country: "US", region: "HI" }], bands: [{ maxGrams: 30_000, priceCents: 4999 }] },
  ],
};
const input = (over: Partial<PriceInput> = {}): PriceInput => ({
  lines: [line()],
  destination: { country: "US", region: "CA", postalCode: "94103" },
  store: STORE,
  shippingMethod: "pickup",
  methods: [STANDARD],
  rates: [],
  promoCode: null,
  promotion: undefined,
  taxExempt: false,
  now: new Date("2026-11-25T12:00:00Z"),
  ...over,
});

describe("rounding and spreading", () => {
  it("rounds half away from zero", () => {
    expect(mulDivRound(5, 1, 10)).toBe(1); // 0.5 → 1
    expect(mulDivRound(15, 1, 10)).toBe(2); // 1.5 → 2
    expect(mulDivRound(25, 1, 10)).toBe(3); // 2.5 → 3 (not banker's 2)
    expect(mulDivRound(-25, 1, 10)).toBe(-3);
    expect(mulDivRound(14, 1, 10)).toBe(1);
    expect(mulDivRound(1999, 825, 10_000)).toBe(165); // 164.9175 → 165
  });

  it("spreads by largest remainder, earlier line first on a tie, exactly", () => {
    expect(spread(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(spread(10, [0, 0])).toEqual([5, 5]);
    expect(spread(0, [5, 7])).toEqual([0, 0]);
    expect(spread(7, [2, 0, 1])).toEqual([5, 0, 2]);
  });

  it("spread always adds up and never gives a zero-weight line a cent (unless all are zero)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 }), (amount, weights) => {
        const pieces = spread(amount, weights);
        expect(pieces.reduce((s, p) => s + p, 0)).toBe(amount);
        if (weights.some((w) => w > 0)) weights.forEach((w, i) => w === 0 && expect(pieces[i]).toBe(0));
        pieces.forEach((p) => expect(p).toBeGreaterThanOrEqual(0));
      }),
    );
  });
});

describe("tax rates", () => {
  const rates = [
    rate({ id: "us", country: "US", rateBasisPoints: 0 }),
    rate({ id: "ny", country: "US", region: "NY", rateBasisPoints: 400 }),
    rate({ id: "nyc", country: "US", region: "NY", postalPrefix: "112", rateBasisPoints: 887 }),
    rate({ id: "nyc2", country: "US", region: "NY", postalPrefix: "1120", rateBasisPoints: 888 }),
  ];
  it("picks the longest postal prefix, then the region, then the country", () => {
    expect(rateFor(rates, { country: "US", region: "NY", postalCode: "11201" })?.id).toBe("nyc2");
    expect(rateFor(rates, { country: "US", region: "NY", postalCode: "11245" })?.id).toBe("nyc");
    expect(rateFor(rates, { country: "US", region: "NY", postalCode: "10001" })?.id).toBe("ny");
    expect(rateFor(rates, { country: "US", region: "TX", postalCode: "73301" })?.id).toBe("us");
    expect(rateFor(rates, { country: "CA", region: "ON", postalCode: "K1A 0B1" })).toBeUndefined();
  });

  it("taxes each line, rounded per line, and the order's tax is the lines' sum", () => {
    const priced = price(
      input({
        lines: [line({ toolId: "a", unitPriceCents: 333 }), line({ toolId: "b", unitPriceCents: 333 }), line({ toolId: "c", unitPriceCents: 333 })],
        rates: [rate({ rateBasisPoints: 750 })],
      }),
    );
    // 333 × 7.5 % = 24.975 → 25 per line (half away from zero), 75 in all; on the sum it would be 74.925 → 75 too, but per line is the rule.
    expect(priced.lines.map((l) => l.taxCents)).toEqual([25, 25, 25]);
    expect(priced.taxCents).toBe(75);
    expect(priced.totalCents).toBe(999 + 75);
  });

  it("taxes pickup at the store's address and a tax-exempt customer not at all", () => {
    const rates2 = [rate({ id: "ny", region: "NY", rateBasisPoints: 800 }), rate({ id: "ca", region: "CA", rateBasisPoints: 700 })];
    expect(price(input({ rates: rates2 })).taxCents).toBe(80);
    expect(price(input({ rates: rates2, shippingMethod: "std" })).taxCents).toBe(70);
    expect(price(input({ rates: rates2, taxExempt: true }))).toMatchObject({ taxCents: 0, taxRate: null });
  });

  it("taxes delivery only where the rate says so", () => {
    const lines = [line({ unitPriceCents: 10_000 })];
    expect(price(input({ lines, shippingMethod: "std", rates: [rate({ rateBasisPoints: 1000 })] }))).toMatchObject({ shippingCents: 599, taxCents: 1000 });
    expect(price(input({ lines, shippingMethod: "std", rates: [rate({ rateBasisPoints: 1000, taxShipping: true })] }))).toMatchObject({ shippingCents: 599, taxCents: 1060 });
  });
});

describe("shipping", () => {
  it("prices by zone (a region's before its country's) and weight band, free from the threshold", () => {
    expect(deliveryPrice(STANDARD, { country: "US", region: "CA", postalCode: "" }, 1500, 1000)).toBe(599);
    expect(deliveryPrice(STANDARD, { country: "US", region: "CA", postalCode: "" }, 2001, 1000)).toBe(1999);
    expect(deliveryPrice(STANDARD, { country: "US", region: "AK", postalCode: "" }, 1500, 1000)).toBe(4999);
    expect(deliveryPrice(STANDARD, { country: "US", region: "CA", postalCode: "" }, 30_001, 1000)).toBeNull();
    expect(deliveryPrice(STANDARD, { country: "CA", region: "ON", postalCode: "" }, 100, 1000)).toBeNull();
    expect(deliveryPrice(STANDARD, { country: "US", region: "CA", postalCode: "" }, 1500, 50_000)).toBe(0);
  });

  it("lists pickup and the methods that serve the address; an unserved method is a problem, priced as pickup", () => {
    expect(price(input()).shippingOptions.map((o) => [o.id, o.priceCents])).toEqual([
      ["pickup", 0],
      ["std", 599],
    ]);
    const far = price(input({ destination: { country: "GB", region: "", postalCode: "SW1A 1AA" }, shippingMethod: "std" }));
    expect(far).toMatchObject({ problems: ["NO_SHIPPING"], shippingCents: 0, shippingMethod: { id: "pickup" } });
    expect(price(input({ shippingMethod: "nope" })).problems).toEqual(["SHIPPING_METHOD_UNKNOWN"]);
  });
});

describe("promotion codes", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  const lines = [line({ toolId: "h", category: "hand-tools", unitPriceCents: 2000 }), line({ toolId: "c", category: "chainsaws", unitPriceCents: 20_000 })];
  const withCode = (p: PromotionRow | undefined) => price(input({ lines, promoCode: "SAVE", promotion: p, now }));

  it("takes percent or an amount off the lines it applies to, spread by their subtotals", () => {
    expect(withCode(promo({ value: 10 }))).toMatchObject({ discountCents: 2200, lines: [{ discountCents: 200 }, { discountCents: 2000 }] });
    expect(withCode(promo({ categories: ["chainsaws"], value: 15 }))).toMatchObject({ discountCents: 3000, lines: [{ discountCents: 0 }, { discountCents: 3000 }] });
    expect(withCode(promo({ kind: "amount", value: 1000 }))).toMatchObject({ discountCents: 1000, lines: [{ discountCents: 91 }, { discountCents: 909 }] });
    // An amount larger than what it applies to takes that much and no more.
    expect(withCode(promo({ kind: "amount", value: 5000, categories: ["hand-tools"] }))).toMatchObject({ discountCents: 2000 });
  });

  it("refuses a code that is unknown, not started, expired, used up, below its minimum or for other categories", () => {
    expect(withCode(undefined).problems).toEqual(["PROMO_UNKNOWN"]);
    expect(withCode(promo({ active: false })).problems).toEqual(["PROMO_UNKNOWN"]);
    expect(withCode(promo({ startsAt: new Date("2026-12-01T00:00:00Z") })).problems).toEqual(["PROMO_NOT_STARTED"]);
    expect(withCode(promo({ endsAt: now })).problems).toEqual(["PROMO_EXPIRED"]);
    expect(withCode(promo({ usageLimit: 3, redemptions: 3 })).problems).toEqual(["PROMO_USED_UP"]);
    expect(withCode(promo({ perCustomerLimit: 1, customerRedemptions: 1 })).problems).toEqual(["PROMO_USED_UP_BY_YOU"]);
    expect(withCode(promo({ minSubtotalCents: 22_001 })).problems).toEqual(["PROMO_BELOW_MINIMUM"]);
    expect(withCode(promo({ categories: ["lawn-mowers"] })).problems).toEqual(["PROMO_OTHER_CATEGORIES"]);
    expect(withCode(promo({ usageLimit: 3, redemptions: 2 }))).toMatchObject({ problems: [], promotionId: "p1" });
  });

  it("taxes what was paid: the discount comes off before the tax", () => {
    const priced = price(input({ lines: [line({ unitPriceCents: 10_000 })], promoCode: "SAVE", promotion: promo({ value: 25 }), rates: [rate({ region: "NY", rateBasisPoints: 800 })] }));
    expect(priced).toMatchObject({ subtotalCents: 10_000, discountCents: 2500, taxCents: 600, totalCents: 8100 });
  });
});

describe("totals add up for random carts, rates, methods and codes", () => {
  const lineArb = fc.record({
    toolId: fc.uuid(),
    category: fc.constantFrom(...CATEGORIES),
    unitPriceCents: fc.integer({ min: 0, max: 100_000_000 }),
    quantity: fc.integer({ min: 1, max: 1000 }),
    weightGrams: fc.integer({ min: 0, max: 200_000 }),
  });
  const promoArb = fc.record({
    kind: fc.constantFrom("percent" as const, "amount" as const),
    value: fc.integer({ min: 1, max: 100 }),
    amount: fc.integer({ min: 1, max: 100_000_000 }),
    categories: fc.subarray([...CATEGORIES]),
  });

  it("total = subtotal − discount + shipping + tax on every line and the order; the order's parts are the lines' sums", () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        fc.option(promoArb, { nil: undefined }),
        fc.constantFrom("pickup", "std"),
        fc.boolean(),
        (lines, bp, taxShipping, p, method, exempt) => {
          const promotion = p ? promo({ kind: p.kind, value: p.kind === "percent" ? p.value : p.amount, categories: p.categories }) : undefined;
          const priced = price(input({ lines, rates: [rate({ rateBasisPoints: bp, taxShipping })], promoCode: p ? "SAVE" : null, promotion, shippingMethod: method, taxExempt: exempt }));
          const sum = (pick: (l: (typeof priced.lines)[number]) => number) => priced.lines.reduce((s, l) => s + pick(l), 0);
          expect(priced.totalCents).toBe(priced.subtotalCents - priced.discountCents + priced.shippingCents + priced.taxCents);
          expect(sum((l) => l.subtotalCents)).toBe(priced.subtotalCents);
          expect(sum((l) => l.discountCents)).toBe(priced.discountCents);
          expect(sum((l) => l.shippingCents)).toBe(priced.shippingCents);
          expect(sum((l) => l.taxCents)).toBe(priced.taxCents);
          expect(sum((l) => l.totalCents)).toBe(priced.totalCents);
          for (const l of priced.lines) {
            expect(l.totalCents).toBe(l.subtotalCents - l.discountCents + l.shippingCents + l.taxCents);
            expect(l.discountCents).toBeGreaterThanOrEqual(0);
            expect(l.discountCents).toBeLessThanOrEqual(l.subtotalCents);
          }
          expect(priced.discountCents).toBeLessThanOrEqual(priced.subtotalCents);
          if (exempt) expect(priced.taxCents).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is deterministic: the same input gives the same cents", () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 10_000 }), (lines, bp) => {
        const a = price(input({ lines, rates: [rate({ rateBasisPoints: bp })], promoCode: "SAVE", promotion: promo({ value: 17 }) }));
        const b = price(input({ lines, rates: [rate({ rateBasisPoints: bp })], promoCode: "SAVE", promotion: promo({ value: 17 }) }));
        expect(a).toEqual(b);
      }),
    );
  });
});

describe("a code's minimum (issue 40)", () => {
  it("is compared with the lines the code applies to, not the whole cart", async () => {
    const { promotionProblem } = await import("./price");
    const mower = line({ toolId: "m", category: "lawn-mowers", unitPriceCents: 3000 });
    const saw = line({ toolId: "s", category: "chainsaws", unitPriceCents: 9000 });
    const mowersOnly = promo({ categories: ["lawn-mowers"], minSubtotalCents: 5000 });
    // $120 in the cart, $30 of it mowers: the code's $50 minimum is not reached.
    expect(promotionProblem(mowersOnly, [mower, saw], new Date())).toBe("PROMO_BELOW_MINIMUM");
    // $60 of mowers reach it, whatever else is in the cart.
    expect(promotionProblem(mowersOnly, [{ ...mower, quantity: 2 }, saw], new Date())).toBeNull();
    expect(promotionProblem(mowersOnly, [{ ...mower, quantity: 2 }], new Date())).toBeNull();
    // A code for every category still counts the whole cart.
    expect(promotionProblem(promo({ minSubtotalCents: 5000 }), [mower, saw], new Date())).toBeNull();
  });
});
