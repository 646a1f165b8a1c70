/**
 * Money's payloads (DESIGN "Money", issue 31): the delivery address, the cart estimate and the
 * totals, and the console's tax rates, promotions, shipping methods and store settings. One
 * schema per payload, used by the form and the route alike.
 */
import { CATEGORIES, LIMITS } from "./constants";
import { COUNTRIES, destinationProblems, normalPostalCode } from "./geo";
import { MONEY_TEXT, PRICING_PROBLEMS } from "./texts/money";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

const upper = (max: number) => z.string().trim().max(max).toUpperCase();

/** Country, region and postal code, checked together (a postal code fits its country). */
export const destinationFields = {
  country: upper(2),
  region: upper(3).default(""),
  postalCode: z.string().trim().max(12).default("").transform(normalPostalCode),
  city: z.string().trim().max(100, MONEY_TEXT.cityTooLong).default(""),
};

type DestinationLike = { country: string; region?: string; postalCode?: string };
/** Adds one issue per wrong field, with the field's path and its message. */
export function checkDestination(value: DestinationLike, ctx: z.RefinementCtx): void {
  for (const field of destinationProblems(value)) {
    const message = field === "country" ? MONEY_TEXT.countryUnknown : field === "region" ? MONEY_TEXT.regionUnknown : MONEY_TEXT.postalCodeInvalid;
    ctx.addIssue({ code: "custom", path: [field], message });
  }
}

export const destinationSchema = z.object(destinationFields).superRefine(checkDestination);
export type Destination = z.output<typeof destinationSchema>;

export const promoCodeSchema = z
  .string()
  .trim()
  .max(40)
  .regex(/^[A-Za-z0-9_-]*$/, MONEY_TEXT.promoCodeInvalid)
  .transform((code) => code.toUpperCase());

/** `pickup`, or a delivery method's id. */
export const shippingMethodIdSchema = z.string().trim().min(1).max(LIMITS.id);
export const PICKUP = "pickup";

export const cartEstimateInputSchema = z
  .object({
    ...destinationFields,
    shippingMethod: shippingMethodIdSchema.default(PICKUP),
    promoCode: promoCodeSchema.optional(),
  })
  .superRefine(checkDestination);
export type CartEstimateInput = z.input<typeof cartEstimateInputSchema>;

export const pricingProblemSchema = z.enum(PRICING_PROBLEMS);
export const shippingOptionSchema = z.object({ id: z.string(), name: z.string(), price: z.number() });
export type ShippingOption = z.infer<typeof shippingOptionSchema>;

/** Dollars; `total = subtotal − discount + shipping + tax` to the cent. */
export const totalsSchema = z.object({
  subtotal: z.number(),
  discount: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
});
export type Totals = z.infer<typeof totalsSchema>;

export const cartEstimateSchema = totalsSchema.extend({
  shippingOptions: z.array(shippingOptionSchema),
  /** What could not be used as asked (an unknown code, a method that does not serve the address). */
  problems: z.array(z.object({ code: pricingProblemSchema, message: z.string() })),
});
export type CartEstimate = z.infer<typeof cartEstimateSchema>;

// ---------------------------------------------------------------- the console

const basisPoints = z.number({ error: MONEY_TEXT.rateRange }).int(MONEY_TEXT.rateRange).min(0, MONEY_TEXT.rateRange).max(10_000, MONEY_TEXT.rateRange);

export const taxRateInputSchema = z
  .object({
    country: upper(2),
    region: upper(3).default(""),
    postalPrefix: z.string().trim().max(12).default("").transform(normalPostalCode),
    name: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name)),
    rateBasisPoints: basisPoints,
    taxShipping: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    // A prefix is a start of a postal code, so only the country and region are checked.
    for (const field of destinationProblems({ country: v.country, region: v.region })) {
      if (field === "postalCode") continue;
      ctx.addIssue({ code: "custom", path: [field], message: field === "country" ? MONEY_TEXT.countryUnknown : MONEY_TEXT.regionUnknown });
    }
  });
