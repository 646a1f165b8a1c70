import { describe, expect, it } from "vitest";
import type { Tool } from "../../../contract/schemas";
import { optionChoices, productJsonLd, specText } from "./product";

const base: Tool = {
  _id: "saw-18",
  name: 'Petrol Chainsaw 45 cc, 18"',
  image: "/images/tools/petrol-chainsaw.svg",
  price: 349,
  availableQuantity: 20,
  minimumQuantity: 1,
  description: "The 45 cc saw.",
  category: "chainsaws",
  priceTiers: [],
  rating: { average: 0, count: 0 },
  sku: "TW-45-18",
  gtin: "4006381333931",
  brand: { slug: "timberwolf", name: "Timberwolf" },
  categoryPath: [
    { slug: "chainsaws", name: "Chainsaws" },
    { slug: "petrol-chainsaws", name: "Petrol Chainsaws" },
  ],
  images: ["/images/tools/petrol-chainsaw.svg", "/uploads/tools/abc-640.webp"],
  specs: [],
  product: { _id: "p1", name: "Timberwolf Petrol Chainsaw 45 cc", options: [{ name: "Bar length", values: ['16"', '18"', '20"'] }] },
  optionValues: { "Bar length": '18"' },
  variants: [
    { _id: "saw-16", sku: "TW-45-16", gtin: "4006381333924", optionValues: { "Bar length": '16"' }, price: 329, availableQuantity: 0 },
    { _id: "saw-18", sku: "TW-45-18", gtin: "4006381333931", optionValues: { "Bar length": '18"' }, price: 349, availableQuantity: 20 },
    { _id: "saw-20", sku: "TW-45-20", gtin: null, optionValues: { "Bar length": '20"' }, price: 369, availableQuantity: 12 },
  ],
  priceFrom: 329,
  variantCount: 3,
};

describe("a product's options as choices", () => {
  it("leads each value to its tool, marks this tool's own and a sold-out one", () => {
    expect(optionChoices(base)).toEqual([
      {
        name: "Bar length",
        choices: [
          { value: '16"', toolId: "saw-16", current: false, inStock: false },
          { value: '18"', toolId: "saw-18", current: true, inStock: true },
          { value: '20"', toolId: "saw-20", current: false, inStock: true },
        ],
      },
    ]);
    expect(optionChoices({ ...base, product: null, variants: [], optionValues: {} })).toEqual([]);
  });

  it("keeps the other options as chosen, and a combination no tool has leads nowhere", () => {
    const drill: Pick<Tool, "_id" | "product" | "optionValues" | "variants"> = {
      _id: "d-18-bare",
      product: { _id: "p2", name: "Drill", options: [{ name: "Voltage", values: ["18 V", "36 V"] }, { name: "Kit", values: ["Bare", "Kit"] }] },
      optionValues: { Voltage: "18 V", Kit: "Bare" },
      variants: [
        { _id: "d-18-bare", sku: "a", gtin: null, optionValues: { Voltage: "18 V", Kit: "Bare" }, price: 89, availableQuantity: 3 },
        { _id: "d-18-kit", sku: "b", gtin: null, optionValues: { Voltage: "18 V", Kit: "Kit" }, price: 129, availableQuantity: 3 },
        { _id: "d-36-kit", sku: "c", gtin: null, optionValues: { Voltage: "36 V", Kit: "Kit" }, price: 199, availableQuantity: 3 },
      ],
    };
    const [voltage, kit] = optionChoices(drill);
    expect(voltage?.choices.map((c) => [c.value, c.toolId])).toEqual([
      ["18 V", "d-18-bare"],
      // 36 V bare: no such tool.
      ["36 V", null],
    ]);
    expect(kit?.choices.map((c) => [c.value, c.toolId])).toEqual([
      ["Bare", "d-18-bare"],
      ["Kit", "d-18-kit"],
    ]);
  });
});

