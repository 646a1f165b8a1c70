/**
 * One zod schema per payload, shared by the forms in the browser and the API routes.
 * Messages come from TEXT so both sides say exactly the same words.
 */
import { categorySchema, cursorQuery, pageQuery } from "./catalog-query";
import { LIMITS, PAYMENT_METHODS, PASSWORD_MAX, PASSWORD_MIN, RATING_MAX, RATING_MIN } from "./constants";
import { dollarsToCents } from "./money";
import { MAX_PRICE_TIERS, tierProblems } from "./price-tiers";
import { PRICE_TIER_VALIDATION_TEXT } from "./texts/price-tiers";
import { ORDER_STATUSES } from "./order-lifecycle";
import { VALIDATION_TEXT } from "./texts/validation";
import { checkDestination, destinationFields, optionalPromoCodeSchema, PICKUP, shippingMethodIdSchema } from "./money-schemas";
import { FULFILLMENT_STATUSES, ORDER_PAYMENT_STATUSES, shipmentSchema } from "./shipment-schemas";
import { gtinSchema, optionValuesInputSchema, skuSchema, slugSchema, specValueSchema, toolCatalogueFields } from "./catalogue-schemas";
import { z } from "./zod";

export { categorySchema, cursorQuery, pageQuery, toolListQuerySchema, type ToolListQuery } from "./catalog-query";

/** The spec's "lowercase e-mail shape". */
export const EMAIL_PATTERN = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;
/** 8–15 characters, no whitespace, at least one digit, lowercase, uppercase and special character. */
export const PASSWORD_PATTERN = new RegExp(
  `^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^A-Za-z0-9\\s])\\S{${PASSWORD_MIN},${PASSWORD_MAX}}$`,
);

/** A required text: the "required" message alone when empty, then the other rules. */
const requiredText = (requiredMessage: string) => z.string({ error: requiredMessage }).trim().min(1, requiredMessage);

/** Stored and compared lowercase: `ADMIN@Example.com` is `admin@example.com`. */
export const emailSchema = requiredText(VALIDATION_TEXT.emailRequired).toLowerCase().pipe(
  z.string().max(LIMITS.email, VALIDATION_TEXT.emailInvalid).regex(EMAIL_PATTERN, VALIDATION_TEXT.emailInvalid),
);
export const passwordSchema = z
  .string({ error: VALIDATION_TEXT.passwordRequired })
  .min(1, VALIDATION_TEXT.passwordRequired)
  .pipe(z.string().regex(PASSWORD_PATTERN, VALIDATION_TEXT.passwordRule));
export const nameSchema = requiredText(VALIDATION_TEXT.nameRequired).pipe(z.string().max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name)));

export const loginSchema = z.object({ email: emailSchema, password: passwordSchema });
export type LoginInput = z.infer<typeof loginSchema>;

export const signupSchema = z.object({ name: nameSchema, email: emailSchema, password: passwordSchema });
export type SignupInput = z.infer<typeof signupSchema>;

// ---------------------------------------------------------------- errors

/** Why a cart line cannot be ordered as it is. */
export const CART_PROBLEMS = ["BELOW_MINIMUM", "NOT_ENOUGH_STOCK", "UNAVAILABLE"] as const;
export const cartProblemSchema = z.enum(CART_PROBLEMS);
export type CartProblem = z.infer<typeof cartProblemSchema>;

/** A refused checkout's line: which tool, and why. */
export const checkoutProblemSchema = z.object({
  toolId: z.string(),
  name: z.string(),
  problem: cartProblemSchema,
  minimumQuantity: z.number().int(),
  availableQuantity: z.number().int(),
});
export type CheckoutProblem = z.infer<typeof checkoutProblemSchema>;

