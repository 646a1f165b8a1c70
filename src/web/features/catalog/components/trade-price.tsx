/**
 * A trade account member's price on the tool page (DESIGN "Trade accounts"): the list price, or
 * the tier's, less the account's discount, at the tool's minimum quantity, marked as the trade
 * price. Nothing for anyone else (the public page, cached and server-rendered, shows list prices).
 */
import { dollarsToCents, formatDollars } from "../../../../contract/money";
import { unitPriceFor } from "../../../../contract/price-tiers";
import type { Tool } from "../../../../contract/schemas";
import { PRICE_TIER_TEXT } from "../../../../contract/texts/price-tiers";
import { useTradeDiscount } from "../../trade";

export function TradePrice({ tool }: { tool: Pick<Tool, "price" | "priceTiers" | "minimumQuantity"> }) {
  const discount = useTradeDiscount();
  if (discount <= 0) return null;
  const tiers = tool.priceTiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) }));
  const cents = unitPriceFor(dollarsToCents(tool.price), tiers, tool.minimumQuantity, discount);
  return (
    <p className="text-success font-semibold" data-testid="trade-price">
      {PRICE_TIER_TEXT.tradePrice}: {formatDollars(cents / 100)}
    </p>
  );
}