export type TaxRateInput = z.input<typeof taxRateInputSchema>;
export const taxRateSchema = z.object({
  _id: z.string(),
  country: z.string(),
  region: z.string(),
  postalPrefix: z.string(),
  name: z.string(),
  rateBasisPoints: z.number().int(),
  taxShipping: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

const isoDate = z.iso.datetime({ offset: true });
export const promotionInputSchema = z
  .object({
    code: promoCodeSchema.pipe(z.string().min(3, MONEY_TEXT.promoCodeInvalid)),
    kind: z.enum(["percent", "amount"]),
    /** percent: 1–100; amount: dollars. */
    value: z.number(),
    minSubtotal: z.number().min(0).max(LIMITS.priceDollars).optional(),
    startsAt: isoDate.nullable().optional(),
    endsAt: isoDate.nullable().optional(),
    usageLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
    perCustomerLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
    categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length).optional(),
    active: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "percent" && !(Number.isInteger(v.value) && v.value >= 1 && v.value <= 100))
      ctx.addIssue({ code: "custom", path: ["value"], message: MONEY_TEXT.percentRange });
    if (v.kind === "amount" && !(v.value > 0 && v.value <= LIMITS.priceDollars && Math.round(v.value * 100) === v.value * 100))
      ctx.addIssue({ code: "custom", path: ["value"], message: MONEY_TEXT.amountRange });
    if (v.startsAt && v.endsAt && Date.parse(v.endsAt) <= Date.parse(v.startsAt)) ctx.addIssue({ code: "custom", path: ["endsAt"], message: MONEY_TEXT.datesOrder });
  });
export type PromotionInput = z.input<typeof promotionInputSchema>;
export const promotionSchema = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(["percent", "amount"]),
  value: z.number(),
  minSubtotal: z.number(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  categories: z.array(z.enum(CATEGORIES)),
  active: z.boolean(),
  redemptions: z.number().int(),
});
export type Promotion = z.infer<typeof promotionSchema>;

const grams = z.number({ error: MONEY_TEXT.weightRange }).int(MONEY_TEXT.weightRange).min(0, MONEY_TEXT.weightRange).max(1_000_000, MONEY_TEXT.weightRange);
const dollars = z.number().min(0).max(LIMITS.priceDollars);
export const shippingZoneSchema = z.object({
  name: z.string().trim().min(1).max(LIMITS.name),
  /** Where the zone delivers: a country, or one of its regions. */
  destinations: z
    .array(z.object({ country: upper(2), region: upper(3).default("") }).superRefine((v, ctx) => checkDestination({ ...v, postalCode: "" }, ctx)))
    .min(1)
    .max(300),
  /** By the order's weight: the first band at least as heavy as the order prices it; heavier than all, the zone does not serve it. */
  bands: z
    .array(z.object({ maxGrams: grams, price: dollars }))
    .min(1)
    .max(50)
    .refine((bands) => bands.every((b, i) => i === 0 || b.maxGrams > (bands[i - 1]?.maxGrams ?? -1)), MONEY_TEXT.bandsOrder),
});
export const shippingMethodInputSchema = z.object({
  name: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(LIMITS.name),
  /** Delivery is free from this subtotal (after the discount) on; null: never. */
  freeOver: dollars.nullable().default(null),
  active: z.boolean().default(true),
  zones: z.array(shippingZoneSchema).min(1).max(50),
});
export type ShippingMethodInput = z.input<typeof shippingMethodInputSchema>;
export const shippingMethodSchema = shippingMethodInputSchema.extend({ _id: z.string() });
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

/** The store as invoices name it, and where pickup orders are taxed. */
export const storeSettingsSchema = z
  .object({
    legalName: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(200),
    address: z.string().trim().min(1, VALIDATION_TEXT.addressRequired).max(LIMITS.address),
    ...destinationFields,
    taxId: z.string().trim().max(50).default(""),
  })
  .superRefine(checkDestination);
export type StoreSettings = z.output<typeof storeSettingsSchema>;

/** The owner marks a trade customer tax-exempt with their certificate; "" clears it. */
export const taxExemptInputSchema = z.object({ taxExemptCertificate: z.string().trim().max(60) });

export { COUNTRIES };
