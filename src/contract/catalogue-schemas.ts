/**
 * The catalogue's shapes (DESIGN "Catalogue", issue 50): brands, the category tree, specification
 * definitions and values, SKUs, GTINs and photos. One schema per payload, shared by the console's
 * forms and the /api/admin routes.
 */
import { CATALOGUE_API_TEXT } from "./texts/catalogue";
import { z } from "./zod";

/** A slug of a brand or category: what `/tools?category=` and `brand=` carry. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const slugSchema = z.string().trim().min(1).max(80).regex(SLUG, CATALOGUE_API_TEXT.slugInvalid);
/** A specification's key: a slug with underscores too (it is used in `spec.<key>=` queries). */
export const specKeySchema = z.string().trim().min(1).max(60).regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, CATALOGUE_API_TEXT.slugInvalid);

/** GS1's check digit: from the right, the data digits weigh 3, 1, 3, …; the check makes the sum a multiple of 10. */
export function validGtin(gtin: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(gtin)) return false;
  const digits = [...gtin].map(Number);
  const check = digits.pop();
  const sum = digits.reverse().reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
export const gtinSchema = z.string().trim().refine(validGtin, CATALOGUE_API_TEXT.gtinInvalid).nullable();
export const skuSchema = z.string().trim().min(1).max(64);

export const specKinds = ["text", "number", "boolean"] as const;
export type SpecKind = (typeof specKinds)[number];
export const specValueSchema = z.union([z.string().trim().max(200), z.number().finite(), z.boolean()]);
export type SpecValue = z.infer<typeof specValueSchema>;

export const brandRefSchema = z.object({ slug: z.string(), name: z.string() });
export const categoryRefSchema = z.object({ slug: z.string(), name: z.string() });
export const toolSpecSchema = z.object({ key: z.string(), name: z.string(), value: specValueSchema, unit: z.string().nullable() });
export const productOptionSchema = z.object({ name: z.string(), values: z.array(z.string()) });
export const toolProductSchema = z.object({ _id: z.string(), name: z.string(), options: z.array(productOptionSchema) });
export const variantSchema = z.object({
  _id: z.string(),
  sku: z.string(),
  /** The variant's barcode, as on its own page (null when it has none): a product group's JSON-LD names it per variant. */
  gtin: z.string().nullable(),
  optionValues: z.record(z.string(), z.string()),
  price: z.number(),
  availableQuantity: z.number().int(),
});

/** What a tool adds to its public shape (DESIGN API "GET /api/tool (catalogue)"). */
export const toolCatalogueFields = {
  sku: z.string(),
  gtin: z.string().nullable(),
  brand: brandRefSchema.nullable(),
  categoryPath: z.array(categoryRefSchema),
  images: z.array(z.string()),
  specs: z.array(toolSpecSchema),
  product: toolProductSchema.nullable(),
  optionValues: z.record(z.string(), z.string()),
  variants: z.array(variantSchema),
  /** The lowest price of the product's tools (the tool's own price outside a product) and how many it has (1 outside one). */
  priceFrom: z.number(),
  variantCount: z.number().int(),
};

// ---------------------------------------------------------------- admin payloads

export const brandSchema = z.object({ slug: z.string(), name: z.string() });
export type Brand = z.infer<typeof brandSchema>;
export const brandInputSchema = z.object({ slug: slugSchema, name: z.string().trim().min(1).max(80) }).strict();
export const brandPatchSchema = brandInputSchema.partial().strict();

export const categorySchema = z.object({ slug: z.string(), name: z.string(), parentSlug: z.string().nullable(), position: z.number().int() });
export type CategoryNode = z.infer<typeof categorySchema>;
export const categoryInputSchema = z
  .object({
    slug: slugSchema,
    name: z.string().trim().min(1).max(80),
    parentSlug: slugSchema.nullable().optional(),
    position: z.number().int().min(0).max(100_000).optional(),
  })
  .strict();
export const categoryPatchSchema = categoryInputSchema.partial().strict();

export const specDefinitionSchema = z.object({ key: z.string(), name: z.string(), unit: z.string().nullable(), kind: z.enum(specKinds), filterable: z.boolean() });
export type SpecDefinition = z.infer<typeof specDefinitionSchema>;
export const specDefinitionInputSchema = z
  .object({
    key: specKeySchema,
    name: z.string().trim().min(1).max(80),
    unit: z.string().trim().max(20).nullable().optional(),
    kind: z.enum(specKinds),
    filterable: z.boolean().optional(),
  })
  .strict();
/** A key is not changed: the tools' values are kept under it. */
export const specDefinitionPatchSchema = specDefinitionInputSchema.omit({ key: true }).partial().strict();

export const slugParamsSchema = z.object({ slug: z.string().min(1).max(100) });
export const keyParamsSchema = z.object({ key: z.string().min(1).max(100) });

// ---------------------------------------------------------------- products

const optionNameSchema = z.string().trim().min(1).max(40);
const optionValueSchema = z.string().trim().min(1).max(60);
export const productOptionsInputSchema = z
  .array(z.object({ name: optionNameSchema, values: z.array(optionValueSchema).min(1).max(50) }).strict())
  .max(3)
  .refine((options) => new Set(options.map((o) => o.name)).size === options.length, "Each option needs a name of its own.")
  .refine((options) => options.every((o) => new Set(o.values).size === o.values.length), "An option lists each value once.");
export const productSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  options: z.array(productOptionSchema),
  defaultToolId: z.string().nullable(),
});
export type Product = z.infer<typeof productSchema>;
export const productInputSchema = z
  .object({
    name: z.string().trim().min(1).max(120),
    description: z.string().trim().max(2000).optional(),
    options: productOptionsInputSchema,
    defaultToolId: z.string().min(1).max(100).nullable().optional(),
  })
  .strict();
export const productPatchSchema = productInputSchema.partial().strict();
/** A tool's values of its product's options: one per option, no other. */
export const optionValuesInputSchema = z.record(optionNameSchema, optionValueSchema);