export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** What is left: units of stock (NOT_ENOUGH_STOCK), or dollars of a trade account's credit (CREDIT_LIMIT). */
  available: z.number().optional(),
  /** A refused checkout's lines (409 CART_PROBLEMS). */
  lines: z.array(checkoutProblemSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

// ---------------------------------------------------------------- catalogue

/** A price tier as the API shows it: from `minQuantity` units on, `price` dollars each (DESIGN "Price tiers"). */
export const priceTierSchema = z.object({ minQuantity: z.number().int(), price: z.number() });
export type PriceTier = z.infer<typeof priceTierSchema>;

export const toolSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  /** Dollars; stored as integer cents. The list price: the unit price below the first tier. */
  price: z.number(),
  availableQuantity: z.number().int(),
  minimumQuantity: z.number().int(),
  description: z.string(),
  category: categorySchema,
  /** Volume prices, ascending `minQuantity`, prices falling; empty when the tool has none. */
  priceTiers: z.array(priceTierSchema),
  /** The tool's visible reviews: their average to one decimal (0 without any) and how many (issue 42). */
  rating: z.object({ average: z.number(), count: z.number().int() }),
  ...toolCatalogueFields,
});
export type Tool = z.infer<typeof toolSchema>;

/** Search-as-you-type (GET /api/tool/suggest): a tool's id, name and category. */
export const suggestQuerySchema = z.object({ q: z.string().trim().max(LIMITS.search).default("") });
export const suggestionSchema = z.object({ _id: z.string(), name: z.string(), category: categorySchema });
export type Suggestion = z.infer<typeof suggestionSchema>;

export const idParamsSchema = z.object({ id: z.string().min(1).max(LIMITS.id) });

/** Money as the API takes it: dollars with at most two decimals. */
const dollarsSchema = z
  .number()
  .positive()
  .max(LIMITS.priceDollars)
  .refine((v) => Math.abs(v * 100 - dollarsToCents(v)) < 1e-6, {
    message: VALIDATION_TEXT.priceDecimals,
  });

/**
 * A tool's image is a path of the store's own (its artwork, or a photo uploaded to it): never
 * another site's address, a `javascript:` or `data:` URL, or a path climbing out with `..`.
 */
export const OWN_IMAGE_PATH = /^\/(?!\/)(?!.*\.\.)[A-Za-z0-9._~\-/]+$/;
export const imagePathSchema = z.string().trim().min(1, VALIDATION_TEXT.imagePath).max(500).regex(OWN_IMAGE_PATH, VALIDATION_TEXT.imagePath);

/**
 * A tool's ladder as the console sends it: ascending quantities, falling prices (contract/price-tiers.ts).
 * Whether it starts above the tool's minimum and below its price is checked with the tool
 * (`priceTierIssues`), since a PATCH may send the ladder, the price or the minimum alone.
 */
export const priceTiersInputSchema = z
  .array(
    z
      .object({
        minQuantity: z
          .number({ error: PRICE_TIER_VALIDATION_TEXT.minQuantity })
          .int(PRICE_TIER_VALIDATION_TEXT.minQuantity)
          .min(2, PRICE_TIER_VALIDATION_TEXT.minQuantity)
          .max(LIMITS.quantity, PRICE_TIER_VALIDATION_TEXT.minQuantity),
        price: dollarsSchema,
      })
      .strict(),
  )
  .max(MAX_PRICE_TIERS, PRICE_TIER_VALIDATION_TEXT.TOO_MANY(MAX_PRICE_TIERS));

/** A ladder's problems against the tool's price and minimum, as validation details (`path` under `priceTiers`). */
export function priceTierIssues(tiers: PriceTier[], price: number, minimumQuantity: number): { path: string; message: string }[] {
  const cents = tiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) }));
  return tierProblems(cents, dollarsToCents(price), minimumQuantity).map(({ index, problem }) => {
    const field = problem === "NOT_BELOW_PRICE" || problem === "NOT_FALLING" ? "price" : "minQuantity";
    const message =
      problem === "TOO_MANY" ? PRICE_TIER_VALIDATION_TEXT.TOO_MANY(MAX_PRICE_TIERS) : problem === "NOT_ABOVE_MINIMUM" ? PRICE_TIER_VALIDATION_TEXT.NOT_ABOVE_MINIMUM(minimumQuantity) : PRICE_TIER_VALIDATION_TEXT[problem];
    return { path: index < 0 ? "priceTiers" : `priceTiers.${index}.${field}`, message };
  });
}

