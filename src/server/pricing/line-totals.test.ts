/**
 * Properties of a line's money (DESIGN "Price tiers", "Quotes"): over random ladders, quantities,
 * codes and rates, every line priced through the one input builder (input.ts) is at the last tier
 * its quantity reaches, its total is exactly unit price × quantity (never a rounded product, which
 * e-invoice validators reject), and the lines add up to the order, to the cent; a quote's revision
 * is at the owner's unit prices and quoted shipping, and adds up the same way.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tierProblems, unitPriceFor, type TierCents } from "../../contract/price-tiers";
import type { PricingContext } from "./context";
import { pricingInput, quotePricingInput } from "./input";
import { price } from "./price";

const STORE = { country: "US", region: "NY", postalCode: "11201", legalName: "Toolyard", address: "1 Dock St", city: "Brooklyn", taxId: "" };

/** A tool and a ladder that keeps the rules: ascending quantities above the minimum, prices falling below the list price. */
const toolArb = fc
  .record({
    priceCents: fc.integer({ min: 2, max: 5_000_000 }),
    minimum: fc.integer({ min: 1, max: 20 }),
    steps: fc.array(fc.record({ gap: fc.integer({ min: 1, max: 500 }), cut: fc.integer({ min: 1, max: 10_000 }) }), { maxLength: 10 }),
  })
  .map(({ priceCents, minimum, steps }) => {
    const tiers: TierCents[] = [];
    let quantity = minimum;
    let cents = priceCents;
    for (const { gap, cut } of steps) {
      quantity += gap;
      cents -= Math.min(cut, cents - 1);
      if (cents < 1 || cents >= (tiers.at(-1)?.priceCents ?? priceCents)) break;
      tiers.push({ minQuantity: quantity, priceCents: cents });
    }
    return { priceCents, minimum, tiers };
  });

