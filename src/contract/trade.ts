/**
 * Trade accounts (DESIGN "Money" → "Trade accounts", issue 43): constants and one zod schema per
 * payload of /api/admin/accounts and /api/account, shared by the forms and the routes.
 */
import { LIMITS } from "./constants";
import { dollarsToCents } from "./money";
import { emailSchema, orderSchema, pageQuery, PO_NUMBER_MAX } from "./schemas";
import { TRADE_TEXT } from "./texts/trade";
import { VALIDATION_TEXT } from "./texts/validation";
import { z } from "./zod";

export const ACCOUNT_TERMS = ["none", "net15", "net30", "net60"] as const;
export type AccountTerms = (typeof ACCOUNT_TERMS)[number];
/** Days from the invoice to its due date. */
export const TERMS_DAYS: Record<AccountTerms, number> = { none: 0, net15: 15, net30: 30, net60: 60 };

export const ACCOUNT_ROLES = ["buyer", "approver", "admin"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];
/** Who may approve or reject a member's order (never their own). */
export const APPROVES: readonly AccountRole[] = ["approver", "admin"];

/** Reminders of an unpaid invoice: at its due date, 7 and 30 days after. */
export const REMINDER_DAYS = [0, 7, 30] as const;

export const TAX_ID_MAX = 60;
export const ACCOUNT_MESSAGE_MAX = 1000;

/** Whole cents, as dollars: 0 or more. */
const moneySchema = z
  .number({ error: VALIDATION_TEXT.invalidData })
  .nonnegative(TRADE_TEXT.notNegative)
  .max(1_000_000_000, VALIDATION_TEXT.invalidData)
  .refine((v) => Math.abs(v * 100 - dollarsToCents(v)) < 1e-6, { message: VALIDATION_TEXT.priceDecimals });
/** A positive amount of money (a payment). */
const positiveMoneySchema = moneySchema.refine((v) => v > 0, { message: TRADE_TEXT.positive });

const nameSchema = z.string().trim().min(1, TRADE_TEXT.nameRequired).max(LIMITS.name, VALIDATION_TEXT.tooLong(LIMITS.name));
const taxIdSchema = z.string().trim().max(TAX_ID_MAX, VALIDATION_TEXT.tooLong(TAX_ID_MAX));
/** Percent, 0–100, at most two decimals (kept as basis points). */
const percentSchema = z
  .number({ error: VALIDATION_TEXT.invalidData })
  .min(0, TRADE_TEXT.notNegative)
  .max(100, TRADE_TEXT.percentRange)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, { message: TRADE_TEXT.percentDecimals });

export const accountTermsSchema = z.enum(ACCOUNT_TERMS);
export const accountRoleSchema = z.enum(ACCOUNT_ROLES, { error: TRADE_TEXT.role });

export const accountInputSchema = z
  .object({
    name: nameSchema,
    taxId: taxIdSchema.default(""),
    terms: accountTermsSchema.default("none"),
    creditLimit: moneySchema.default(0),
    discountPercent: percentSchema.default(0),
    poRequired: z.boolean().default(false),
  })
  .strict();
export type AccountInput = z.input<typeof accountInputSchema>;
export const accountPatchSchema = z
  .object({ name: nameSchema, taxId: taxIdSchema, terms: accountTermsSchema, creditLimit: moneySchema, discountPercent: percentSchema, poRequired: z.boolean() })
  .partial()
  .strict();
export type AccountPatch = z.infer<typeof accountPatchSchema>;

/** A limit in dollars, or null for none. */
const limitSchema = moneySchema.nullable().optional();
export const memberInputSchema = z
  .object({ email: emailSchema, role: accountRoleSchema, orderLimit: limitSchema, monthlyLimit: limitSchema })
  .strict();
export type MemberInput = z.input<typeof memberInputSchema>;
export const memberParamsSchema = z.object({ id: z.string().min(1).max(LIMITS.id), userId: z.string().min(1).max(LIMITS.id) });
export const memberUserParamsSchema = z.object({ userId: z.string().min(1).max(LIMITS.id) });

export const accountListQuerySchema = z.object({ ...pageQuery, q: z.string().trim().max(LIMITS.search).default("") });

export const applicationInputSchema = z
  .object({ name: nameSchema, taxId: taxIdSchema.default(""), message: z.string().trim().max(ACCOUNT_MESSAGE_MAX, VALIDATION_TEXT.tooLong(ACCOUNT_MESSAGE_MAX)).default("") })
  .strict();
export type ApplicationInput = z.input<typeof applicationInputSchema>;

export const rejectInputSchema = z.object({ reason: z.string().trim().min(1, TRADE_TEXT.reasonRequired).max(ACCOUNT_MESSAGE_MAX, VALIDATION_TEXT.tooLong(ACCOUNT_MESSAGE_MAX)) }).strict();
export type RejectInput = z.infer<typeof rejectInputSchema>;

