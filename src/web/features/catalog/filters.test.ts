import { describe, expect, it } from "vitest";
import type { Facets } from "../../../contract/catalogue-io";
import { browseSearch, parseBrowse, rangeValue, splitRange } from "./browse-state";
import { categoryLinks, chosenCount, facetsPath, facetsQueryOf, filterView, filtersKey, filtersOfFields } from "./filters";
import type { CatalogueMenu } from "./menu";

const parse = (search: string) => parseBrowse(new URLSearchParams(search));

const menu: CatalogueMenu = {
  categories: [],
  brands: [
    { slug: "voltline", name: "Voltline" },
    { slug: "greenacre", name: "Greenacre" },
    { slug: "timberwolf", name: "Timberwolf" },
  ],
  specs: [{ key: "power_source", values: ["battery", "petrol", "mains"] }],
};

const facets: Facets = {
  total: 3,
  categories: [{ slug: "chainsaws", name: "Chainsaws", count: 3, children: [{ slug: "petrol-chainsaws", name: "Petrol Chainsaws", count: 2, children: [] }] }],
  // Disjunctive: a checked brand's siblings keep their counts; Timberwolf leaves nothing here.
  brands: [
    { slug: "greenacre", name: "Greenacre", count: 1 },
    { slug: "voltline", name: "Voltline", count: 2 },
  ],
  specs: [
    { key: "power_source", name: "Power source", unit: null, kind: "choice", values: [{ value: "petrol", count: 2 }, { value: "battery", count: 1 }] },
    { key: "cordless", name: "Cordless", unit: null, kind: "choice", values: [{ value: true, count: 1 }] },
    { key: "bar_length", name: "Bar length", unit: "in", kind: "range", min: 12, max: 20 },
  ],
  price: { min: 99, max: 499 },
};

describe("a number specification's range in the address", () => {
  it("is min..max from the form's two ends, open at either, nothing without a number", () => {
    expect(rangeValue("12", "18")).toBe("12..18");
    expect(rangeValue("12", "")).toBe("12..");
    expect(rangeValue(" ", "18.5")).toBe("..18.5");
    expect(rangeValue("", "")).toBeUndefined();
    expect(rangeValue("abc", undefined)).toBeUndefined();
    expect(splitRange("12..18")).toEqual({ min: "12", max: "18" });
    expect(splitRange("..18")).toEqual({ min: "", max: "18" });
    expect(splitRange("18")).toBeUndefined();
    expect(splitRange("..")).toBeUndefined();
  });

  it("a form sent without JavaScript (spec.<key>.min, spec.<key>.max) reads as the API's min..max, and is written back so", () => {
    const state = parse("spec.bar_length.min=12&spec.bar_length.max=18&brand=voltline");
    expect(state.spec).toEqual({ bar_length: ["12..18"] });
    expect(browseSearch(state)).toBe("brand=voltline&spec.bar_length=12..18");
    expect(parse("spec.bar_length.min=&spec.bar_length.max=").spec).toBeUndefined();
    expect(parse("spec.bar_length.max=20").spec).toEqual({ bar_length: ["..20"] });
  });
});

describe("the facets' query", () => {
  it("is the list's filters without its page and order, at the facets' address", () => {
    const query = facetsQueryOf({ category: "chainsaws", brand: ["voltline"], spec: { bar_length: ["12..18"] }, page: 3, limit: 12, sort: "newest", q: "saw" });
    expect(query).toEqual({ category: "chainsaws", brand: ["voltline"], spec: { bar_length: ["12..18"] }, q: "saw" });
    expect(facetsPath(query)).toBe("/api/tool/facets?category=chainsaws&q=saw&brand=voltline&spec.bar_length=12..18");
    expect(facetsPath({})).toBe("/api/tool/facets");
  });
});

