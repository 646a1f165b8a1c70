import { describe, expect, it } from "vitest";
import { CATALOG_TEXT } from "../../../contract/texts/catalog";
import { VALIDATION_TEXT } from "../../../contract/texts/validation";
import { browseApiQuery, browseSearch, changeBrowse, checkPriceRange, defaultSort, hasNextPage, parseBrowse, parsePrice, sortChosen } from "./browse-state";
import { moveActive } from "./suggest";

const parse = (search: string) => parseBrowse(new URLSearchParams(search));

describe("the catalogue's URL state", () => {
  it("reads every field and writes it back in one canonical order", () => {
    const state = parse("page=3&maxPrice=250.5&minPrice=10&sort=price-desc&q=saw&category=chainsaws");
    expect(state).toEqual({ category: "chainsaws", q: "saw", sort: "price-desc", minPrice: 10, maxPrice: 250.5, page: 3 });
    expect(browseSearch(state)).toBe("category=chainsaws&q=saw&sort=price-desc&minPrice=10&maxPrice=250.5&page=3");
    expect(parse(browseSearch(state))).toEqual(state);
  });

  it("leaves defaults out of the URL: page 1, the spec's order, relevance when searching", () => {
    expect(browseSearch(parse(""))).toBe("");
    expect(browseSearch(parse("page=1&sort=oldest"))).toBe("");
    expect(browseSearch(parse("q=saw&sort=relevance"))).toBe("q=saw");
    // Oldest is a choice when searching (the default there is relevance) and stays.
    expect(browseSearch(parse("q=saw&sort=oldest"))).toBe("q=saw&sort=oldest");
    // Relevance without a search means nothing.
    expect(parse("sort=relevance").sort).toBeUndefined();
  });

  it("ignores what it cannot use", () => {
    // A category is any slug of the tree (the API answers for one it does not know); this is no slug.
    expect(parse("category=Spoons%21&sort=cheapest&page=-2&minPrice=-5&maxPrice=abc&q=%20%20&brand=Bad%20Brand&spec.%3Cx%3E=1&spec.voltage=")).toEqual({
      category: undefined,
      q: undefined,
      sort: undefined,
      minPrice: undefined,
      maxPrice: undefined,
      page: 1,
    });
    expect(parse("page=x").page).toBe(1);
    expect(parse(`q=${"a".repeat(150)}`).q).toHaveLength(100);
  });

  it("reads a sub-category, brands and specification filters, and writes them back as the API takes them", () => {
    const state = parse("spec.voltage=18&brand=voltline&category=drills-and-drivers&brand=ironbark&spec.voltage=36&spec.bar_length=14..20&brand=voltline");
    expect(state).toEqual({
      category: "drills-and-drivers",
      brand: ["voltline", "ironbark"],
      spec: { voltage: ["18", "36"], bar_length: ["14..20"] },
      q: undefined,
      sort: undefined,
      minPrice: undefined,
      maxPrice: undefined,
      page: 1,
    });
    expect(browseSearch(state)).toBe("category=drills-and-drivers&brand=voltline&brand=ironbark&spec.voltage=18&spec.voltage=36&spec.bar_length=14..20");
    expect(parse(browseSearch(state))).toEqual(state);
    // The list the page and the server's render ask for carries them all.
    expect(browseApiQuery(state, 12)).toMatchObject({ category: "drills-and-drivers", brand: ["voltline", "ironbark"], spec: { voltage: ["18", "36"], bar_length: ["14..20"] } });
    // A change of filter starts again at page 1 and keeps the others.
    expect(browseSearch(changeBrowse({ ...state, page: 3 }, { brand: ["ironbark"] }))).toBe("category=drills-and-drivers&brand=ironbark&spec.voltage=18&spec.voltage=36&spec.bar_length=14..20");
  });

  it("takes the select's empty value for the default order of the search, so a new search sent with it is by relevance", () => {
    expect(sortChosen("")).toBeUndefined();
    expect(sortChosen("newest")).toBe("newest");
    expect(sortChosen("cheapest-first")).toBeUndefined();
    // What the catalogue's one form sends without the app: the box's words and the select's "".
    const searched = parse("category=&sort=&q=chainsaw");
    expect(searched.sort).toBeUndefined();
    expect(defaultSort(searched.q)).toBe("relevance");
    expect(browseSearch(searched)).toBe("q=chainsaw");
    expect(parse("q=saw&sort=price-desc").sort).toBe("price-desc");
  });

  it("goes back to page 1 when the filter, search, sort or price range changes, and keeps the rest", () => {
    const state = parse("category=chainsaws&q=saw&page=4");
    expect(browseSearch(changeBrowse(state, { sort: "price-asc" }))).toBe("category=chainsaws&q=saw&sort=price-asc");
    expect(browseSearch(changeBrowse(state, { minPrice: 5, maxPrice: 50 }))).toBe("category=chainsaws&q=saw&minPrice=5&maxPrice=50");
    expect(browseSearch(changeBrowse(state, { q: undefined }))).toBe("category=chainsaws");
    expect(browseSearch(changeBrowse(state, { category: undefined }))).toBe("q=saw");
    expect(browseSearch(changeBrowse(state, { page: 5 }))).toBe("category=chainsaws&q=saw&page=5");
  });

  it("asks the API for the same view", () => {
    expect(browseApiQuery(parse("q=saw&sort=price-asc&minPrice=0&page=2"), 12)).toEqual({
      category: undefined,
      q: "saw",
      page: 2,
      limit: 12,
      sort: "price-asc",
      minPrice: 0,
      maxPrice: undefined,
    });
  });

  it("reads prices as dollars ≥ 0", () => {
    expect(parsePrice("0")).toBe(0);
    expect(parsePrice("19.99")).toBe(19.99);
    expect(parsePrice("")).toBeUndefined();
    expect(parsePrice("-1")).toBeUndefined();
    expect(parsePrice("Infinity")).toBeUndefined();
  });
});

