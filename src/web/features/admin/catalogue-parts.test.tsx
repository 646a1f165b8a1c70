/** The category tree as the console's selects and tree show it: parents before children, siblings in order, indented by depth. */
import { describe, expect, it } from "vitest";
import type { CategoryNode } from "../../../contract/catalogue-schemas";
import { childrenByParent, flattenTree, indented } from "./catalogue-parts";

const node = (slug: string, parentSlug: string | null, position: number): CategoryNode => ({ slug, name: slug.toUpperCase(), parentSlug, position });

describe("the category tree", () => {
  // As GET /api/admin/categories answers: parents before children, siblings by position.
  const list = [node("hand-tools", null, 0), node("saws", "hand-tools", 0), node("japanese", "saws", 0), node("hammers", "hand-tools", 1), node("chainsaws", null, 3)];

  it("groups the children under each parent, in the order given", () => {
    const byParent = childrenByParent(list);
    expect(byParent.get(null)?.map((n) => n.slug)).toEqual(["hand-tools", "chainsaws"]);
    expect(byParent.get("hand-tools")?.map((n) => n.slug)).toEqual(["saws", "hammers"]);
    expect(byParent.get("hammers")).toBeUndefined();
  });

  it("walks it depth first with each category's depth, for an indented select", () => {
    expect(flattenTree(list).map(({ node: n, depth }) => [n.slug, depth])).toEqual([
      ["hand-tools", 0],
      ["saws", 1],
      ["japanese", 2],
      ["hammers", 1],
      ["chainsaws", 0],
    ]);
    expect(indented("Saws", 0)).toBe("Saws");
    expect(indented("Japanese", 2)).toBe("\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0– Japanese");
  });
});