describe("what the filters show", () => {
  it("every brand with its count; a checked one stays offered beside the others; one that leaves nothing is disabled", () => {
    const view = filterView(menu, facets, parse("brand=voltline"));
    expect(view.brands).toEqual([
      { value: "greenacre", label: "Greenacre (1)", checked: false, disabled: false },
      { value: "timberwolf", label: "Timberwolf (0)", checked: false, disabled: true },
      { value: "voltline", label: "Voltline (2)", checked: true, disabled: false },
    ]);
  });

  it("a checked choice that leaves nothing stays enabled, so it can be unchecked", () => {
    const view = filterView(menu, { ...facets, brands: [{ slug: "timberwolf", name: "Timberwolf", count: 0 }] }, parse("brand=timberwolf"));
    expect(view.brands.find((b) => b.value === "timberwolf")).toEqual({ value: "timberwolf", label: "Timberwolf (0)", checked: true, disabled: false });
  });

  it("each specification: values with counts (the catalogue's others disabled), yes/no for a boolean, a number as a range", () => {
    const view = filterView(menu, facets, parse("spec.power_source=petrol&spec.bar_length=14..&spec.bar_length=16&spec.gone=1"));
    expect(view.specs).toEqual([
      {
        kind: "choice",
        key: "power_source",
        legend: "Power source",
        choices: [
          { value: "battery", label: "battery (1)", checked: false, disabled: false },
          { value: "mains", label: "mains (0)", checked: false, disabled: true },
          { value: "petrol", label: "petrol (2)", checked: true, disabled: false },
        ],
      },
      { kind: "choice", key: "cordless", legend: "Cordless", choices: [{ value: "true", label: "Yes (1)", checked: false, disabled: false }] },
      { kind: "range", key: "bar_length", legend: "Bar length (in)", min: "14", max: "", low: "12", high: "20" },
    ]);
    // What no control shows is still sent with the form.
    expect(view.kept).toEqual([
      { name: "spec.bar_length", value: "16" },
      { name: "spec.gone", value: "1" },
    ]);
  });

  it("without facets (not there yet): no counts, nothing disabled", () => {
    const view = filterView(menu, undefined, parse(""));
    expect(view.brands.map((b) => [b.label, b.disabled])).toEqual([
      ["Greenacre", false],
      ["Timberwolf", false],
      ["Voltline", false],
    ]);
    expect(view.specs).toEqual([]);
  });

  it("the category tree as links with counts, the current one marked, an empty one disabled", () => {
    const options = [
      { slug: "chainsaws", name: "Chainsaws", depth: 0 },
      { slug: "petrol-chainsaws", name: "Petrol Chainsaws", depth: 1 },
      { slug: "hand-tools", name: "Hand Tools", depth: 0 },
    ];
    expect(categoryLinks(options, facets, parse("category=chainsaws"))).toEqual([
      { slug: undefined, label: "All tools", depth: 0, current: false, disabled: false },
      { slug: "chainsaws", label: "Chainsaws (3)", depth: 0, current: true, disabled: false },
      { slug: "petrol-chainsaws", label: "Petrol Chainsaws (2)", depth: 1, current: false, disabled: false },
      { slug: "hand-tools", label: "Hand Tools (0)", depth: 0, current: false, disabled: true },
    ]);
  });
});

describe("the filters a form chooses", () => {
  it("reads brands, values and a range from the fields, in any order the same", () => {
    const fields: [string, string][] = [
      ["brand", "voltline"],
      ["spec.power_source", "petrol"],
      ["spec.bar_length.min", "12"],
      ["spec.bar_length.max", ""],
      ["brand", "greenacre"],
    ];
    const chosen = filtersOfFields(fields);
    expect(chosen).toEqual({ brand: ["voltline", "greenacre"], spec: { power_source: ["petrol"], bar_length: ["12.."] } });
    expect(filtersKey(chosen)).toBe(filtersKey(parse("spec.bar_length=12..&brand=greenacre&spec.power_source=petrol&brand=voltline")));
    expect(filtersKey(chosen)).not.toBe(filtersKey(parse("brand=greenacre")));
    expect(filtersOfFields([])).toEqual({ brand: undefined, spec: undefined });
    // The key reads back as the same choice, whatever its values hold.
    const odd = { brand: ["b"], spec: { power_source: ["Petrol & Oil"] } };
    expect(filtersOfFields(new URLSearchParams(filtersKey(odd)))).toEqual(odd);
  });

  it("counts what is chosen for the phone's button", () => {
    expect(chosenCount(parse(""))).toBe(0);
    expect(chosenCount(parse("category=chainsaws&brand=a&brand=b&spec.x=1&minPrice=5&maxPrice=9"))).toBe(5);
  });
});
