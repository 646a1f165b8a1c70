/**
 * Money's payloads (DESIGN "Money", issue 31): the delivery address, the cart estimate and the
 * totals, and the console's tax rates, promotions, shipping methods and store settings. One
 * schema per payload, used by the form and the route alike.
 */
import { CATEGORIES, LIMITS } from "./constants";
import { COUNTRIES, destinationProblems, normalPostalCode } from "./geo";
import { dollarsToCents } from "./money";
import { MONEY_TEXT, PRICING_PROBLEMS } from "./texts/money";
import { MONEY_VALIDATION_TEXT } from "./texts/money-admin";
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

/** The store's time zone until the owner sets one (DESIGN "Money"). */
export const DEFAULT_STORE_TIME_ZONE = "America/New_York";

/** Whether `zone` is a time zone this runtime knows (IANA names such as America/New_York, or UTC). */
export function isTimeZone(zone: string): boolean {
  if (zone === "") return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A code a customer types: an empty one (a cleared field, a client sending "") is no code. */
export const optionalPromoCodeSchema = promoCodeSchema.transform((code) => (code === "" ? undefined : code)).optional();

/** `pickup`, or a delivery method's id. */
export const shippingMethodIdSchema = z.string().trim().min(1).max(LIMITS.id);
export const PICKUP = "pickup";

/** Pickup needs no address (an empty country prices at the store); delivery needs one the store knows. */
export const cartEstimateInputSchema = z
  .object({
    ...destinationFields,
    country: destinationFields.country.default(""),
    shippingMethod: shippingMethodIdSchema.default(PICKUP),
    promoCode: optionalPromoCodeSchema,
  })
  .superRefine((v, ctx) => {
    if (v.country !== "" || v.shippingMethod !== PICKUP) checkDestination(v, ctx);
  });
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
/** Dollars with at most two decimals (the API's money), from 0 to the price ceiling. */
const dollars = z
  .number({ error: MONEY_VALIDATION_TEXT.dollarsRange })
  .min(0, MONEY_VALIDATION_TEXT.dollarsRange)
  .max(LIMITS.priceDollars, MONEY_VALIDATION_TEXT.dollarsRange)
  .refine((v) => Math.abs(v * 100 - dollarsToCents(v)) < 1e-6, VALIDATION_TEXT.priceDecimals);

/**
 * A place a rate or a delivery zone covers: a country, or one of its regions. Unlike an
 * address, the region may be left empty (the whole country) and there is no postal code.
 */
function checkPlace(value: { country: string; region: string }, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  for (const field of destinationProblems({ country: value.country, region: value.region })) {
    if (field === "postalCode" || (field === "region" && value.region === "")) continue;
    ctx.addIssue({ code: "custom", path: [...path, field], message: field === "country" ? MONEY_TEXT.countryUnknown : MONEY_TEXT.regionUnknown });
  }
}

const taxRateFields = {
  country: upper(2),
  region: upper(3),
  /** The start of the postal codes it covers ("" for all); compared like postal codes. */
  postalPrefix: z.string().trim().max(12).transform(normalPostalCode).pipe(z.string().regex(/^[A-Z0-9 -]*$/, MONEY_VALIDATION_TEXT.postalPrefixInvalid)),
  name: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name)),
  rateBasisPoints: basisPoints,
  taxShipping: z.boolean(),
};
export const taxRateInputSchema = z
  .object({
    ...taxRateFields,
    region: taxRateFields.region.default(""),
    postalPrefix: taxRateFields.postalPrefix.default(""),
    taxShipping: taxRateFields.taxShipping.default(false),
  })
  .superRefine((v, ctx) => checkPlace(v, ctx));
export type TaxRateInput = z.input<typeof taxRateInputSchema>;
/** PATCH: any of the fields; the result is checked whole, as a create would be. */
export const taxRatePatchSchema = z.object(taxRateFields).partial();
export type TaxRatePatch = z.input<typeof taxRatePatchSchema>;
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
/** The CSV file's columns, in the export's order; an import needs exactly these. */
export const TAX_RATE_CSV_COLUMNS = ["country", "region", "postalPrefix", "name", "rateBasisPoints", "taxShipping"] as const;
/** How many rows one import takes at most. */
export const TAX_RATE_CSV_MAX_ROWS = 20_000;

