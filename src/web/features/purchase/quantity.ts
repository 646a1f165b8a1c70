import { PURCHASE_TEXT } from "../../../contract/texts/shop";
import { VALIDATION_TEXT } from "../../../contract/texts/validation";

export type AddResult = { ok: true; quantity: number } | { ok: false; message: string };

/**
 * The 'Add' rule: the entered amount must be present and greater than 0 (spec §5), and the
 * order quantity can never pass the available stock (our fix of the spec's missing check).
 */
export function addToQuantity(current: number, entered: string, available: number): AddResult {
  const trimmed = entered.trim();
  const amount = Number(trimmed);
  if (trimmed === "" || !Number.isInteger(amount) || amount <= 0) {
    return { ok: false, message: VALIDATION_TEXT.invalidData };
  }
  if (current + amount > available) return { ok: false, message: PURCHASE_TEXT.exceedsStock(available) };
  return { ok: true, quantity: current + amount };
}
