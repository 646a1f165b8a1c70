import { describe, expect, it } from "vitest";
import { tierProblems } from "../../contract/price-tiers";
import { SEED_TOOLS } from "./seed-data";

describe("the demo catalogue", () => {
  it("shows price tiers on a few tools, each ladder keeping the rules (above the minimum, prices falling)", () => {
    const tiered = SEED_TOOLS.filter((t) => (t.priceTiers ?? []).length > 0);
    expect(tiered.length).toBeGreaterThanOrEqual(3);
    for (const tool of tiered) expect(tierProblems(tool.priceTiers ?? [], tool.priceCents, tool.minimumQuantity), tool.slug).toEqual([]);
  });
});