describe("tiered line totals", () => {
  it("the generated ladders keep the rules (the property below is about valid ones)", () => {
    fc.assert(
      fc.property(toolArb, (tool) => {
        expect(tierProblems(tool.tiers, tool.priceCents, tool.minimum)).toEqual([]);
      }),
    );
  });

  it("each line is at the last tier reached, its total is exactly unit × quantity, and the lines add up to the order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(toolArb, fc.integer({ min: 0, max: 5_000 })), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.boolean(),
        (picked, bp, percentOff, exempt) => {
          const tools = picked.map(([tool], i) => ({ id: `t${i}`, ...tool }));
          const ctx: PricingContext = {
            rates: [{ id: "r", name: "Tax", country: "US", region: "NY", postalPrefix: "", rateBasisPoints: bp, taxShipping: false }],
            methods: [],
            store: STORE,
            tools: new Map(tools.map((t) => [t.id, { priceCents: t.priceCents, priceTiers: t.tiers, weightGrams: 100, category: "hand-tools" as const }])),
            exempt: new Map(exempt ? [["u", "EX-1"]] : []),
            places: new Map(),
            members: new Map(),
          };
          const lines = tools.map((t, i) => ({ toolId: t.id, quantity: t.minimum + (picked[i]?.[1] ?? 0) }));
          const promotion = percentOff
            ? { id: "p", code: "OFF", kind: "percent" as const, value: percentOff, minSubtotalCents: 0, startsAt: null, endsAt: null, usageLimit: null, perCustomerLimit: null, categories: [], active: true, redemptions: 0, byCustomer: new Map<string, number>() }
            : undefined;
          const priced = price(
            pricingInput(ctx, { userId: "u", lines, destination: null, shippingMethod: "pickup", promoCode: percentOff ? "OFF" : null }, promotion, new Date("2026-11-27T12:00:00Z")),
          );
          priced.lines.forEach((line, i) => {
            const tool = tools[i] as (typeof tools)[number];
            const quantity = (lines[i] as { quantity: number }).quantity;
            expect(line.unitPriceCents).toBe(unitPriceFor(tool.priceCents, tool.tiers, quantity));
            expect(line.unitPriceCents).toBeLessThanOrEqual(tool.priceCents);
            // One more unit never costs more a unit.
            expect(unitPriceFor(tool.priceCents, tool.tiers, quantity + 1)).toBeLessThanOrEqual(line.unitPriceCents);
            expect(line.subtotalCents).toBe(line.unitPriceCents * quantity);
            expect(line.totalCents).toBe(line.subtotalCents - line.discountCents + line.shippingCents + line.taxCents);
          });
          const sum = (pick: (l: (typeof priced.lines)[number]) => number) => priced.lines.reduce((s, l) => s + pick(l), 0);
          expect(sum((l) => l.subtotalCents)).toBe(priced.subtotalCents);
          expect(sum((l) => l.discountCents)).toBe(priced.discountCents);
          expect(sum((l) => l.taxCents)).toBe(priced.taxCents);
          expect(sum((l) => l.totalCents)).toBe(priced.totalCents);
          expect(priced.totalCents).toBe(priced.subtotalCents - priced.discountCents + priced.shippingCents + priced.taxCents);
          if (exempt) expect(priced.taxCents).toBe(0);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("a quote's revision: each line exactly the owner's unit price × quantity, the quoted shipping spread and taxed, and everything adds up", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ unitPriceCents: fc.integer({ min: 0, max: 5_000_000 }), quantity: fc.integer({ min: 1, max: 10_000 }) }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        fc.boolean(),
        (lines, shippingCents, bp, taxShipping, delivered) => {
          const ctx: PricingContext = {
            rates: [
              { id: "ny", name: "New York", country: "US", region: "NY", postalPrefix: "", rateBasisPoints: 800, taxShipping: false },
              { id: "ca", name: "California", country: "US", region: "CA", postalPrefix: "", rateBasisPoints: bp, taxShipping },
            ],
            methods: [],
            store: STORE,
            tools: new Map(lines.map((_, i) => [`t${i}`, { priceCents: 999_999, priceTiers: [{ minQuantity: 2, priceCents: 1 }], weightGrams: 100, category: "chainsaws" as const }])),
            exempt: new Map(),
            places: new Map(),
            members: new Map(),
          };
          const priced = price(
            quotePricingInput(
              ctx,
              {
                userId: "u",
                lines: lines.map((l, i) => ({ toolId: `t${i}`, ...l })),
                destination: delivered ? { country: "US", region: "CA", postalCode: "90001" } : null,
                shipping: { name: "Quoted", priceCents: shippingCents },
              },
              new Date("2026-11-27T12:00:00Z"),
            ),
          );
          expect(priced.problems).toEqual([]);
          expect(priced.shippingCents).toBe(shippingCents);
          // Neither the list price nor the tiers: the owner's price.
          priced.lines.forEach((line, i) => {
            const asked = lines[i] as { unitPriceCents: number; quantity: number };
            expect(line.unitPriceCents).toBe(asked.unitPriceCents);
            expect(line.subtotalCents).toBe(asked.unitPriceCents * asked.quantity);
            expect(line.totalCents).toBe(line.subtotalCents + line.shippingCents + line.taxCents);
          });
          const sum = (pick: (l: (typeof priced.lines)[number]) => number) => priced.lines.reduce((acc, l) => acc + pick(l), 0);
          expect(sum((l) => l.subtotalCents)).toBe(priced.subtotalCents);
          expect(sum((l) => l.shippingCents)).toBe(priced.shippingCents);
          expect(sum((l) => l.taxCents)).toBe(priced.taxCents);
          expect(sum((l) => l.totalCents)).toBe(priced.totalCents);
          expect(priced.totalCents).toBe(priced.subtotalCents + priced.shippingCents + priced.taxCents);
          expect(priced.taxRate?.name).toBe(delivered ? "California" : "New York");
        },
      ),
      { numRuns: 400 },
    );
  });
});
