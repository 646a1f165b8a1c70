/**
 * One zod schema per payload, shared by the forms in the browser and the API routes.
 * Messages come from TEXT so both sides say exactly the same words.
 */
import { z } from "zod";
import {
  CATEGORIES,
  LIMITS,
  PAYMENT_METHODS,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RATING_MAX,
  RATING_MIN,
} from "./constants";
import { dollarsToCents } from "./money";
import { ORDER_STATUSES } from "./order-lifecycle";
import { ADMIN_STOCK_REASONS, STOCK_REASONS } from "./constants";
import { VALIDATION_TEXT } from "./texts/validation";

const V = VALIDATION_TEXT;

/** The spec's "lowercase e-mail shape". */
export const EMAIL_PATTERN = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/;
/** 8–15 characters, no whitespace, at least one digit, lowercase, uppercase and special character. */
export const PASSWORD_PATTERN = new RegExp(
  `^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^A-Za-z0-9\\s])\\S{${PASSWORD_MIN},${PASSWORD_MAX}}$`,
);

/** A required text: the "required" message alone when empty, then the other rules. */
const requiredText = (requiredMessage: string) => z.string({ error: requiredMessage }).trim().min(1, requiredMessage);

export const emailSchema = requiredText(V.emailRequired).pipe(
  z.string().max(LIMITS.email, V.emailInvalid).regex(EMAIL_PATTERN, V.emailInvalid),
);
export const passwordSchema = z
  .string({ error: V.passwordRequired })
  .min(1, V.passwordRequired)
  .pipe(z.string().regex(PASSWORD_PATTERN, V.passwordRule));
export const nameSchema = requiredText(V.nameRequired).pipe(z.string().max(LIMITS.name, V.tooLong(LIMITS.name)));

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
  available: z.number().int().optional(),
  /** A refused checkout's lines (409 CART_PROBLEMS). */
  lines: z.array(checkoutProblemSchema).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

// ---------------------------------------------------------------- catalogue

export const categorySchema = z.enum(CATEGORIES);

export const toolSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  /** Dollars; stored as integer cents. */
  price: z.number(),
  availableQuantity: z.number().int(),
  minimumQuantity: z.number().int(),
  description: z.string(),
  category: categorySchema,
});
export type Tool = z.infer<typeof toolSchema>;

const pageQuery = {
  page: z.coerce.number().int().min(1).max(LIMITS.page).default(1),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
};

export const toolListQuerySchema = z.object({
  category: categorySchema.optional(),
  q: z.string().trim().max(LIMITS.search).optional(),
  ...pageQuery,
});
/** What a client may ask the tool list for: any of the query's fields (the server applies the defaults). */
export type ToolListQuery = Partial<z.infer<typeof toolListQuerySchema>>;

export const idParamsSchema = z.object({ id: z.string().min(1).max(LIMITS.id) });

/** Money as the API takes it: dollars with at most two decimals. */
const dollarsSchema = z
  .number()
  .positive()
  .max(LIMITS.priceDollars)
  .refine((v) => Math.abs(v * 100 - dollarsToCents(v)) < 1e-6, {
    message: V.priceDecimals,
  });

/**
 * A tool's image is a path of the store's own (its artwork, or a photo uploaded to it): never
 * another site's address, a `javascript:` or `data:` URL, or a path climbing out with `..`.
 */
export const OWN_IMAGE_PATH = /^\/(?!\/)(?!.*\.\.)[A-Za-z0-9._~\-/]+$/;
export const imagePathSchema = z.string().trim().min(1, V.imagePath).max(500).regex(OWN_IMAGE_PATH, V.imagePath);

export const toolInputSchema = z
  .object({
    name: z.string().trim().min(1).max(LIMITS.toolName),
    image: imagePathSchema,
    price: dollarsSchema,
    availableQuantity: z.number().int().min(0).max(LIMITS.quantity),
    minimumQuantity: z.number().int().min(1).max(LIMITS.quantity),
    description: z.string().trim().min(1).max(LIMITS.toolDescription),
    category: categorySchema,
  })
  .strict();
export type ToolInput = z.infer<typeof toolInputSchema>;
export const toolPatchSchema = toolInputSchema.partial().strict();
export type ToolPatch = z.infer<typeof toolPatchSchema>;

