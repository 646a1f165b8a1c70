/**
 * Every word about price tiers (DESIGN "Money" → "Price tiers"): the tool page's table, the
 * cart's and checkout's line, the purchase page, the console's form and the checks on a ladder.
 */
import { formatWhole } from "../money";

export const PRICE_TIER_TEXT = {
  /** The tool page's and purchase page's table. */
  heading: "Volume prices",
  quantity: "Quantity",
  unitPrice: "Price each",
  /** "1–9", "50+". */
  range: (from: number, to: number | null) => (to === null ? `${formatWhole(from)}+` : `${formatWhole(from)}–${formatWhole(to)}`),
  /** The one-line form of the table: "1–9 $129.00 · 10–49 $119.00 · 50+ $109.00". */
  separator: " · ",
  /** A cart, checkout or purchase line at a tier's price. */
  applies: (from: number) => `Volume price from ${formatWhole(from)}`,
  /** A trade account member's price (DESIGN "Trade accounts"): the account's discount taken off. */
  tradePrice: "Trade price",
  /** How many more units reach the next tier, and its price. */
  next: (more: number, price: string) => `${formatWhole(more)} more for ${price} each`,
  /** The console's form. */
  form: {
    legend: "Price tiers",
    hint: "Lower unit prices from a quantity on: each tier above the minimum and the one before, each price below the one before.",
    minQuantity: "From quantity",
    price: "Unit price ($)",
    minQuantityOf: (n: number) => `From quantity, tier ${n}`,
    priceOf: (n: number) => `Unit price ($), tier ${n}`,
    removeOf: (n: number) => `Remove tier ${n}`,
    add: "Add tier",
    remove: "Remove tier",
    none: "No tiers: every quantity at the list price.",
  },
} as const;

/** A ladder that breaks its rules (contract/price-tiers.ts `tierProblems`), in the form's and the API's words. */
export const PRICE_TIER_VALIDATION_TEXT = {
  TOO_MANY: (max: number) => `A tool may have at most ${max} price tiers`,
  NOT_ABOVE_MINIMUM: (minimum: number) => `A tier starts above the minimum order (${formatWhole(minimum)})`,
  NOT_ASCENDING: "Each tier starts at a larger quantity than the one before",
  NOT_BELOW_PRICE: "A tier's price is below the tool's price",
  NOT_FALLING: "Each tier's price is below the one before",
  minQuantity: "A tier starts at a whole quantity of 2 or more",
} as const;
