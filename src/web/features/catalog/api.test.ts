import { describe, expect, it } from "vitest";
import { toolListPath } from "./browse-state";
import { menuOfFacets } from "./menu";

describe("the catalogue's list address", () => {
  it("sends each brand and each specification value as its own parameter, as the API reads them", () => {
    expect(toolListPath({ category: "chainsaws", page: 2, limit: 12 })).toBe("/api/tool?category=chainsaws&page=2&limit=12");
    expect(toolListPath({ brand: ["timberwolf", "voltline"], spec: { bar_length: ["16", "18..20"] }, limit: 12 })).toBe(
      "/api/tool?limit=12&brand=timberwolf&brand=voltline&spec.bar_length=16&spec.bar_length=18..20",
    );
    expect(toolListPath({ spec: { power_source: ["Petrol & Oil"] } })).toBe("/api/tool?spec.power_source=Petrol+%26+Oil");
  });
});

describe("the catalogue's menu from the facets", () => {
  it("lists the tree parents first, each child under its parent, and the brands", () => {
    const menu = menuOfFacets({
      categories: [
        { slug: "chainsaws", name: "Chainsaws", children: [{ slug: "petrol-chainsaws", name: "Petrol Chainsaws", children: [{ slug: "pro", name: "Pro" }] }] },
        { slug: "hand-tools", name: "Hand Tools", children: [] },
      ],
      brands: [{ slug: "timberwolf", name: "Timberwolf" }],
    });
    expect(menu).toEqual({
      categories: [
        { slug: "chainsaws", name: "Chainsaws", parentSlug: null },
        { slug: "petrol-chainsaws", name: "Petrol Chainsaws", parentSlug: "chainsaws" },
        { slug: "pro", name: "Pro", parentSlug: "petrol-chainsaws" },
        { slug: "hand-tools", name: "Hand Tools", parentSlug: null },
      ],
      brands: [{ slug: "timberwolf", name: "Timberwolf" }],
      specs: [],
    });
  });

  it("keeps every value of each choice specification, as the address names it, and no range", () => {
    const menu = menuOfFacets({
      specs: [
        { key: "cordless", kind: "choice", values: [{ value: true }, { value: false }] },
        { key: "power_source", kind: "choice", values: [{ value: "petrol" }] },
        { key: "bar_length", kind: "range" },
      ],
    });
    expect(menu.specs).toEqual([
      { key: "cordless", values: ["true", "false"] },
      { key: "power_source", values: ["petrol"] },
    ]);
  });
});