// ---------------------------------------------------------------- admin: tools and stock

/** A tool as the console sees it: the public fields, and what only the owner looks at. */
export const adminToolSchema = toolSchema.extend({
  active: z.boolean(),
  lowStockThreshold: z.number().int().nullable(),
  /** True when the stock is below the owner's threshold (or twice the minimum without one). */
  lowStock: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminTool = z.infer<typeof adminToolSchema>;

export const adminToolListQuerySchema = toolListQuerySchema.extend({
  status: z.enum(["active", "archived"]).optional(),
});
export type AdminToolListQuery = Partial<z.infer<typeof adminToolListQuerySchema>>;

const lowStockThresholdSchema = z.number().int().min(0).max(LIMITS.quantity).nullable();

/** Create: the public tool's fields, and optionally the owner's low-stock threshold. */
export const adminToolInputSchema = toolInputSchema.extend({ lowStockThreshold: lowStockThresholdSchema.optional() }).strict();
export type AdminToolInput = z.infer<typeof adminToolInputSchema>;
/** Edit: any of them; `active` archives (false) or restores (true) the tool. */
export const adminToolPatchSchema = adminToolInputSchema.partial().extend({ active: z.boolean().optional() }).strict();
export type AdminToolPatch = z.infer<typeof adminToolPatchSchema>;

export const stockMovementInputSchema = z
  .object({
    delta: z.coerce
      .number({ error: V.stockDelta })
      .int(V.stockDelta)
      .min(-LIMITS.quantity, V.stockDelta)
      .max(LIMITS.quantity, V.stockDelta)
      .refine((d) => d !== 0, V.stockDelta),
    reason: z.enum(ADMIN_STOCK_REASONS),
    note: requiredText(V.stockReasonRequired).pipe(z.string().max(LIMITS.stockNote, V.tooLong(LIMITS.stockNote))),
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

export const deleteToolResultSchema = z.object({ outcome: z.enum(["deleted", "archived"]) });
export type DeleteToolResult = z.infer<typeof deleteToolResultSchema>;

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

export const reviewListQuerySchema = z.object({ ...pageQuery });

/** The console's view of a review: the public fields, whether it is hidden, who wrote it. */
export const adminReviewSchema = reviewSchema.extend({
  hidden: z.boolean(),
  authorEmail: z.string().nullable(),
});
export type AdminReview = z.infer<typeof adminReviewSchema>;
const booleanQuery = z.enum(["true", "false"]).transform((v) => v === "true");
export const adminReviewListQuerySchema = z.object({ hidden: booleanQuery.optional(), ...pageQuery });
export const adminReviewPatchSchema = z.object({ hidden: z.boolean() }).strict();
export type AdminReviewPatch = z.infer<typeof adminReviewPatchSchema>;

export const reviewInputSchema = z.object({
  name: nameSchema,
  rating: z.coerce
    .number({ error: V.ratingRange })
    .int(V.ratingRange)
    .min(RATING_MIN, V.ratingRange)
    .max(RATING_MAX, V.ratingRange),
  description: requiredText(V.descriptionRequired).pipe(
    z.string().max(LIMITS.reviewDescription, V.tooLong(LIMITS.reviewDescription)),
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
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
export const sessionResponseSchema = z.object({ user: sessionUserSchema }).nullable();
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

// ---------------------------------------------------------------- profile

/** The form always sends both fields; an API client may send one (the other keeps its value). */
export const profileInputSchema = z.object({
  address: z.string().trim().max(LIMITS.address, V.tooLong(LIMITS.address)).optional(),
  phone: z
    .string()
    .trim()
    .max(LIMITS.phone, V.tooLong(LIMITS.phone))
    .regex(/^[0-9+() .-]*$/, V.phoneInvalid)
    .optional(),
});
export type ProfileInput = z.infer<typeof profileInputSchema>;

export const profileSchema = z.object({
  displayName: z.string(),
  email: z.string(),
  address: z.string(),
  phone: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

// ---------------------------------------------------------------- orders

export { ORDER_STATUSES } from "./order-lifecycle";
export const orderStatusSchema = z.enum(ORDER_STATUSES);

export const orderInputSchema = z.object({
  toolId: z.string().min(1).max(LIMITS.id),
  quantity: z.number({ error: V.invalidData }).int(V.invalidData).min(1, V.invalidData).max(LIMITS.quantity),
});
export type OrderInput = z.infer<typeof orderInputSchema>;

export const orderListQuerySchema = z.object({ ...pageQuery });

export const paymentMethodSchema = z.enum(PAYMENT_METHODS, { error: V.paymentMethod });

export const orderLineSchema = z.object({
  toolId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  lineTotal: z.number(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

/** One step of an order's history: its status from `at`, and who moved it there. */
export const orderEventSchema = z.object({
  status: orderStatusSchema,
  at: z.string(),
  by: z.enum(["customer", "admin", "store"]),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/**
 * An order. `toolId`, `name` and `quantity` are its first line (the spec's My Orders shows
 * them); `lines` has every line, `history` every status it has had, oldest first.
 */
export const orderSchema = z.object({
  _id: z.string(),
  /** Human-friendly order number. */
  number: z.number().int(),
  toolId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPrice: z.number(),
  total: z.number(),
  status: orderStatusSchema,
  address: z.string(),
  phone: z.string(),
  paymentMethod: paymentMethodSchema,
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
});
export type CartLine = z.infer<typeof cartLineSchema>;

export const cartSchema = z.object({
  lines: z.array(cartLineSchema),
  total: z.number(),
  /** Tools × quantities, for the navigation bar's badge. */
  count: z.number().int(),
  /** Changes whenever a line or a quantity does: a checkout names the cart it saw. */
  version: z.string(),
});
export type Cart = z.infer<typeof cartSchema>;

const cartQuantity = z.number({ error: V.invalidData }).int(V.invalidData).min(0, V.invalidData).max(LIMITS.quantity, V.invalidData);
export const cartLineInputSchema = z.object({ quantity: cartQuantity });
export type CartLineInput = z.infer<typeof cartLineInputSchema>;
export const toolIdParamsSchema = z.object({ toolId: z.string().min(1).max(LIMITS.id) });

/** A signed-out visitor's cart (kept in the browser), joined to the account's at sign-in. */
export const cartMergeInputSchema = z.object({
  lines: z
    .array(z.object({ toolId: z.string().min(1).max(LIMITS.id), quantity: cartQuantity.min(1, V.invalidData) }))
    .max(LIMITS.cartLines),
});
export type CartMergeInput = z.infer<typeof cartMergeInputSchema>;

export const checkoutInputSchema = z.object({
  address: requiredText(V.addressRequired).pipe(z.string().max(LIMITS.address, V.tooLong(LIMITS.address))),
  phone: requiredText(V.phoneRequired).pipe(z.string().max(LIMITS.phone, V.tooLong(LIMITS.phone)).regex(/^[0-9+() .-]*$/, V.phoneInvalid)),
  paymentMethod: paymentMethodSchema,
  note: z.string().trim().max(LIMITS.orderNote, V.tooLong(LIMITS.orderNote)).default(""),
  /** Save the address and phone to My Profile too. */
  saveToProfile: z.boolean().default(false),
  /** The cart's `version` the customer confirmed; another tab's change is refused (409). */
  cartVersion: z.string().min(1).max(LIMITS.id),
  /** The total the page showed; a different one today is ordered at today's prices, and said. */
  expectedTotal: z.number().nonnegative().optional(),
});
export type CheckoutInput = z.input<typeof checkoutInputSchema>;
/** The checkout form: the same rules, without what the page adds itself (the cart it shows). */
export const checkoutFormSchema = checkoutInputSchema.omit({ cartVersion: true, expectedTotal: true });
export type CheckoutFormInput = z.input<typeof checkoutFormSchema>;
export type CheckoutFormValues = z.output<typeof checkoutFormSchema>;

export const checkoutResultSchema = z.object({
  order: orderSchema,
  /** The prices changed since the page showed them: the order is at today's prices. */
  priceChanged: z.boolean(),
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;


// ---------------------------------------------------------------- admin: orders, users, summary, audit

export const adminOrderSchema = orderSchema.extend({
  customer: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

export const adminOrderListQuerySchema = z.object({
  status: orderStatusSchema.optional(),
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