/** Years Postgres and every client read the same way (it has no year 0; a code from before 2000 is a typo). */
const DATE_MIN = Date.UTC(2000, 0, 1);
const DATE_MAX = Date.UTC(9999, 11, 31);
const isoDate = z.iso
  .datetime({ offset: true, error: MONEY_VALIDATION_TEXT.dateInvalid })
  .refine((s) => Date.parse(s) >= DATE_MIN && Date.parse(s) <= DATE_MAX, MONEY_VALIDATION_TEXT.dateRange);
const useLimit = z.number({ error: MONEY_VALIDATION_TEXT.limitRange }).int(MONEY_VALIDATION_TEXT.limitRange).min(1, MONEY_VALIDATION_TEXT.limitRange).max(1_000_000, MONEY_VALIDATION_TEXT.limitRange);
const promotionFields = {
  code: promoCodeSchema.pipe(z.string().min(3, MONEY_TEXT.promoCodeInvalid)),
  kind: z.enum(["percent", "amount"]),
  /** percent: 1–100; amount: dollars. */
  value: z.number({ error: MONEY_VALIDATION_TEXT.valueRequired }),
  /** Dollars, compared with the subtotal of the lines the code applies to. */
  minSubtotal: dollars,
  startsAt: isoDate.nullable(),
  endsAt: isoDate.nullable(),
  usageLimit: useLimit.nullable(),
  perCustomerLimit: useLimit.nullable(),
  /** Empty: every category. */
  categories: z.array(z.enum(CATEGORIES)).max(CATEGORIES.length),
  active: z.boolean(),
};
function checkPromotion(v: { kind: "percent" | "amount"; value: number; startsAt?: string | null | undefined; endsAt?: string | null | undefined }, ctx: z.RefinementCtx): void {
  if (v.kind === "percent" && !(Number.isInteger(v.value) && v.value >= 1 && v.value <= 100))
    ctx.addIssue({ code: "custom", path: ["value"], message: MONEY_TEXT.percentRange });
  if (v.kind === "amount" && !(v.value > 0 && v.value <= LIMITS.priceDollars && Math.abs(v.value * 100 - dollarsToCents(v.value)) < 1e-6))
    ctx.addIssue({ code: "custom", path: ["value"], message: MONEY_TEXT.amountRange });
  if (v.startsAt && v.endsAt && Date.parse(v.endsAt) <= Date.parse(v.startsAt)) ctx.addIssue({ code: "custom", path: ["endsAt"], message: MONEY_TEXT.datesOrder });
}
export const promotionInputSchema = z
  .object({
    code: promotionFields.code,
    kind: promotionFields.kind,
    value: promotionFields.value,
    minSubtotal: promotionFields.minSubtotal.optional(),
    startsAt: promotionFields.startsAt.optional(),
    endsAt: promotionFields.endsAt.optional(),
    usageLimit: promotionFields.usageLimit.optional(),
    perCustomerLimit: promotionFields.perCustomerLimit.optional(),
    categories: promotionFields.categories.optional(),
    active: promotionFields.active.optional(),
  })
  .superRefine(checkPromotion);
export type PromotionInput = z.input<typeof promotionInputSchema>;
/** PATCH: any of the fields; the result is checked whole (a new kind needs a value that fits it). */
export const promotionPatchSchema = z.object(promotionFields).partial();
export type PromotionPatch = z.input<typeof promotionPatchSchema>;
export const promotionSchema = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(["percent", "amount"]),
  /** percent: 1–100; amount: dollars. */
  value: z.number(),
  minSubtotal: z.number(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  categories: z.array(z.enum(CATEGORIES)),
  active: z.boolean(),
  /** Orders holding a use now (a cancelled order's use is given back). */
  redemptions: z.number().int(),
});
export type Promotion = z.infer<typeof promotionSchema>;

