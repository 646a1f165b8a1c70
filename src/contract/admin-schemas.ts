/**
 * The console's payloads (admin only: a shopper's page never imports this file), one zod
 * schema each, shared by the console's forms and the /api/admin routes.
 */
import { LIMITS } from "./constants";
import { MONEY_TEXT } from "./texts/money";
import {
  orderSchema,
  orderStatusSchema,
  pageQuery,
  priceTierIssues,
  REFUND_KINDS,
  REFUND_STATUSES,
  reviewSchema,
  toolInputSchema,
  toolListQuerySchema,
  toolSchema,
} from "./schemas";
import { ADMIN_STOCK_REASONS, STOCK_NOTE_MAX, STOCK_REASONS } from "./stock";
import { ADMIN_VALIDATION_TEXT } from "./texts/admin";
import { VALIDATION_TEXT } from "./texts/validation";
import { shipmentSchema } from "./shipment-schemas";
import { z } from "./zod";

const validationText = { ...VALIDATION_TEXT, ...ADMIN_VALIDATION_TEXT };

/** A required text: the "required" message alone when empty, then the other rules. */
const requiredText = (requiredMessage: string) => z.string({ error: requiredMessage }).trim().min(1, requiredMessage);

// ---------------------------------------------------------------- admin: tools and stock

/** A tool as the console sees it: the public fields, and what only the owner looks at. */
export const adminToolSchema = toolSchema.extend({
  active: z.boolean(),
  lowStockThreshold: z.number().int().nullable(),
  /** Shipping weight of one, in grams. */
  weightGrams: z.number().int(),
  /** True when the stock is below the owner's threshold (or twice the minimum without one). */
  lowStock: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** How many wait for a back-in-stock e-mail (issue 42): on the console's list and the tool's page. */
  alertsWaiting: z.number().int().optional(),
});
export type AdminTool = z.infer<typeof adminToolSchema>;

export const adminToolListQuerySchema = toolListQuerySchema.extend({
  status: z.enum(["active", "archived"]).optional(),
});
export type AdminToolListQuery = Partial<z.infer<typeof adminToolListQuerySchema>>;

const lowStockThresholdSchema = z.number().int().min(0).max(LIMITS.quantity).nullable();
const weightGramsSchema = z.number({ error: MONEY_TEXT.weightRange }).int(MONEY_TEXT.weightRange).min(0, MONEY_TEXT.weightRange).max(1_000_000, MONEY_TEXT.weightRange);

/**
 * Create: the public tool's fields, optionally the owner's low-stock threshold, and whether it
 * goes into the store at once (`active`, the default) or waits archived until restored.
 */
export const adminToolInputSchema = toolInputSchema
  .extend({ lowStockThreshold: lowStockThresholdSchema.optional(), weightGrams: weightGramsSchema.optional(), active: z.boolean().optional() })
  .strict();
export type AdminToolInput = z.infer<typeof adminToolInputSchema>;
/** Edit: any of them; `active` archives (false) or restores (true) the tool. */
export const adminToolPatchSchema = adminToolInputSchema.partial().strict();
export type AdminToolPatch = z.infer<typeof adminToolPatchSchema>;
/** The console's tool form: the create payload, and its ladder checked against its price and minimum as the server checks it. */
export const adminToolFormSchema = adminToolInputSchema.superRefine((v, ctx) => {
  for (const issue of priceTierIssues(v.priceTiers ?? [], v.price, v.minimumQuantity)) ctx.addIssue({ code: "custom", path: issue.path.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: issue.message });
});

export const stockMovementInputSchema = z
  .object({
    delta: z.coerce
      .number({ error: validationText.stockDelta })
      .int(validationText.stockDelta)
      .min(-LIMITS.quantity, validationText.stockDelta)
      .max(LIMITS.quantity, validationText.stockDelta)
      .refine((d) => d !== 0, validationText.stockDelta),
    reason: z.enum(ADMIN_STOCK_REASONS),
    note: requiredText(validationText.stockReasonRequired).pipe(z.string().max(STOCK_NOTE_MAX, validationText.tooLong(STOCK_NOTE_MAX))),
  })
  .strict();
export type StockMovementInput = z.input<typeof stockMovementInputSchema>;

