/**
 * What could not be priced as asked (price.ts's `problems`), in words and as the API's answer:
 * the cart's estimate lists them, a placement refuses on the first.
 */
import { centsToDollars, formatDollars } from "../../contract/money";
import { MONEY_TEXT, type PricingProblem } from "../../contract/texts/money";
import { ApiError, conflict } from "../http/errors";

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

/** A problem in words; the minimum is named for PROMO_BELOW_MINIMUM. */
export const problemMessage = (code: PricingProblem, minSubtotalCents: number): string =>
  code === "PROMO_BELOW_MINIMUM" ? MONEY_TEXT.promoBelowMinimum(formatDollars(centsToDollars(minSubtotalCents))) : PROBLEM_MESSAGE[code];

/**
 * An order that cannot be priced as asked, naming the field: a code used up (in all or by this
 * customer) is a conflict with the orders before it (409, as in a race for its last use); a code
 * that is unknown, not started, expired, below its minimum or for other categories, and a
 * delivery method that does not serve the address, are bad input (400).
 */
export function pricingRefusal(problem: PricingProblem, minSubtotalCents: number): ApiError {
  const message = problemMessage(problem, minSubtotalCents);
  const field = problem.startsWith("PROMO_") ? "body.promoCode" : "body.shippingMethod";
  const details = [{ path: field, message }];
  return problem === "PROMO_USED_UP" || problem === "PROMO_USED_UP_BY_YOU" ? conflict(problem, message, { details }) : new ApiError(400, problem, message, { details });
}
