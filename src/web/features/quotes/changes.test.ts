import { describe, expect, it } from "vitest";
import type { QuoteRevision } from "../../../contract/quote-schemas";
import { revisionChanges } from "./changes";

const revision = (lines: { toolId: string; name: string; quantity: number; unitPrice: number }[], shipping = 0): QuoteRevision => ({
  revision: 1,
  status: "sent",
  lines: lines.map((l) => ({ ...l, lineTotal: l.quantity * l.unitPrice })),
  subtotal: 0,
  shipping,
  tax: 0,
  total: 0,
  validUntil: "2026-12-31T23:59:59.999Z",
  message: "",
  holdStock: false,
  taxRate: null,
  taxExemptCertificate: null,
  createdAt: "2026-11-27T00:00:00.000Z",
});

describe("what changed between two revisions", () => {
  it("names each tool whose quantity or price changed, those added and removed, and the shipping", () => {
    const before = revision(
      [
        { toolId: "a", name: "Saw", quantity: 20, unitPrice: 300 },
        { toolId: "b", name: "Chain", quantity: 10, unitPrice: 20 },
        { toolId: "c", name: "Oil", quantity: 5, unitPrice: 8 },
      ],
      50,
    );
    const after = revision(
      [
        { toolId: "a", name: "Saw", quantity: 25, unitPrice: 290 },
        { toolId: "c", name: "Oil", quantity: 5, unitPrice: 8 },
        { toolId: "d", name: "Helmet", quantity: 2, unitPrice: 40 },
      ],
      0,
    );
    expect(revisionChanges(before, after)).toEqual([
      "Saw: 20 × $300.00 → 25 × $290.00",
      "Helmet: added (2 × $40.00)",
      "Chain: removed",
      "Shipping: $50.00 → $0.00",
    ]);
    expect(revisionChanges(after, after)).toEqual([]);
  });
});
