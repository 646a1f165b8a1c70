/**
 * The demo's catalogue records (issue 50, DESIGN "Running contract" demo line): invented brands,
 * sub-categories under the four roots, specifications on every tool, two products with variants (a
 * chainsaw by bar length, a drill as bare tool or kit) and more than one photo on some tools. Every
 * demo tool keeps its name and its place in the list: a product's row is the demo tool it grew from.
 */
import { eq } from "drizzle-orm";
import type { Tx } from "./client";
import { brands, categories, products, specDefinitions, tools } from "./schema";
import type { SeedTool } from "./seed-data";

export const SEED_BRANDS = [
  { slug: "ironbark", name: "Ironbark" },
  { slug: "greenacre", name: "Greenacre" },
  { slug: "voltline", name: "Voltline" },
  { slug: "timberwolf", name: "Timberwolf" },
];

/** Sub-categories: [slug, name, root]. */
export const SEED_SUBCATEGORIES: [string, string, string][] = [
  ["hammers-and-spanners", "Hammers & Spanners", "hand-tools"],
  ["screwdrivers-and-saws", "Screwdrivers & Saws", "hand-tools"],
  ["walk-behind-mowers", "Walk-Behind Mowers", "lawn-mowers"],
  ["ride-on-mowers", "Ride-On Mowers", "lawn-mowers"],
  ["drills-and-drivers", "Drills & Drivers", "power-tools"],
  ["power-saws-and-grinders", "Power Saws & Grinders", "power-tools"],
  ["petrol-chainsaws", "Petrol Chainsaws", "chainsaws"],
  ["cordless-chainsaws", "Cordless Chainsaws", "chainsaws"],
  ["pole-saws", "Pole Saws", "chainsaws"],
];

export const SEED_SPECS = [
  { key: "power_source", name: "Power source", unit: null, kind: "text" as const, filterable: true },
  { key: "voltage", name: "Voltage", unit: "V", kind: "number" as const, filterable: true },
  { key: "bar_length", name: "Bar length", unit: "in", kind: "number" as const, filterable: true },
  { key: "cutting_width", name: "Cutting width", unit: "cm", kind: "number" as const, filterable: true },
  { key: "weight", name: "Weight", unit: "kg", kind: "number" as const, filterable: false },
];

type Specs = Record<string, string | number | boolean>;
interface ToolCatalogue {
  brand: string;
  category: string;
  specs: Specs;
  /** Further photos after the tool's own artwork. */
  photos?: string[];
}

const art = (slug: string) => `/images/tools/${slug}.svg`;

/** Each demo tool's brand, sub-category, specifications and extra photos, by its slug. */
export const SEED_TOOL_CATALOGUE: Record<string, ToolCatalogue> = {
  "claw-hammer": { brand: "ironbark", category: "hammers-and-spanners", specs: { power_source: "Manual", weight: 0.9 }, photos: [art("combination-spanner-set")] },
  "combination-spanner-set": { brand: "ironbark", category: "hammers-and-spanners", specs: { power_source: "Manual", weight: 1.8 } },
  "screwdriver-set": { brand: "ironbark", category: "screwdrivers-and-saws", specs: { power_source: "Manual", weight: 0.4 } },
  "hand-saw": { brand: "ironbark", category: "screwdrivers-and-saws", specs: { power_source: "Manual", weight: 0.7 } },
  "push-reel-mower": { brand: "greenacre", category: "walk-behind-mowers", specs: { power_source: "Manual", cutting_width: 40, weight: 11 } },
  "petrol-rotary-mower": { brand: "greenacre", category: "walk-behind-mowers", specs: { power_source: "Petrol", cutting_width: 46, weight: 32 }, photos: [art("push-reel-mower")] },
  "cordless-mower": { brand: "greenacre", category: "walk-behind-mowers", specs: { power_source: "Battery", voltage: 40, cutting_width: 38, weight: 17 } },
  "ride-on-mower": { brand: "greenacre", category: "ride-on-mowers", specs: { power_source: "Petrol", cutting_width: 98, weight: 185 } },
  "cordless-drill": { brand: "voltline", category: "drills-and-drivers", specs: { power_source: "Battery", voltage: 18, weight: 1.6 }, photos: [art("angle-grinder")] },
  "angle-grinder": { brand: "voltline", category: "power-saws-and-grinders", specs: { power_source: "Mains", weight: 2.4 } },
  "circular-saw": { brand: "voltline", category: "power-saws-and-grinders", specs: { power_source: "Mains", weight: 3.9 } },
  jigsaw: { brand: "voltline", category: "power-saws-and-grinders", specs: { power_source: "Mains", weight: 2.3 } },
  "petrol-chainsaw": { brand: "timberwolf", category: "petrol-chainsaws", specs: { power_source: "Petrol", bar_length: 18, weight: 5.6 }, photos: [art("top-handle-chainsaw"), art("pole-saw")] },
  "cordless-chainsaw": { brand: "timberwolf", category: "cordless-chainsaws", specs: { power_source: "Battery", voltage: 36, bar_length: 14, weight: 4.2 } },
  "top-handle-chainsaw": { brand: "timberwolf", category: "petrol-chainsaws", specs: { power_source: "Petrol", bar_length: 12, weight: 3.4 } },
  "pole-saw": { brand: "timberwolf", category: "pole-saws", specs: { power_source: "Petrol", bar_length: 10, weight: 6.8 } },
};

