/**
 * Quotes' payloads (DESIGN "Quotes", API rows /api/quotes and /api/admin/quotes): one schema per
 * payload, shared by the forms and the routes.
 */
import { LIMITS } from "./constants";
import { dollarsToCents } from "./money";
import { checkDestination, destinationFields } from "./money-schemas";
import { QUOTE_REVISION_STATUSES, QUOTE_STATUSES } from "./quote-states";
import { orderSchema, pageQuery, paymentMethodSchema, poNumberSchema } from "./schemas";
import { QUOTE_API_TEXT } from "./texts/quotes";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

export const QUOTE_MESSAGE_MAX = 2000;

const messageSchema = z.string().trim().max(QUOTE_MESSAGE_MAX, QUOTE_API_TEXT.messageTooLong(QUOTE_MESSAGE_MAX));
const quantitySchema = z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(1, VALIDATION_TEXT.invalidData).max(LIMITS.quantity, VALIDATION_TEXT.invalidData);
const toolIdSchema = z.string().min(1).max(LIMITS.id);

/** A calendar date, `2026-12-01`. */
export const calendarDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, VALIDATION_TEXT.invalidData).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), VALIDATION_TEXT.invalidData);

/** Lines of tools and quantities, each tool once. */
function linesOf<T extends z.ZodType<{ toolId: string }>>(line: T) {
  return z
    .array(line)
    .min(1, QUOTE_API_TEXT.linesRequired)
    .max(LIMITS.cartLines)
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((l, i) => {
        if (seen.has(l.toolId)) ctx.addIssue({ code: "custom", path: [i, "toolId"], message: QUOTE_API_TEXT.toolTwice });
        seen.add(l.toolId);
      });
    });
}

/** Today (UTC) as `YYYY-MM-DD`: a needed-by date before it is in the past. */
const today = () => new Date().toISOString().slice(0, 10);

/** POST /api/quotes: what the customer asks for. Immutable once sent. */
export const quoteRequestInputSchema = z
  .object({
    lines: linesOf(z.object({ toolId: toolIdSchema, quantity: quantitySchema })),
    message: messageSchema.default(""),
    neededBy: calendarDateSchema.refine((d) => d >= today(), QUOTE_API_TEXT.neededByPast).optional(),
    address: z.string().trim().max(LIMITS.address, VALIDATION_TEXT.tooLong(LIMITS.address)).default(""),
    ...destinationFields,
    country: destinationFields.country.default(""),
  })
  .superRefine((v, ctx) => {
    if (v.country !== "") checkDestination(v, ctx);
  });
export type QuoteRequestInput = z.input<typeof quoteRequestInputSchema>;
export type QuoteRequest = z.output<typeof quoteRequestInputSchema>;

export const quoteLineSchema = z.object({ toolId: z.string(), name: z.string(), quantity: z.number().int() });
export const quoteRevisionLineSchema = quoteLineSchema.extend({ unitPrice: z.number(), lineTotal: z.number() });

export const quoteRevisionSchema = z.object({
  revision: z.number().int(),
  status: z.enum(QUOTE_REVISION_STATUSES),
  lines: z.array(quoteRevisionLineSchema),
  subtotal: z.number(),
  shipping: z.number(),
  tax: z.number(),
  total: z.number(),
  /** ISO date-time. */
  validUntil: z.string(),
  message: z.string(),
  /** The quoted units are held for the customer while the revision is open. */
  holdStock: z.boolean(),
  /** The tax applied (DESIGN "Money", for the quote's address), or null. */
  taxRate: z.object({ name: z.string(), rateBasisPoints: z.number().int() }).nullable(),
  taxExemptCertificate: z.string().nullable(),
  /** A trade account's certificate for the region the revision is taxed in (DESIGN "Trade accounts"), as an order records it; absent otherwise. */
  taxExemption: z.object({ certificate: z.string(), region: z.string() }).optional(),
  createdAt: z.string(),
});
export type QuoteRevision = z.infer<typeof quoteRevisionSchema>;

export const quoteSchema = z.object({
  _id: z.string(),
  /** Q-YYYY-NNNNNN. */
  number: z.string(),
  status: z.enum(QUOTE_STATUSES),
  lines: z.array(quoteLineSchema),
  message: z.string(),
  /** YYYY-MM-DD, or null. */
  neededBy: z.string().nullable(),
  address: z.string(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
  /** Oldest first; the last is the current one. */
  revisions: z.array(quoteRevisionSchema),
  /** The order made by accepting it. */
  orderId: z.string().nullable(),
  createdAt: z.string(),
});
export type Quote = z.infer<typeof quoteSchema>;

export const quoteListQuerySchema = z.object({ ...pageQuery });

/** POST /api/quotes/:id/accept (with an Idempotency-Key). */
export const quoteAcceptInputSchema = z.object({
  revision: z.number({ error: VALIDATION_TEXT.invalidData }).int(VALIDATION_TEXT.invalidData).min(1, VALIDATION_TEXT.invalidData),
  paymentMethod: paymentMethodSchema,
  poNumber: poNumberSchema.optional(),
});
export type QuoteAcceptInput = z.infer<typeof quoteAcceptInputSchema>;

export const quoteAcceptResultSchema = z.object({
  order: orderSchema,
  /** A quote is never re-priced. */
  priceChanged: z.literal(false),
  payment: z.object({ url: z.string() }).optional(),
});
export type QuoteAcceptResult = z.infer<typeof quoteAcceptResultSchema>;

export const quotePdfQuerySchema = z.object({ revision: z.coerce.number().int().min(1).optional() });

// ---------------------------------------------------------------- the console

/** Money the owner types: dollars with at most two decimals, zero allowed. */
const ownerDollars = z
  .number({ error: VALIDATION_TEXT.invalidData })
  .nonnegative()
  .max(LIMITS.priceDollars)
  .refine((v) => Math.abs(v * 100 - dollarsToCents(v)) < 1e-6, { message: VALIDATION_TEXT.priceDecimals });

/** A revision's end: a date (through that day, UTC) or a date-time; it must be in the future. */
export const validUntilSchema = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || !Number.isNaN(Date.parse(s)), VALIDATION_TEXT.invalidData)
  .transform((s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? new Date(`${s}T23:59:59.999Z`) : new Date(s)))
  .refine((d) => !Number.isNaN(d.getTime()), VALIDATION_TEXT.invalidData)
  .refine((d) => d.getTime() > Date.now(), QUOTE_API_TEXT.validUntilPast);

/** POST /api/admin/quotes/:id/revisions. */
export const quoteRevisionInputSchema = z.object({
  lines: linesOf(z.object({ toolId: toolIdSchema, quantity: quantitySchema, unitPrice: ownerDollars })),
  shipping: ownerDollars,
  validUntil: validUntilSchema,
  message: messageSchema.default(""),
  holdStock: z.boolean().default(false),
});
export type QuoteRevisionInput = z.input<typeof quoteRevisionInputSchema>;
export type QuoteRevisionRequest = z.output<typeof quoteRevisionInputSchema>;

export const adminQuoteSchema = quoteSchema.extend({ customer: z.object({ name: z.string(), email: z.string() }).nullable() });
export type AdminQuote = z.infer<typeof adminQuoteSchema>;

export const adminQuoteListQuerySchema = z.object({ status: z.enum(QUOTE_STATUSES).optional(), ...pageQuery });