export const toolInputSchema = z
  .object({
    name: z.string().trim().min(1).max(LIMITS.toolName),
    /** The first photo; on create it may be left out when `images` is sent (the server checks one of them is). */
    image: imagePathSchema.optional(),
    price: dollarsSchema,
    availableQuantity: z.number().int().min(0).max(LIMITS.quantity),
    minimumQuantity: z.number().int().min(1).max(LIMITS.quantity),
    description: z.string().trim().min(1).max(LIMITS.toolDescription),
    /** Any slug of the category tree (the root's slug, as before, or a sub-category's). */
    category: slugSchema,
    /** Left out on create: none; on a change: kept as they are. */
    priceTiers: priceTiersInputSchema.optional(),
    /** Catalogue fields (issue 50): left out on create, a SKU is made up and the rest empty. */
    sku: skuSchema.optional(),
    gtin: gtinSchema.optional(),
    brand: slugSchema.nullable().optional(),
    specs: z.record(z.string().max(60), specValueSchema.nullable()).optional(),
    images: z.array(imagePathSchema).min(1).max(20).optional(),
    /** A product the tool joins (null leaves it), with its values of the product's options. */
    productId: z.string().min(1).max(LIMITS.id).nullable().optional(),
    optionValues: optionValuesInputSchema.optional(),
  })
  .strict();
export type ToolInput = z.infer<typeof toolInputSchema>;
export const toolPatchSchema = toolInputSchema.partial().strict();
export type ToolPatch = z.infer<typeof toolPatchSchema>;

// ---------------------------------------------------------------- reviews