describe("a specification's value", () => {
  it("shows a number with its unit, a boolean as yes or no, a text as it is", () => {
    expect(specText({ value: 18, unit: "in" })).toBe("18 in");
    expect(specText({ value: 1250.5, unit: "W" })).toBe("1,250.5 W");
    expect(specText({ value: true, unit: null })).toBe("Yes");
    expect(specText({ value: false, unit: null })).toBe("No");
    expect(specText({ value: "Petrol", unit: null })).toBe("Petrol");
  });
});

describe("the tool page's schema.org data", () => {
  it("is a Product with sku, gtin, brand and its offer for a tool in no product; no rating without reviews", () => {
    const tool: Tool = { ...base, product: null, variants: [], optionValues: {}, priceFrom: 349, variantCount: 1 };
    const data = productJsonLd(tool);
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      sku: "TW-45-18",
      gtin: "4006381333931",
      name: tool.name,
      brand: { "@type": "Brand", name: "Timberwolf" },
      image: tool.image,
      category: "Chainsaws > Petrol Chainsaws",
      offers: { "@type": "Offer", price: "349.00", priceCurrency: "USD", availability: "https://schema.org/InStock", url: "/tools/saw-18" },
    });
    expect(data).not.toHaveProperty("aggregateRating");
    expect(productJsonLd({ ...tool, gtin: null, brand: null })).not.toHaveProperty("gtin");
  });

  it("is a ProductGroup for a product of several tools: each variant a Product with its SKU, name, picture and offer, varying by the options", () => {
    const data = productJsonLd({ ...base, rating: { average: 4.5, count: 2 } });
    expect(data).toMatchObject({
      "@type": "ProductGroup",
      productGroupID: "p1",
      name: "Timberwolf Petrol Chainsaw 45 cc",
      brand: { "@type": "Brand", name: "Timberwolf" },
      variesBy: ["Bar length"],
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.5, reviewCount: 2 },
    });
    const variants = data.hasVariant as Record<string, unknown>[];
    expect(variants.map((v) => [v["@type"], v.sku, v.name, v.url])).toEqual([
      ["Product", "TW-45-16", 'Timberwolf Petrol Chainsaw 45 cc (16")', "/tools/saw-16"],
      ["Product", "TW-45-18", 'Timberwolf Petrol Chainsaw 45 cc (18")', "/tools/saw-18"],
      ["Product", "TW-45-20", 'Timberwolf Petrol Chainsaw 45 cc (20")', "/tools/saw-20"],
    ]);
    for (const variant of variants) {
      expect(variant.image).toBeTruthy();
      expect(variant.offers).toMatchObject({ "@type": "Offer", priceCurrency: "USD" });
    }
    expect(variants[0]?.offers).toMatchObject({ price: "329.00", availability: "https://schema.org/OutOfStock" });
    // Each variant carries its own GTIN, and none where it has none.
    expect(variants.map((v) => v.gtin)).toEqual(["4006381333924", "4006381333931", undefined]);
    expect(variants[0]).toMatchObject({ additionalProperty: [{ "@type": "PropertyValue", name: "Bar length", value: '16"' }] });
  });

  it("varies by schema.org's own property where an option is one, and names any other option as it is", () => {
    const options = [{ name: "Colour", values: ["Orange", "Green"] }, { name: "Bar length", values: ['16"'] }];
    const data = productJsonLd({
      ...base,
      product: { _id: "p1", name: "Saw", options },
      optionValues: { Colour: "Orange", "Bar length": '16"' },
      variants: [
        { _id: "saw-18", sku: "o", gtin: null, optionValues: { Colour: "Orange", "Bar length": '16"' }, price: 1, availableQuantity: 1 },
        { _id: "g", sku: "g", gtin: null, optionValues: { Colour: "Green", "Bar length": '16"' }, price: 1, availableQuantity: 1 },
      ],
    });
    expect(data.variesBy).toEqual(["https://schema.org/color", "Bar length"]);
    expect((data.hasVariant as Record<string, unknown>[]).map((v) => v.color)).toEqual(["Orange", "Green"]);
  });
});
