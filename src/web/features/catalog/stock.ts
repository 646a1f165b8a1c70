import { LOW_STOCK } from "../../../contract/constants";
import type { Tool } from "../../../contract/schemas";
import { TOOL_TEXT } from "../../../contract/texts/tool";

/** 'In stock', 'Only N left' or 'Out of stock': a minimum above the stock cannot be ordered, so it is out of stock. */
export function stockState(tool: Pick<Tool, "availableQuantity" | "minimumQuantity">): { text: string; orderable: boolean } {
  if (tool.availableQuantity < Math.max(1, tool.minimumQuantity)) return { text: TOOL_TEXT.outOfStock, orderable: false };
  if (tool.availableQuantity <= LOW_STOCK) return { text: TOOL_TEXT.onlyLeft(tool.availableQuantity), orderable: true };
  return { text: TOOL_TEXT.inStock, orderable: true };
}