const grams = z.number({ error: MONEY_TEXT.weightRange }).int(MONEY_TEXT.weightRange).min(0, MONEY_TEXT.weightRange).max(1_000_000, MONEY_TEXT.weightRange);
export const shippingZoneSchema = z.object({
  name: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name)),
  /** Where the zone delivers: a country, or one of its regions. */
  destinations: z
    .array(z.object({ country: upper(2), region: upper(3).default("") }).superRefine((v, ctx) => checkPlace(v, ctx)))
    .min(1, MONEY_VALIDATION_TEXT.destinationsRequired)
    .max(300),
  /** By the order's weight: the first band at least as heavy as the order prices it; heavier than all, the zone does not serve it. */
  bands: z
    .array(z.object({ maxGrams: grams, price: dollars }))
    .min(1, MONEY_VALIDATION_TEXT.bandsRequired)
    .max(50)
    .refine((bands) => bands.every((b, i) => i === 0 || b.maxGrams > (bands[i - 1]?.maxGrams ?? -1)), MONEY_TEXT.bandsOrder),
});
const shippingMethodFields = {
  name: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name)),
  /** Delivery is free from this subtotal (after the discount) on; null: never. */
  freeOver: dollars.nullable(),
  active: z.boolean(),
  zones: z.array(shippingZoneSchema).min(1, MONEY_VALIDATION_TEXT.zonesRequired).max(50),
};
/** One place in two zones of a method would have two prices: the second is refused. */
function checkZonesApart(v: { zones?: { destinations: { country: string; region: string }[] }[] | undefined }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  v.zones?.forEach((zone, zi) =>
    zone.destinations.forEach((d, i) => {
      const key = `${d.country}/${d.region}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["zones", zi, "destinations", i], message: MONEY_VALIDATION_TEXT.destinationTwice });
      seen.add(key);
    }),
  );
}
export const shippingMethodInputSchema = z
  .object({
    ...shippingMethodFields,
    freeOver: shippingMethodFields.freeOver.default(null),
    active: shippingMethodFields.active.default(true),
  })
  .superRefine(checkZonesApart);
export type ShippingMethodInput = z.input<typeof shippingMethodInputSchema>;
/** PATCH: any of the fields; `zones`, when sent, replaces them all. */
export const shippingMethodPatchSchema = z.object(shippingMethodFields).partial().superRefine(checkZonesApart);
export type ShippingMethodPatch = z.input<typeof shippingMethodPatchSchema>;
export const shippingMethodSchema = z.object({
  _id: z.string(),
  name: z.string(),
  freeOver: z.number().nullable(),
  active: z.boolean(),
  zones: z.array(
    z.object({
      name: z.string(),
      destinations: z.array(z.object({ country: z.string(), region: z.string() })),
      bands: z.array(z.object({ maxGrams: z.number().int(), price: z.number() })),
    }),
  ),
});
export type ShippingMethod = z.infer<typeof shippingMethodSchema>;

/** The store as invoices name it, and where pickup orders are taxed. */
export const storeSettingsSchema = z
  .object({
    legalName: z.string().trim().min(1, VALIDATION_TEXT.nameRequired).max(200),
    address: z.string().trim().min(1, VALIDATION_TEXT.addressRequired).max(LIMITS.address),
    ...destinationFields,
    taxId: z.string().trim().max(50).default(""),
    /** An IANA time zone: documents are dated, and numbered by year, in it (issue 40). */
    // Left out (a client from before the setting) or empty: the store keeps the zone it has.
    timeZone: z
      .string()
      .trim()
      .transform((zone) => (zone === "" ? undefined : zone))
      .refine((zone) => zone === undefined || isTimeZone(zone), MONEY_TEXT.timeZoneInvalid)
      .optional(),
  })
  .superRefine(checkDestination);
/** The settings as the API sends them: plain strings (the response encoder refuses transforms). */
export const storeSettingsResponseSchema = z.object({
  legalName: z.string(),
  address: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  taxId: z.string(),
  timeZone: z.string(),
});
export type StoreSettings = z.infer<typeof storeSettingsResponseSchema>;

/** The owner marks a trade customer tax-exempt with their certificate; "" clears it. */
export const taxExemptInputSchema = z.object({ taxExemptCertificate: z.string().trim().max(60) });

export { COUNTRIES };
