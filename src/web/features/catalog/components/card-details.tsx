import { formatDollars } from "../../../../contract/dollars";
import type { Tool } from "../../../../contract/schemas";
import { CATALOG_TEXT } from "../../../../contract/texts/catalog";

/**
 * A catalogue card's brand and, for a product (one card per product, issue 50), how many tools it
 * has and "from" its cheapest when that is not the price shown. The catalogue and a tool page's
 * related tools show them (ToolGrid's `details`).
 */
export function cardDetails(tool: Tool) {
  return (
    <>
      {tool.brand && (
        <p className="text-sm" data-testid="tool-brand">
          {tool.brand.name}
        </p>
      )}
      {tool.variantCount > 1 && (
        <p className="text-sm" data-testid="tool-variants">
          {CATALOG_TEXT.variants(tool.variantCount, tool.priceFrom < tool.price ? formatDollars(tool.priceFrom) : null)}
        </p>
      )}
    </>
  );
}
