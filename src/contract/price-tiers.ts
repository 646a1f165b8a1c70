/**
 * Price tiers (DESIGN "Money" → "Price tiers"): a tool's unit price falls with the quantity
 * ordered. A ladder is ascending `minQuantity`, each above the tool's minimum, prices falling
 * below the list price; the unit price for a quantity is the last tier it reaches, else the list
 * price. One set of rules for the server (pricing/input.ts prices every order and cart with
 * `unitPriceFor`) and the browser (the tool page's table, the cart's "n more for ..."), in cents.
 */

/** A tier as stored and priced: from `minQuantity` units on, each costs `priceCents`. */
export interface TierCents {
  minQuantity: number;
  priceCents: number;
}

/** At most this many tiers a tool. */
export const MAX_PRICE_TIERS = 10;

/** The tier a quantity reaches (the last one), or undefined below the first. */
export function tierReached(tiers: readonly TierCents[], quantity: number): TierCents | undefined {
  let reached: TierCents | undefined;
  for (const tier of tiers) if (quantity >= tier.minQuantity) reached = tier;
  return reached;
}

/** The unit price for a quantity: the last tier it reaches, else the list price. */
export function unitPriceFor(listPriceCents: number, tiers: readonly TierCents[], quantity: number, discountBasisPoints = 0): number {
  const tiered = tierReached(tiers, quantity)?.priceCents ?? listPriceCents;
  // A trade account's discount (DESIGN "Trade accounts": "the lowest of list and tier price less
  // discountPercent") is taken off that price, the tier's where one is reached, per unit, rounded
  // half up to the cent.
  return discountBasisPoints > 0 ? tradePriceCents(tiered, discountBasisPoints) : tiered;
}

/** A unit price less a trade discount (basis points), rounded half up to the cent: integer arithmetic. */
export const tradePriceCents = (unitPriceCents: number, discountBasisPoints: number): number => Math.floor((unitPriceCents * (10_000 - discountBasisPoints) + 5_000) / 10_000);

/** The next tier above a quantity and how many more units reach it, or undefined at the top. */
export function nextTier(tiers: readonly TierCents[], quantity: number): (TierCents & { more: number }) | undefined {
  const next = tiers.find((t) => t.minQuantity > quantity);
  return next ? { ...next, more: next.minQuantity - quantity } : undefined;
}

/** A row of the tool page's table: `from`–`to` units (`to` null: and more) at `priceCents` each. */
export interface TierRange {
  from: number;
  to: number | null;
  priceCents: number;
}

/** The ladder as ranges from the tool's minimum: "1–9 $129.00 · 10–49 $119.00 · 50+ $109.00". */
export function tierRanges(listPriceCents: number, minimumQuantity: number, tiers: readonly TierCents[]): TierRange[] {
  const steps = [{ minQuantity: minimumQuantity, priceCents: listPriceCents }, ...tiers];
  return steps.map((step, i) => {
    const following = steps[i + 1];
    return { from: step.minQuantity, to: following ? following.minQuantity - 1 : null, priceCents: step.priceCents };
  });
}

/** What is wrong with a ladder for a tool, each with the tier's index (-1: the ladder as a whole). */
export type TierProblem = { index: number; problem: "NOT_ASCENDING" | "NOT_ABOVE_MINIMUM" | "NOT_FALLING" | "NOT_BELOW_PRICE" | "TOO_MANY" };

/**
 * The ladder's rules against the tool's list price and minimum: ascending `minQuantity` (each
 * tier above the one before), the first above the minimum, prices falling, the first below the
 * list price. The admin form and the server check the same (a PATCH of the price or minimum alone
 * is checked against the tiers the tool keeps).
 */
export function tierProblems(tiers: readonly TierCents[], listPriceCents: number, minimumQuantity: number): TierProblem[] {
  const problems: TierProblem[] = [];
  if (tiers.length > MAX_PRICE_TIERS) problems.push({ index: -1, problem: "TOO_MANY" });
  tiers.forEach((tier, i) => {
    const before = tiers[i - 1];
    if (tier.minQuantity <= minimumQuantity) problems.push({ index: i, problem: "NOT_ABOVE_MINIMUM" });
    else if (before && tier.minQuantity <= before.minQuantity) problems.push({ index: i, problem: "NOT_ASCENDING" });
    if (tier.priceCents >= listPriceCents) problems.push({ index: i, problem: "NOT_BELOW_PRICE" });
    else if (before && tier.priceCents >= before.priceCents) problems.push({ index: i, problem: "NOT_FALLING" });
  });
  return problems;
}