export const accountPaymentInputSchema = z
  .object({
    amount: positiveMoneySchema,
    reference: z.string().trim().min(1, TRADE_TEXT.referenceRequired).max(PO_NUMBER_MAX, VALIDATION_TEXT.tooLong(PO_NUMBER_MAX)),
    invoiceNumbers: z.array(z.string().trim().min(1).max(40)).max(100).optional(),
  })
  .strict();
export type AccountPaymentInput = z.input<typeof accountPaymentInputSchema>;


export const memberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: accountRoleSchema,
  orderLimit: z.number().nullable().optional(),
  monthlyLimit: z.number().nullable().optional(),
});
export type Member = z.infer<typeof memberSchema>;

export const tradeAccountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  taxId: z.string(),
  terms: accountTermsSchema,
  creditLimit: z.number(),
  creditUsed: z.number(),
  creditAvailable: z.number(),
  onHold: z.boolean(),
  discountPercent: z.number(),
  poRequired: z.boolean(),
  members: z.array(memberSchema),
  createdAt: z.string(),
});
export type TradeAccount = z.infer<typeof tradeAccountSchema>;

/** GET /api/account: the caller's account and their role in it. */
export const myAccountSchema = tradeAccountSchema.extend({ role: accountRoleSchema });
export type MyAccount = z.infer<typeof myAccountSchema>;

export const applicationSchema = z.object({
  _id: z.string(),
  userId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  taxId: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type AccountApplication = z.infer<typeof applicationSchema>;

export const accountPaymentSchema = z.object({
  _id: z.string(),
  amount: z.number(),
  reference: z.string(),
  /** What it paid, oldest invoice first unless named; what is left is unapplied credit. */
  applied: z.array(z.object({ invoiceNumber: z.string(), amount: z.number() })),
  unapplied: z.number(),
  createdAt: z.string(),
});

/** A credit note takes back an invoice (cancelled) or what a refund gave back; `refund` is the part of a refund paid back to the customer because the invoice was already paid (issue 40). */
export const STATEMENT_LINE_TYPES = ["invoice", "payment", "credit_note", "refund"] as const;
export const statementSchema = z.object({
  lines: z.array(z.object({ date: z.string(), type: z.enum(STATEMENT_LINE_TYPES), number: z.string(), amount: z.number(), balance: z.number() })),
  balance: z.number(),
  ageing: z.object({ current: z.number(), days1to30: z.number(), days31to60: z.number(), over60: z.number() }),
});
export type Statement = z.infer<typeof statementSchema>;

export const exemptionInputSchema = z
  .object({
    country: z.string().trim().regex(/^[A-Z]{2}$/, VALIDATION_TEXT.invalidData),
    region: z.string().trim().min(1, VALIDATION_TEXT.invalidData).max(10),
    certificate: z.string().trim().min(1, TRADE_TEXT.certificateRequired).max(TAX_ID_MAX, VALIDATION_TEXT.tooLong(TAX_ID_MAX)),
    expiresOn: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, VALIDATION_TEXT.invalidData).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), VALIDATION_TEXT.invalidData),
  })
  .strict();
export type ExemptionInput = z.infer<typeof exemptionInputSchema>;
export const exemptionSchema = z.object({ _id: z.string(), country: z.string(), region: z.string(), certificate: z.string(), expiresOn: z.string() });
export const expiringExemptionSchema = exemptionSchema.extend({ accountId: z.string(), accountName: z.string() });
export const exemptionParamsSchema = z.object({ id: z.string().min(1).max(LIMITS.id), exemptionId: z.string().min(1).max(LIMITS.id) });

/** An order as the account's approvers see it: the member who placed it too. */
export const accountOrderSchema = orderSchema.extend({ buyer: z.object({ userId: z.string().nullable(), name: z.string(), email: z.string() }) });
export type AccountOrder = z.infer<typeof accountOrderSchema>;

/** An open invoice of the member's account (GET /api/account/invoices): what a member may pay by card. */
export const openInvoiceSchema = z.object({
  invoiceNumber: z.string(),
  orderId: z.string(),
  number: z.number().int(),
  invoiceDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  total: z.number(),
  open: z.number(),
});
export type OpenInvoice = z.infer<typeof openInvoiceSchema>;

/** A member pays open invoices of the account by card, several at once (POST /api/account/invoices/pay, with an Idempotency-Key). */
export const invoicePaymentInputSchema = z
  .object({
    invoiceNumbers: z
      .array(z.string().trim().min(1).max(40), { error: TRADE_TEXT.invoicesRequired })
      .min(1, TRADE_TEXT.invoicesRequired)
      .max(50),
  })
  .strict();

export const INVOICE_PAYMENT_STATUSES = ["open", "paid", "expired"] as const;
export const invoicePaymentSchema = z.object({
  _id: z.string(),
  invoiceNumbers: z.array(z.string()),
  amount: z.number(),
  status: z.enum(INVOICE_PAYMENT_STATUSES),
  /** Where the member pays, while the payment is open. */
  payment: z.object({ url: z.string() }).nullable(),
});
export type InvoicePayment = z.infer<typeof invoicePaymentSchema>;