describe("the price range rule", () => {
  it("refuses a max below the min with the API's message, on the max", () => {
    expect(checkPriceRange("100", "50")).toEqual({ ok: false, message: VALIDATION_TEXT.priceRange, field: "maxPrice" });
  });

  it("takes an open or equal range, and refuses a negative price on its field", () => {
    expect(checkPriceRange("50", "50")).toEqual({ ok: true, minPrice: 50, maxPrice: 50 });
    expect(checkPriceRange(" 10 ", "")).toEqual({ ok: true, minPrice: 10, maxPrice: undefined });
    expect(checkPriceRange("", "")).toEqual({ ok: true, minPrice: undefined, maxPrice: undefined });
    expect(checkPriceRange("-1", "")).toMatchObject({ ok: false, field: "minPrice" });
  });
});

describe("paging", () => {
  it("has a next page while the exact total goes on", () => {
    expect(hasNextPage({ page: 1, total: 17, exact: true, shown: 12, limit: 12 })).toBe(true);
    expect(hasNextPage({ page: 2, total: 17, exact: true, shown: 5, limit: 12 })).toBe(false);
    expect(hasNextPage({ page: 1, total: 12, exact: true, shown: 12, limit: 12 })).toBe(false);
  });

  it("past an inexact total, a full page may have more, up to the deepest page the API serves", () => {
    expect(hasNextPage({ page: 90, total: 1000, exact: false, shown: 12, limit: 12 })).toBe(true);
    expect(hasNextPage({ page: 90, total: 1000, exact: false, shown: 7, limit: 12 })).toBe(false);
    expect(hasNextPage({ page: 400, total: 1000, exact: false, shown: 12, limit: 12 })).toBe(false);
  });
});

describe("the suggestion list's arrow keys", () => {
  it("cycle through the suggestions and back to the typed text (-1)", () => {
    expect(moveActive(-1, 1, 3)).toBe(0);
    expect(moveActive(0, 1, 3)).toBe(1);
    expect(moveActive(2, 1, 3)).toBe(-1);
    expect(moveActive(-1, -1, 3)).toBe(2);
    expect(moveActive(0, -1, 3)).toBe(-1);
    expect(moveActive(-1, 1, 0)).toBe(-1);
  });
});

describe("the total line", () => {
  it("says the exact count, or 'more than' past the API's cap", () => {
    expect(CATALOG_TEXT.results(1)).toBe("1 tool");
    expect(CATALOG_TEXT.results(17)).toBe("17 tools");
    expect(CATALOG_TEXT.results(1234, true)).toBe("1,234 tools");
    expect(CATALOG_TEXT.results(1000, false)).toBe("1,000+ tools");
    expect(CATALOG_TEXT.pageOfMany(3, 84)).toBe("Page 3 of more than 84");
  });
});