export const reviewSchema = z.object({
  _id: z.string(),
  name: z.string(),
  rating: z.number().int(),
  description: z.string(),
  createdAt: z.string(),
  /**
   * Present (true) only when the author has a delivered order from the store, shown as
   * 'Verified buyer': other reviews keep exactly the spec's fields.
   */
  verifiedBuyer: z.literal(true).optional(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewListQuerySchema = z.object({ ...pageQuery, ...cursorQuery });


export const reviewInputSchema = z.object({
  name: nameSchema,
  rating: z.coerce
    .number({ error: VALIDATION_TEXT.ratingRange })
    .int(VALIDATION_TEXT.ratingRange)
    .min(RATING_MIN, VALIDATION_TEXT.ratingRange)
    .max(RATING_MAX, VALIDATION_TEXT.ratingRange),
  description: requiredText(VALIDATION_TEXT.descriptionRequired).pipe(
    z.string().max(LIMITS.reviewDescription, VALIDATION_TEXT.tooLong(LIMITS.reviewDescription)),
  ),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

// ---------------------------------------------------------------- accounts

export const userTokenParamsSchema = z.object({ email: z.string().min(1).max(LIMITS.email) });
export const userTokenBodySchema = z.object({ email: z.string().min(1).max(LIMITS.email) });
export const userTokenResponseSchema = z.object({ token: z.string() });

/** The signed-in user as GET /api/auth/get-session describes them (what the web uses of it). */
export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string().nullish(),
  emailVerified: z.boolean().optional(),
  twoFactorEnabled: z.boolean().nullish(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
export const sessionResponseSchema = z.object({ user: sessionUserSchema }).nullable();
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

// ---------------------------------------------------------------- profile

/** The form always sends both fields; an API client may send one (the other keeps its value). */
export const profileInputSchema = z.object({
  address: z.string().trim().max(LIMITS.address, VALIDATION_TEXT.tooLong(LIMITS.address)).optional(),
  phone: z
    .string()
    .trim()
    .max(LIMITS.phone, VALIDATION_TEXT.tooLong(LIMITS.phone))
    .regex(/^[0-9+() .-]*$/, VALIDATION_TEXT.phoneInvalid)
    .optional(),
  /** The rest of the delivery address (issue 31); country "" clears it. Checked together when a country is given. */
  city: destinationFields.city.optional(),
  region: destinationFields.region.optional(),
  postalCode: destinationFields.postalCode.optional(),
  country: destinationFields.country.optional(),
}).superRefine((v, ctx) => {
  if (v.country) checkDestination({ country: v.country, region: v.region ?? "", postalCode: v.postalCode ?? "" }, ctx);
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

export const profileSchema = z.object({
  displayName: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
  /** Set by the owner for a tax-exempt trade customer. */
  taxExemptCertificate: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

// ---------------------------------------------------------------- orders

export { ORDER_STATUSES } from "./order-lifecycle";
export const orderStatusSchema = z.enum(ORDER_STATUSES);

/** A trade buyer's purchase order number (DESIGN "Trade accounts"), on every placement path; required where the account says so. */
export const PO_NUMBER_MAX = 60;
export const poNumberSchema = z.string().trim().max(PO_NUMBER_MAX, VALIDATION_TEXT.tooLong(PO_NUMBER_MAX));

export const orderInputSchema = z.object({
  toolId: z.string().min(1).max(LIMITS.id),
  quantity: z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(1, VALIDATION_TEXT.invalidData).max(LIMITS.quantity),
  /** A promotion code, as at checkout (every placement path takes one: DESIGN "One way to place an order"). */
  promoCode: optionalPromoCodeSchema,
  poNumber: poNumberSchema.optional(),
  /** Left out: cash on delivery, as the spec's page always ordered; a trade member may order on `terms` (no card here: it has no payment page). */
  paymentMethod: z.enum(["cash_on_delivery", "bank_transfer", "terms"], { error: VALIDATION_TEXT.paymentMethod }).optional(),
});
export type OrderInput = z.infer<typeof orderInputSchema>;

export const orderListQuerySchema = z.object({ ...pageQuery, ...cursorQuery });

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: VALIDATION_TEXT.paymentMethod });

export const orderLineSchema = z.object({
  toolId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  /** unitPrice × quantity (the line's subtotal, as before issue 31). */
  lineTotal: z.number(),
  /** DESIGN "Money", per line: total = subtotal − discount + shipping + tax. */
  subtotal: z.number(),
  discount: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  /** Units given back by refunds that succeeded (DESIGN "Refunds and returns"). */
  refundedQuantity: z.number().int().optional(),
  /** Units in shipments that were not cancelled (DESIGN "Orders" → Shipments). */
  shippedQuantity: z.number().int().optional(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** One step of an order's history: its status from `at`, and who moved it there. */
export const orderEventSchema = z.object({
  status: orderStatusSchema,
  at: z.string(),
  by: z.enum(["customer", "admin", "store", "approver"]),
  /** What else happened with the move (a card refund and its state); absent when nothing. */
  note: z.string().optional(),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/**
 * An order. `toolId`, `name` and `quantity` are its first line (the spec's My Orders shows
 * them); `lines` has every line, `history` every status it has had, oldest first.
 */
export const PAYMENT_STATUSES = ["open", "paid", "expired", "refunded", "refund_failed"] as const;
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** Money given back for an order (DESIGN "Money" → "Refunds and returns", decision 0016). */
export const REFUND_STATUSES = ["pending", "succeeded", "failed"] as const;
export const REFUND_KINDS = ["cancel", "late_payment", "duplicate_payment", "mismatch", "refund"] as const;
export const orderRefundSchema = z.object({
  _id: z.string(),
  amount: z.number(),
  /** pending until the provider confirms it (a card), `failed` with the provider's reason. */
  status: z.enum(REFUND_STATUSES),
  /** Why the money goes back: the owner's cancel, a payment after the cancel, a second payment, a mismatched one, the owner's refund of lines. */
  kind: z.enum(REFUND_KINDS),
  reason: z.string(),
  /** The provider's reason for a failure (or the last unanswered try's, while pending). */
  error: z.string().nullable(),
  /** The refund's credit note (`CN-…`), once the money is given back. */
  creditNoteNumber: z.string().nullable(),
  /** The units it gives back and what each line's share comes to (an owner's refund; empty for the others). */
  lines: z.array(z.object({ toolId: z.string(), name: z.string(), quantity: z.number().int(), amount: z.number(), restocked: z.number().int() })),
  /** The shipping it gives back, with the shipping's tax (0 without). */
  shipping: z.number(),
  /** Whether its units went back to stock. */
  restock: z.boolean(),
  /** The return it settles (DESIGN "Refunds and returns"). */
  returnId: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

/** A return's states (DESIGN "Refunds and returns"): the owner moves it on; the refund that names it makes it `refunded`. */
export const RETURN_STATUSES = ["requested", "approved", "refused", "received", "refunded"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export const orderReturnSchema = z.object({
  _id: z.string(),
  status: z.enum(RETURN_STATUSES),
  /** Each line's units, and how many of them refunds naming the return gave back so far (issue 49: a return is refunded in parts). */
  lines: z.array(z.object({ toolId: z.string(), name: z.string(), quantity: z.number().int(), refundedQuantity: z.number().int() })),
  reason: z.string(),
  /** The owner's last words about it (a refusal's reason). */
  note: z.string().nullable(),
  /** The refund that completed it (null until every unit of it is refunded). */
  refundId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderReturn = z.infer<typeof orderReturnSchema>;

export const orderSchema = z.object({
  _id: z.string(),
  /** Human-friendly order number. */
  number: z.number().int(),
  toolId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  /** total = subtotal − discount + shipping + tax, to the cent (DESIGN "Money"). */
  total: z.number(),
  subtotal: z.number(),
  discount: z.number(),
  shipping: z.number(),
  tax: z.number(),
  status: orderStatusSchema,
  /** The street line; an order from before issue 31 has its whole address here and the rest empty. */
  address: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  phone: z.string(),
  paymentMethod: paymentMethodSchema,
  /** "pickup" or a delivery method's id, and its name as it was when ordered. */
  shippingMethod: z.string(),
  shippingMethodName: z.string(),
  promoCode: z.string().nullable(),
  /** The tax applied: its name and rate in basis points; null when none (or exempt). */
  taxRate: z.object({ name: z.string(), rateBasisPoints: z.number().int() }).nullable(),
  taxExemptCertificate: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  creditNoteNumber: z.string().nullable(),
  /** What the owner must look at about the payment: AMOUNT_MISMATCH, LATE_PAYMENT_REFUNDED, ... (DESIGN "Payments"). */
  paymentProblem: z.string().nullable(),
  /** A card order's payment as the provider's webhook left it; null for other payment methods. */
  payment: z
    .object({
      status: paymentStatusSchema,
      /** Where to pay while the payment is open. */
      url: z.string().nullable(),
      /** Why the provider refused the refund, when it did. */
      refundError: z.string().nullable(),
    })
    .nullable(),
  /** A card order awaiting its payment is cancelled, its stock returned, if unpaid by then. */
  paymentHoldUntil: z.string().nullable(),
  /** The quote this order accepted (DESIGN "Quotes"); absent for an order that did not come from one. */
  quoteNumber: z.string().optional(),
  /** A trade order's purchase order number (DESIGN "Trade accounts"); absent when none was given. */
  poNumber: z.string().optional(),
  /** A terms order's invoice: due then (YYYY-MM-DD, the store's calendar), and what is still owed of it. */
  dueDate: z.string().optional(),
  balanceDue: z.number().optional(),
  /** The trade account's certificate that made it tax-exempt in its region. */
  taxExemption: z.object({ certificate: z.string(), region: z.string() }).optional(),
  /** Money given back (succeeded refunds: 0 when none), and every refund of the order, oldest first. */
  refundedTotal: z.number().optional(),
  refunds: z.array(orderRefundSchema).optional(),
  /** The customer's returns of the order, oldest first. */
  returns: z.array(orderReturnSchema).optional(),
  /** Its parcels, oldest first, and its money and parcels apart from `status` (DESIGN "Orders" → Shipments). */
  shipments: z.array(shipmentSchema).optional(),
  paymentStatus: z.enum(ORDER_PAYMENT_STATUSES).optional(),
  fulfillmentStatus: z.enum(FULFILLMENT_STATUSES).optional(),
  note: z.string(),
  createdAt: z.string(),
  lines: z.array(orderLineSchema),
  history: z.array(orderEventSchema),
});
export type Order = z.infer<typeof orderSchema>;

// ---------------------------------------------------------------- cart and checkout

export const cartLineSchema = z.object({
  toolId: z.string(),
  name: z.string(),
  image: z.string(),
  unitPrice: z.number(),
  quantity: z.number().int(),
  minimumQuantity: z.number().int(),
  availableQuantity: z.number().int(),
  lineTotal: z.number(),
  /** What stops this line from being ordered as it is; null when nothing does. */
  problem: cartProblemSchema.nullable(),
  /** The price tier the quantity reaches (`unitPrice` is its price); absent at the list price. */
  tier: priceTierSchema.optional(),
  /** The next tier up and how many more units reach it; absent when there is none. */
  nextTier: priceTierSchema.extend({ more: z.number().int() }).optional(),
  /** True when `unitPrice` is the customer's trade account price (DESIGN "Trade accounts"); absent otherwise. */
  tradePrice: z.literal(true).optional(),
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  /**
   * DESIGN "Money": priced for the profile's address (pickup at the store unless `shippingMethod`
   * is asked for); total = subtotal − discount + shipping + tax.
   */
  subtotal: z.number(),
  discount: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  /** Tools × quantities, for the navigation bar's badge. */
  count: z.number().int(),
  /** Changes whenever a line or a quantity does: a checkout names the cart it saw. */
  version: z.string(),
  /**
   * The caller's trade account discount in percent (0 outside one), as its pricing read it: the
   * tool and purchase pages show a member's trade price from the navigation bar's cart, so they
   * ask nothing more.
   */
  tradeDiscountPercent: z.number(),
});
export type Cart = z.infer<typeof cartSchema>;

const cartQuantity = z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(0, VALIDATION_TEXT.invalidData).max(LIMITS.quantity, VALIDATION_TEXT.invalidData);
export const cartLineInputSchema = z.object({ quantity: cartQuantity });
export type CartLineInput = z.infer<typeof cartLineInputSchema>;
export const toolIdParamsSchema = z.object({ toolId: z.string().min(1).max(LIMITS.id) });

/** A signed-out visitor's cart (kept in the browser), joined to the account's at sign-in. */
export const cartMergeInputSchema = z.object({
  lines: z
    .array(z.object({ toolId: z.string().min(1).max(LIMITS.id), quantity: cartQuantity.min(1, VALIDATION_TEXT.invalidData) }))
    .max(LIMITS.cartLines),
});
export type CartMergeInput = z.infer<typeof cartMergeInputSchema>;

const checkoutFields = z.object({
  address: requiredText(VALIDATION_TEXT.addressRequired).pipe(z.string().max(LIMITS.address, VALIDATION_TEXT.tooLong(LIMITS.address))),
  phone: requiredText(VALIDATION_TEXT.phoneRequired).pipe(z.string().max(LIMITS.phone, VALIDATION_TEXT.tooLong(LIMITS.phone)).regex(/^[0-9+() .-]*$/, VALIDATION_TEXT.phoneInvalid)),
  paymentMethod: paymentMethodSchema,
  note: z.string().trim().max(LIMITS.orderNote, VALIDATION_TEXT.tooLong(LIMITS.orderNote)).default(""),
  /** Save the address and phone to My Profile too. */
  saveToProfile: z.boolean().default(false),
  /**
   * The cart's `version` the customer confirmed; another tab's change is refused (409). Left out
   * (an API client that has just filled the cart), the cart as it is now is ordered.
   */
  cartVersion: z.string().min(1).max(LIMITS.id).optional(),
  /** The total the page showed; a different one today is ordered at today's prices, and said. */
  expectedTotal: z.number().nonnegative().optional(),
  /** The rest of the delivery address (issue 31): needed for delivery, optional for pickup. */
  ...destinationFields,
  country: destinationFields.country.default(""),
  /** `pickup` (the default, as before issue 31) or a delivery method's id. */
  shippingMethod: shippingMethodIdSchema.default(PICKUP),
  promoCode: optionalPromoCodeSchema,
  poNumber: poNumberSchema.optional(),
});
/** Delivery needs a destination the store knows; pickup checks one only when it is given. */
function checkCheckoutDestination(v: { country: string; region: string; postalCode: string; shippingMethod: string }, ctx: z.RefinementCtx) {
  if (v.country !== "" || v.shippingMethod !== PICKUP) checkDestination(v, ctx);
}
export const checkoutInputSchema = checkoutFields.superRefine(checkCheckoutDestination);
export type CheckoutInput = z.input<typeof checkoutInputSchema>;
/** The checkout form: the same rules, without what the page adds itself (the cart it shows). */
export const checkoutFormSchema = checkoutFields.omit({ cartVersion: true, expectedTotal: true }).superRefine(checkCheckoutDestination);
export type CheckoutFormInput = z.input<typeof checkoutFormSchema>;
export type CheckoutFormValues = z.output<typeof checkoutFormSchema>;

export const checkoutResultSchema = z.object({
  order: orderSchema,
  /** A card order: where the customer pays (the provider's hosted page). */
  payment: z.object({ url: z.string() }).optional(),
  /** The prices changed since the page showed them: the order is at today's prices. */
  priceChanged: z.boolean(),
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;
