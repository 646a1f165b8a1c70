/**
 * A tool's volume prices (DESIGN "Price tiers"): the ladder as a small one-line table,
 * "1–9 $129.00 · 10–49 $119.00 · 50+ $109.00", on the tool page and the purchase page; and a
 * cart or checkout line's tier ("Volume price from 10 · 38 more for $109.00 each").
 */
import { dollarsToCents, formatDollars } from "../../../contract/money";
import { tierRanges, tierReached } from "../../../contract/price-tiers";
import type { PriceTier } from "../../../contract/schemas";
import { PRICE_TIER_TEXT } from "../../../contract/texts/price-tiers";

/** The ladder from the tool's minimum; `quantity` marks the range it falls in. Nothing for a tool without tiers. */
export function PriceTiersTable({ tool, quantity }: { tool: { price: number; minimumQuantity: number; priceTiers: PriceTier[] }; quantity?: number }) {
  if (tool.priceTiers.length === 0) return null;
  const tiers = tool.priceTiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) }));
  const ranges = tierRanges(dollarsToCents(tool.price), tool.minimumQuantity, tiers);
  const current = quantity === undefined ? undefined : (tierReached(tiers, quantity)?.minQuantity ?? tool.minimumQuantity);
  return (
    <section aria-labelledby="price-tiers-heading" className="flex flex-col gap-1">
      <h2 id="price-tiers-heading" className="text-sm font-medium">
        {PRICE_TIER_TEXT.heading}
      </h2>
      <ul className="text-sm" data-testid="price-tiers">
        {ranges.map((range, i) => (
          <li key={range.from} className="inline" {...(range.from === current ? { "aria-current": "true" as const } : {})}>
            {i > 0 && <span aria-hidden="true">{PRICE_TIER_TEXT.separator}</span>}
            <span className={range.from === current ? "bg-primary/15 rounded px-1 font-semibold" : ""}>
              {PRICE_TIER_TEXT.range(range.from, range.to)} {formatDollars(range.priceCents / 100)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A line's trade price, tier and the next one: nothing at the list price with no tier ahead. */
export function TierNote({ tier, nextTier, tradePrice }: { tier?: PriceTier | undefined; nextTier?: (PriceTier & { more: number }) | undefined; tradePrice?: boolean | undefined }) {
  if (!tier && !nextTier && !tradePrice) return null;
  const parts = [
    tradePrice ? PRICE_TIER_TEXT.tradePrice : null,
    tier ? PRICE_TIER_TEXT.applies(tier.minQuantity) : null,
    nextTier ? PRICE_TIER_TEXT.next(nextTier.more, formatDollars(nextTier.price)) : null,
  ].filter(Boolean);
  return (
    <span className="text-success block text-xs" data-testid="line-tier">
      {parts.join(PRICE_TIER_TEXT.separator)}
    </span>
  );
}
