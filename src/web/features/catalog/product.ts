/**
 * A tool page's product (DESIGN "Catalogue"): its options as choices, its specifications as
 * words, and its schema.org data (a `Product`, or a `ProductGroup` with its variants).
 */
import { CATEGORY_LABELS, LOW_STOCK } from "../../../contract/constants";
import { JSON_LD_REVIEWS } from "../../../contract/review-constants";
import type { ToolReview } from "../../../contract/review-schemas";
import type { Tool } from "../../../contract/schemas";
import { TOOL_TEXT } from "../../../contract/texts/tool";

/** One value of an option: the tool it leads to (the other options as this tool has them), or none. */
export interface OptionChoice {
  value: string;
  /** The tool with this value and this tool's other values; null: no tool has that combination. */
  toolId: string | null;
  /** This tool's own value. */
  current: boolean;
  /** The tool it leads to has stock. */
  inStock: boolean;
}

/** A product's options, each with its values as choices from this tool; none for a tool in no product. */
export function optionChoices(tool: Pick<Tool, "_id" | "product" | "optionValues" | "variants">): { name: string; choices: OptionChoice[] }[] {
  if (!tool.product) return [];
  const { options } = tool.product;
  return options.map(({ name, values }) => ({
    name,
    choices: values.map((value) => {
      const wanted = { ...tool.optionValues, [name]: value };
      const current = tool.optionValues[name] === value;
      const variant = tool.variants.find((v) => options.every((o) => v.optionValues[o.name] === wanted[o.name]));
      // The tool itself, should the list of variants leave it out.
      const toolId = variant?._id ?? (current ? tool._id : null);
      return { value, toolId, current, inStock: variant ? variant.availableQuantity > 0 : current };
    }),
  }));
}

/** A specification's value as the table shows it: a number with its unit, a yes or no. */
export function specText(spec: { value: string | number | boolean; unit: string | null }): string {
  if (typeof spec.value === "boolean") return spec.value ? TOOL_TEXT.yes : TOOL_TEXT.no;
  const value = typeof spec.value === "number" ? spec.value.toLocaleString("en-US", { maximumFractionDigits: 3 }) : spec.value;
  return spec.unit ? `${value} ${spec.unit}` : value;
}

/** schema.org availability: what a search engine shows beside the price. */
function availability(stock: number, minimum: number): string {
  if (stock < Math.max(1, minimum)) return "https://schema.org/OutOfStock";
  if (stock <= LOW_STOCK) return "https://schema.org/LimitedAvailability";
  return "https://schema.org/InStock";
}

const toolUrl = (id: string) => `/tools/${encodeURIComponent(id)}`;
const offer = (id: string, price: number, stock: number, minimum: number) => ({
  "@type": "Offer",
  price: price.toFixed(2),
  priceCurrency: "USD",
  availability: availability(stock, minimum),
  url: toolUrl(id),
  itemCondition: "https://schema.org/NewCondition",
});

/**
 * The schema.org property an option is, when it is one Google reads for a product group's `variesBy`
 * (https://developers.google.com/search/docs/appearance/structured-data/product-variants): a
 * "Colour" option is `color`. A tool's usual options (bar length, voltage, kit) are none of them:
 * `variesBy` then names the option as it is, and the variants say its value in `additionalProperty`.
 */
const SCHEMA_PROPERTIES: Record<string, string> = { color: "color", colour: "color", size: "size", material: "material", pattern: "pattern" };
const schemaPropertyOf = (option: string): string | undefined => SCHEMA_PROPERTIES[option.trim().toLowerCase()];

/**
 * The tool as schema.org data (the server writes it into the page's head; it makes paths
 * absolute): a `Product`, or for a tool of a product of several tools a `ProductGroup` whose
 * `hasVariant` are its tools (each a `Product` with its own SKU, offer and address) and whose
 * `variesBy` names its options. `aggregateRating` and the first reviews only when there are
 * reviews. Their words are JSON strings, never markup: the server escapes `<` and `>` inside the
 * script element.
 */
export function productJsonLd(tool: Tool, reviews: ToolReview[] = []): Record<string, unknown> {
  const rated =
    tool.rating.count > 0
      ? {
          aggregateRating: { "@type": "AggregateRating", ratingValue: tool.rating.average, reviewCount: tool.rating.count, bestRating: 5, worstRating: 1 },
          review: reviews.slice(0, JSON_LD_REVIEWS).map((r) => ({
            "@type": "Review",
            author: { "@type": "Person", name: r.name },
            datePublished: r.createdAt.slice(0, 10),
            ...(r.title ? { name: r.title } : {}),
            reviewBody: r.body,
            reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {};
  const brand = tool.brand ? { brand: { "@type": "Brand", name: tool.brand.name } } : {};
  const category = tool.categoryPath.length > 0 ? tool.categoryPath.map((c) => c.name).join(" > ") : CATEGORY_LABELS[tool.category];
  // The main photo: what the card, the link previews and a search engine's result show.
  const image = tool.image;
  const own = {
    "@type": "Product",
    sku: tool.sku,
    ...(tool.gtin ? { gtin: tool.gtin } : {}),
    name: tool.name,
    description: tool.description,
    image,
    url: toolUrl(tool._id),
    ...brand,
  };
  const product = tool.product;
  if (!product || tool.variants.length < 2) {
    return {
      "@context": "https://schema.org",
      ...own,
      category,
      offers: offer(tool._id, tool.price, tool.availableQuantity, tool.minimumQuantity),
      ...rated,
    };
  }
  const variantName = (values: Record<string, string>) => `${product.name} (${product.options.map((o) => values[o.name] ?? "").join(", ")})`;
  const optionProperties = product.options.map((o) => ({ name: o.name, property: schemaPropertyOf(o.name) }));
  // Each option as a property: schema.org's own where the option is one (a variant then carries it, `color: "Red"`),
  // and always as an additionalProperty, the only place a bar length or a kit can go.
  const properties = (values: Record<string, string>) => ({
    ...Object.fromEntries(optionProperties.flatMap(({ name, property }) => (property ? [[property, values[name] ?? ""]] : []))),
    additionalProperty: product.options.map((o) => ({ "@type": "PropertyValue", name: o.name, value: values[o.name] ?? "" })),
  });
  return {
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    productGroupID: product._id,
    name: product.name,
    description: tool.description,
    url: toolUrl(tool._id),
    image,
    category,
    ...brand,
    variesBy: optionProperties.map(({ name, property }) => (property ? `https://schema.org/${property}` : name)),
    hasVariant: tool.variants.map((variant) =>
      variant._id === tool._id
        ? { ...own, name: variantName(tool.optionValues), ...properties(tool.optionValues), offers: offer(tool._id, tool.price, tool.availableQuantity, tool.minimumQuantity) }
        : {
            "@type": "Product",
            sku: variant.sku,
            ...(variant.gtin ? { gtin: variant.gtin } : {}),
            name: variantName(variant.optionValues),
            image,
            url: toolUrl(variant._id),
            ...brand,
            ...properties(variant.optionValues),
            // A variant's minimum is its own page's; one unit is what the list knows of it.
            offers: offer(variant._id, variant.price, variant.availableQuantity, 1),
          },
    ),
    ...rated,
  };
}