/** The products: the demo tool they grew from (their default, so the list's row stays it) and the tools added as its other variants. */
export const SEED_PRODUCTS: {
  name: string;
  description: string;
  option: string;
  base: { slug: string; value: string };
  variants: (Pick<SeedTool, "name" | "priceCents" | "availableQuantity" | "weightGrams" | "description"> & { value: string; specs: Specs })[];
}[] = [
  {
    name: "Timberwolf Petrol Chainsaw 45 cc",
    description: "One saw, three guide bars: the longer the bar, the thicker the log.",
    option: "Bar length",
    base: { slug: "petrol-chainsaw", value: '18"' },
    variants: [
      {
        name: 'Petrol Chainsaw 45 cc, 16"',
        value: '16"',
        priceCents: 32900,
        availableQuantity: 25,
        weightGrams: 5400,
        description: "The 45 cc saw with a 16 in bar: lighter at the nose, for limbing and firewood.",
        specs: { power_source: "Petrol", bar_length: 16, weight: 5.4 },
      },
      {
        name: 'Petrol Chainsaw 45 cc, 20"',
        value: '20"',
        priceCents: 36900,
        availableQuantity: 12,
        weightGrams: 5800,
        description: "The 45 cc saw with a 20 in bar, for felling and bigger logs.",
        specs: { power_source: "Petrol", bar_length: 20, weight: 5.8 },
      },
    ],
  },
  {
    name: "Voltline 18 V Brushless Drill Driver",
    description: "The same drill driver as a kit with batteries and charger, or as a bare tool for those who already own Voltline batteries.",
    option: "Kit",
    base: { slug: "cordless-drill", value: "With 2 batteries and charger" },
    variants: [
      {
        name: "18 V Brushless Drill Driver, bare tool",
        value: "Bare tool",
        priceCents: 8900,
        availableQuantity: 60,
        weightGrams: 1100,
        description: "60 Nm of torque, two speeds, 21 clutch settings and a 13 mm metal chuck. No battery or charger: fits every Voltline 18 V battery.",
        specs: { power_source: "Battery", voltage: 18, weight: 1.1 },
      },
    ],
  },
];

export const SEED_VARIANT_COUNT = SEED_PRODUCTS.reduce((n, p) => n + p.variants.length, 0);

/**
 * Files the demo tools (ids by slug) in the catalogue and adds the products' other variants; returns
 * those new tools (id, stock and the demo tool whose reviews they borrow) for the ledger and reviews.
 */
export async function seedCatalogue(tx: Tx, idsBySlug: Map<string, string>, createdAt: Date): Promise<{ id: string; stock: number; like: string }[]> {
  const brandIds = new Map((await tx.insert(brands).values(SEED_BRANDS).returning()).map((b) => [b.slug, b.id]));
  const categoryIds = new Map<string, string>();
  for (const [i, [slug, name, root]] of SEED_SUBCATEGORIES.entries()) {
    const position = SEED_SUBCATEGORIES.slice(0, i).filter(([, , other]) => other === root).length;
    const [row] = await tx.insert(categories).values({ slug, name, parentId: root, position }).returning({ id: categories.id });
    if (row) categoryIds.set(slug, row.id);
  }
  await tx.insert(specDefinitions).values(SEED_SPECS.map((spec, position) => ({ ...spec, position })));
  for (const [slug, entry] of Object.entries(SEED_TOOL_CATALOGUE)) {
    const id = idsBySlug.get(slug);
    if (!id) continue;
    await tx
      .update(tools)
      .set({ brandId: brandIds.get(entry.brand) ?? null, categoryId: categoryIds.get(entry.category), specs: entry.specs, images: [art(slug), ...(entry.photos ?? [])] })
      .where(eq(tools.id, id));
  }
  const added: { id: string; stock: number; like: string }[] = [];
  for (const product of SEED_PRODUCTS) {
    const baseId = idsBySlug.get(product.base.slug);
    const base = SEED_TOOL_CATALOGUE[product.base.slug];
    if (!baseId || !base) continue;
    const values = [product.base.value, ...product.variants.map((v) => v.value)];
    const [row] = await tx
      .insert(products)
      .values({ name: product.name, description: product.description, options: [{ name: product.option, values }], defaultToolId: baseId })
      .returning({ id: products.id });
    if (!row) throw new Error("insert returned no row");
    await tx.update(tools).set({ productId: row.id, optionValues: { [product.option]: product.base.value } }).where(eq(tools.id, baseId));
    for (const variant of product.variants) {
      const [tool] = await tx
        .insert(tools)
        .values({
          name: variant.name,
          category: "hand-tools",
          categoryId: categoryIds.get(base.category),
          brandId: brandIds.get(base.brand) ?? null,
          image: art(product.base.slug),
          images: [art(product.base.slug)],
          priceCents: variant.priceCents,
          availableQuantity: variant.availableQuantity,
          minimumQuantity: 1,
          weightGrams: variant.weightGrams,
          description: variant.description,
          specs: variant.specs,
          productId: row.id,
          optionValues: { [product.option]: variant.value },
          createdAt,
        })
        .returning({ id: tools.id, stock: tools.availableQuantity });
      if (tool) added.push({ ...tool, like: product.base.slug });
    }
  }
  return added;
}