export const stockMovementSchema = z.object({
  _id: z.string(),
  toolId: z.string(),
  delta: z.number().int(),
  reason: z.enum(STOCK_REASONS),
  note: z.string(),
  orderId: z.string().nullable(),
  by: z.string().nullable(),
  createdAt: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

/** A tool's ledger: its stock now and every movement, newest first (paged). */
export const stockLedgerSchema = z.object({
  tool: adminToolSchema,
  movements: z.array(stockMovementSchema),
});
export type StockLedger = z.infer<typeof stockLedgerSchema>;

/** POST /api/admin/products/:id/combinations: the tools made for the combinations that had none (issue 50). */
export const productCombinationsResultSchema = z.object({ created: z.array(adminToolSchema) });
export type ProductCombinationsResult = z.infer<typeof productCombinationsResultSchema>;

export const deleteToolResultSchema = z.object({ outcome: z.enum(["deleted", "archived"]) });
export type DeleteToolResult = z.infer<typeof deleteToolResultSchema>;

// ---------------------------------------------------------------- admin: reviews

/** The console's view of a review: the public fields, whether it is hidden, who wrote it. */
export const adminReviewSchema = reviewSchema.extend({
  hidden: z.boolean(),
  authorEmail: z.string().nullable(),
  /** A tool's review (issue 42): which tool, and its title; absent for the store-wide ones. */
  toolId: z.string().optional(),
  toolName: z.string().optional(),
  title: z.string().optional(),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;
const booleanQuery = z.enum(["true", "false"]).transform((v) => v === "true");
export const adminReviewListQuerySchema = z.object({ hidden: booleanQuery.optional(), ...pageQuery });
export const adminReviewPatchSchema = z.object({ hidden: z.boolean() }).strict();
export type AdminReviewPatch = z.infer<typeof adminReviewPatchSchema>;

// ---------------------------------------------------------------- admin: orders, users, summary, audit

export const adminOrderSchema = orderSchema.extend({
  customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** POST /api/admin/orders/:id/shipments and /api/admin/shipments/:id/status answer the shipment and its order. */
export const shipmentResultSchema = z.object({ shipment: shipmentSchema, order: adminOrderSchema });
export type ShipmentResult = z.infer<typeof shipmentResultSchema>;

export const adminOrderListQuerySchema = z.object({
  /** An order status, or `to_ship`: what waits to ship, oldest first (DESIGN "Orders" → Shipments). */
  status: z.union([orderStatusSchema, z.literal("to_ship")]).optional(),
  /** Part of the customer's name or e-mail. */
  customer: z.string().trim().max(LIMITS.search).optional(),
  ...pageQuery,
});
export type AdminOrderListQuery = Partial<z.infer<typeof adminOrderListQuerySchema>>;

export const orderStatusInputSchema = z.object({ status: orderStatusSchema }).strict();
export type OrderStatusInput = z.infer<typeof orderStatusInputSchema>;

export const ROLES = ["admin", "user"] as const;
export const adminUserSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  createdAt: z.string(),
  /** Set for a tax-exempt trade customer (PATCH /api/admin/users/:id/tax-exempt); null otherwise. */
  taxExemptCertificate: z.string().nullable(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserListQuerySchema = z.object({ q: z.string().trim().max(LIMITS.search).optional(), ...pageQuery });
export const adminUserPatchSchema = z.object({ role: z.enum(ROLES) }).strict();
export type AdminUserPatch = z.infer<typeof adminUserPatchSchema>;

export const adminSummarySchema = z.object({
  /** The last 30 days, oldest first, every day present (0 when nothing sold). */
  salesPerDay: z.array(z.object({ day: z.string(), total: z.number(), orders: z.number().int() })),
  ordersByStatus: z.array(z.object({ status: orderStatusSchema, count: z.number().int() })),
  topTools: z.array(z.object({ toolId: z.string(), name: z.string(), quantity: z.number().int(), total: z.number() })),
  lowStock: z.array(
    z.object({ toolId: z.string(), name: z.string(), availableQuantity: z.number().int(), threshold: z.number().int() }),
  ),
});
export type AdminSummary = z.infer<typeof adminSummarySchema>;

export const auditEntrySchema = z.object({
  _id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListQuerySchema = z.object({
  entity: z.string().trim().max(40).optional(),
  entityId: z.string().trim().max(LIMITS.id).optional(),
  ...pageQuery,
});

// ---------------------------------------------------------------- mail outbox

/** A refund as the console's list shows it: the refund worker's job (decision 0016). */
export const adminRefundSchema = z.object({
  _id: z.string(),
  orderId: z.string(),
  orderNumber: z.number().int(),
  kind: z.enum(REFUND_KINDS),
  amount: z.number(),
  status: z.enum(REFUND_STATUSES),
  /** The provider's own refund, once it answered. */
  providerRefundId: z.string().nullable(),
  /** Calls made so far, and when the next one is due while pending. */
  tries: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type AdminRefund = z.infer<typeof adminRefundSchema>;
export const adminRefundListQuerySchema = z.object({
  status: z.enum(REFUND_STATUSES).optional(),
  ...pageQuery,
});

export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;
export const mailEntrySchema = z.object({
  _id: z.string(),
  to: z.string(),
  subject: z.string(),
  kind: z.string(),
  status: z.enum(MAIL_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type MailEntry = z.infer<typeof mailEntrySchema>;
export const mailListQuerySchema = z.object({
  status: z.enum(MAIL_STATUSES).optional(),
  ...pageQuery,
});

/** A background job that used its last attempt (the job runner, decision 0021), until it is sent again. */
export const jobFailureSchema = z.object({
  _id: z.string(),
  queue: z.string(),
  error: z.string(),
  attempts: z.number().int(),
  failedAt: z.string(),
});
export type JobFailureEntry = z.infer<typeof jobFailureSchema>;
