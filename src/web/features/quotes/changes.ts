/**
 * What changed from one revision to the next (DESIGN "Quotes": a new revision supersedes the
 * last, and the customer sees what changed): each tool's quantity and unit price, tools added and
 * removed, and the shipping, in words.
 */
import { formatDollars } from "../../../contract/money";
import type { QuoteRevision } from "../../../contract/quote-schemas";
import { QUOTE_TEXT } from "../../../contract/texts/quotes";

const priced = (l: { quantity: number; unitPrice: number }) => `${l.quantity} × ${formatDollars(l.unitPrice)}`;

export function revisionChanges(before: QuoteRevision, after: QuoteRevision): string[] {
  const changes: string[] = [];
  const old = new Map(before.lines.map((l) => [l.toolId, l]));
  for (const line of after.lines) {
    const was = old.get(line.toolId);
    if (!was) changes.push(`${QUOTE_TEXT.added(line.name)} (${priced(line)})`);
    else if (was.quantity !== line.quantity || was.unitPrice !== line.unitPrice) changes.push(QUOTE_TEXT.change(line.name, priced(was), priced(line)));
    old.delete(line.toolId);
  }
  for (const gone of old.values()) changes.push(QUOTE_TEXT.removed(gone.name));
  if (before.shipping !== after.shipping) changes.push(QUOTE_TEXT.shippingChange(formatDollars(before.shipping), formatDollars(after.shipping)));
  return changes;
}
