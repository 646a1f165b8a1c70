/**
 * The one Postgres schema, used unchanged on PGlite and on a Postgres server.
 * The first four tables are better-auth's (core + admin plugin), written in the
 * shape its CLI generates so its Drizzle adapter finds every field.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  bigserial,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { TierCents } from "../../contract/price-tiers";
import type { AccountRole, AccountTerms } from "../../contract/trade";
import { CATEGORIES, ORDER_STATUSES_DB, PAYMENT_METHODS, QUOTE_REVISION_STATUSES, QUOTE_STATUSES, STOCK_REASONS } from "./enums";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const newId = () => crypto.randomUUID();

// ------------------------------------------------------------------ accounts (better-auth)

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  role: text("role"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  /** better-auth's twoFactor plugin. */
  twoFactorEnabled: boolean("two_factor_enabled").default(false),
});

/** better-auth's twoFactor plugin: the TOTP secret and the backup codes (both encrypted by it). */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").default(true),
    failedVerificationCount: integer("failed_verification_count").default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factor_user_id_idx").on(t.userId), index("two_factor_secret_idx").on(t.secret)],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    impersonatedBy: text("impersonated_by"),
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

// ------------------------------------------------------------------ store

export const toolCategory = pgEnum("tool_category", CATEGORIES);

/**
 * The category tree (DESIGN "Catalogue", decision 0023): the four roots are the spec's
 * categories, their ids their slugs, and stay the roots; the owner adds, renames, orders and
 * moves the categories under them.
 */
export const categories = pgTable(
  "categories",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    parentId: text("parent_id").references((): AnyPgColumn => categories.id),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("categories_parent_idx").on(t.parentId, t.position)],
);

export const brands = pgTable("brands", {
  id: text("id").primaryKey().$defaultFn(newId),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

/** Specification definitions: a tool's values live in `tools.specs`, keyed by `key`. */
export const specDefinitions = pgTable(
  "spec_definitions",
  {
    key: text("key").primaryKey(),
    name: text("name").notNull(),
    unit: text("unit"),
    kind: text("kind", { enum: ["text", "number", "boolean"] }).notNull(),
    filterable: boolean("filterable").notNull().default(false),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [check("spec_definitions_kind", sql`${t.kind} in ('text', 'number', 'boolean')`)],
);

/** A product groups the tools that differ only by options (DESIGN "Catalogue"). */
export const products = pgTable("products", {
  id: text("id").primaryKey().$defaultFn(newId),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  options: jsonb("options").$type<{ name: string; values: string[] }[]>().notNull().default([]),
  defaultToolId: text("default_tool_id"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const tools = pgTable(
  "tools",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    name: text("name").notNull(),
    /** The root of the tool's category (kept from `category_id` by a trigger on the row itself, migration 0036). */
    category: toolCategory("category").notNull(),
    /** Where in the tree the tool is; null only in an insert, where the trigger makes it the root. */
    categoryId: text("category_id")
      .notNull()
      .$default(() => sql`null`)
      .references(() => categories.id),
    brandId: text("brand_id").references(() => brands.id),
    sku: text("sku")
      .notNull()
      .default(sql`('TY-' || upper(substr(md5(random()::text), 1, 12)))`),
    gtin: text("gtin"),
    /** The photos in order; `image` is always the first. */
    images: jsonb("images").$type<string[]>().notNull().default([]),
    /** Specification values by definition key (a string, number or boolean, as the definition's kind). */
    specs: jsonb("specs").$type<Record<string, string | number | boolean>>().notNull().default({}),
    productId: text("product_id").references(() => products.id, { onDelete: "set null" }),
    optionValues: jsonb("option_values").$type<Record<string, string>>().notNull().default({}),
    image: text("image").notNull(),
    priceCents: integer("price_cents").notNull(),
    availableQuantity: integer("available_quantity").notNull(),
    minimumQuantity: integer("minimum_quantity").notNull().default(1),
    description: text("description").notNull(),
    /** Tools are retired, not deleted, so past orders keep their tool. */
    active: boolean("active").notNull().default(true),
    /** The owner's "low on stock" line for this tool; null means twice its minimum. */
    lowStockThreshold: integer("low_stock_threshold"),
    /** Shipping weight of one, in grams (delivery is priced by an order's weight). */
    weightGrams: integer("weight_grams").notNull().default(1000),
    /**
     * Volume prices (DESIGN "Price tiers"): ascending `minQuantity`, each above the minimum,
     * `priceCents` falling below the list price (contract/price-tiers.ts checks them on every write).
     */
    priceTiers: jsonb("price_tiers").$type<TierCents[]>().notNull().default([]),
    /**
     * The tool's visible reviews: how many and their ratings' sum, kept by a trigger on reviews
     * (migration 0020) with one atomic update per review, so racing reviews never lose one.
     */
    ratingCount: integer("rating_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    /** The average to one decimal, × 10 (43 = 4.3; 0 without reviews), rounded half away from zero by Postgres. */
    ratingTenths: smallint("rating_tenths").generatedAlwaysAs(
      sql`(case when rating_count = 0 then 0 else round(rating_sum * 10.0 / rating_count) end)::smallint`,
    ),
    /** The catalogue's "best rated" key: the exact average first, then how many reviews (one number, so a cursor is one key). */
    ratingRank: bigint("rating_rank", { mode: "number" }).generatedAlwaysAs(
      sql`(case when rating_count = 0 then 0 else (rating_sum * 100000000::bigint / rating_count) * 10000 + least(rating_count, 9999) end)`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("tools_price_nonnegative", sql`${t.priceCents} >= 0`),
    check("tools_stock_nonnegative", sql`${t.availableQuantity} >= 0`),
    check("tools_minimum_positive", sql`${t.minimumQuantity} >= 1`),
    check("tools_weight_range", sql`${t.weightGrams} between 0 and 1000000`),
    // One index per order and filter of the lists (docs/decisions/0013). The shop's lists
    // read active tools only: partial indexes hold just those. Full-text search
    // (`search_vector`, a generated column) and the names' trigram index are written by hand
    // in migration 0003: Drizzle would read the vector with every row.
    index("tools_active_created_idx").on(t.createdAt, t.id).where(sql`${t.active}`),
    index("tools_active_category_created_idx").on(t.category, t.createdAt, t.id).where(sql`${t.active}`),
    index("tools_active_price_idx").on(t.priceCents, t.id).where(sql`${t.active}`),
    index("tools_active_category_price_idx").on(t.category, t.priceCents, t.id).where(sql`${t.active}`),
    // The console's list: archived tools too, newest first.
    index("tools_created_idx").on(t.createdAt, t.id),
    // The catalogue sorted by rating (read backwards: best first).
    index("tools_active_rating_idx").on(t.ratingRank, t.id).where(sql`${t.active}`),
    index("tools_active_category_rating_idx").on(t.category, t.ratingRank, t.id).where(sql`${t.active}`),
    // Catalogue fields: a sub-category's and a brand's tools, the SKU, a product's tools.
    index("tools_category_id_idx").on(t.categoryId, t.createdAt, t.id),
    index("tools_brand_idx").on(t.brandId),
    uniqueIndex("tools_sku_idx").on(t.sku),
    index("tools_product_idx").on(t.productId),
    // Two tools of one product never have the same option values (409 VARIANT_EXISTS).
    uniqueIndex("tools_product_variant_idx").on(t.productId, t.optionValues).where(sql`${t.productId} is not null`),
    index("tools_specs_idx").using("gin", t.specs),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    rating: smallint("rating").notNull(),
    /** The text: the spec's `description`, a tool review's `body`. */
    description: text("description").notNull(),
    /** Moderation: hidden reviews stay in the table but leave the public list. */
    hidden: boolean("hidden").notNull().default(false),
    /**
     * A review of one tool (issue 42), or null for the spec's store-wide reviews (the home page's
     * 'Reviews Here'). One per customer and tool.
     */
    toolId: text("tool_id").references(() => tools.id, { onDelete: "cascade" }),
    /** A tool review's title ("" for none, and for store-wide reviews). */
    title: text("title").notNull().default(""),
    /** Written by a customer with a delivered order of the tool ('Verified purchase'); the demo's reviews are not. */
    verified: boolean("verified").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    index("reviews_created_idx").on(t.createdAt),
    // The public list: visible store-wide reviews, newest first.
    index("reviews_visible_created_idx").on(t.createdAt, t.id).where(sql`not ${t.hidden} and ${t.toolId} is null`),
    // A tool's reviews: newest first, and by rating.
    index("reviews_tool_visible_created_idx").on(t.toolId, t.createdAt, t.id).where(sql`not ${t.hidden} and ${t.toolId} is not null`),
    index("reviews_tool_visible_rating_idx").on(t.toolId, t.rating, t.createdAt, t.id).where(sql`not ${t.hidden} and ${t.toolId} is not null`),
    // One review per customer and tool: racing second reviews find the row (409 ALREADY_REVIEWED).
    uniqueIndex("reviews_tool_user_idx").on(t.toolId, t.userId).where(sql`${t.toolId} is not null and ${t.userId} is not null`),
  ],
);

export const profiles = pgTable("profiles", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  /** The street line (the spec's address input). */
  address: text("address").notNull().default(""),
  city: text("city").notNull().default(""),
  region: text("region").notNull().default(""),
  postalCode: text("postal_code").notNull().default(""),
  /** ISO 3166-1 alpha-2, or "" where the customer has not said (profiles from before issue 31). */
  country: text("country").notNull().default(""),
  phone: text("phone").notNull().default(""),
  /** Set by the owner for a tax-exempt trade customer: they pay no tax, and invoices say why. */
  taxExemptCertificate: text("tax_exempt_certificate"),
  updatedAt: updatedAt(),
});

export const orderStatus = pgEnum("order_status", ORDER_STATUSES_DB);
export const paymentMethod = pgEnum("payment_method", PAYMENT_METHODS);

export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** Human-friendly order number shown to customers. */
    number: serial("number").notNull(),
    /**
     * Null once the customer deleted their account: the order stays for the store's books,
     * without the person (their name, e-mail, address and phone are gone; decision 0012).
     */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "restrict" }),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /**
     * bigint: price × quantity can pass 2^31 cents. Mode "number" reads it as a number on both
     * drivers (node-postgres hands bigint over as text): no call site converts it.
     */
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
    /** DESIGN "Money": total = subtotal − discount + shipping + tax; each is the sum of the lines'. */
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull().default(0),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull().default(0),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull().default(0),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    status: orderStatus("status").notNull().default("pending"),
    /** The street line; orders from before issue 31 keep their whole address here. */
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    region: text("region").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    country: text("country").notNull().default(""),
    phone: text("phone").notNull().default(""),
    /** "pickup" or a delivery method's id, and its name as it was. */
    shippingMethod: text("shipping_method").notNull().default("pickup"),
    shippingMethodName: text("shipping_method_name").notNull().default(""),
    promotionId: text("promotion_id").references(() => promotions.id, { onDelete: "set null" }),
    promoCode: text("promo_code"),
    /** The tax rate applied (name and basis points, as they were), or null for none. */
    taxRateName: text("tax_rate_name"),
    taxRateBasisPoints: integer("tax_rate_basis_points"),
    /** The customer's tax-exempt certificate when the order was placed. */
    taxExemptCertificate: text("tax_exempt_certificate"),
    /** The region of the trade account's certificate that exempted it (DESIGN "Trade accounts"); null for a profile's. */
    taxExemptRegion: text("tax_exempt_region"),
    /** Gapless per year (INV-2026-000001, CN-2026-000001), from document_counters. */
    invoiceNumber: text("invoice_number").unique(),
    creditNoteNumber: text("credit_note_number").unique(),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    /** What the owner must look at about the payment (AMOUNT_MISMATCH, LATE_PAYMENT_REFUNDED, ...). */
    paymentProblem: text("payment_problem"),
    /** A card order's stock is held until then; unpaid by then, the store cancels it (payments/hold.ts). */
    paymentHoldUntil: timestamp("payment_hold_until", { withTimezone: true }),
    paymentMethod: paymentMethod("payment_method").notNull().default("cash_on_delivery"),
    note: text("note").notNull().default(""),
    /** The quote this order accepted (its prices are the quote's), and its number as it was (DESIGN "Quotes"). */
    quoteId: text("quote_id").references((): AnyPgColumn => quotes.id, { onDelete: "set null" }),
    quoteNumber: text("quote_number"),
    /** The trade account the customer ordered for (DESIGN "Trade accounts"), and the buyer's purchase order number. */
    accountId: text("account_id").references((): AnyPgColumn => tradeAccounts.id, { onDelete: "set null" }),
    poNumber: text("po_number"),
    /** A terms order's invoice is due then (YYYY-MM-DD, the store's calendar); null for every other order. */
    dueDate: text("due_date"),
    /** The day its invoice was issued (YYYY-MM-DD, the store's calendar): placed, or approved. Set with `dueDate`. */
    invoiceDate: text("invoice_date"),
    /** What payments recorded against a terms order's invoice have paid of it. */
    paidCents: bigint("paid_cents", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    check("orders_quantity_positive", sql`${t.quantity} >= 1`),
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_tool_idx").on(t.toolId),
    // The console's lists: every order newest first, and by status.
    index("orders_created_idx").on(t.createdAt, t.number),
    index("orders_status_created_idx").on(t.status, t.createdAt, t.number),
    // 'Verified buyer' on every review of the public list asks whether its author has one.
    index("orders_delivered_user_idx").on(t.userId).where(sql`${t.status} = 'delivered'`),
    // The payment hold's sweep: card orders still held.
    index("orders_payment_hold_idx").on(t.paymentHoldUntil).where(sql`${t.paymentHoldUntil} is not null`),
    // A trade account's credit, hold, statement and month's spend read its orders.
    index("orders_account_idx").on(t.accountId, t.createdAt).where(sql`${t.accountId} is not null`),
  ],
);

/**
 * An order's lines, kept as they were when ordered. The order row repeats its first line
 * (tool_id, tool_name, quantity) for the spec's My Orders.
 */
export const orderLines = pgTable(
  "order_lines",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "restrict" }),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** unit price × quantity (the line's subtotal). */
    lineTotalCents: bigint("line_total_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull().default(0),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull().default(0),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull().default(0),
    /** subtotal − discount + shipping + tax. */
    totalCents: bigint("total_cents", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.position] }),
    check("order_lines_quantity_positive", sql`${t.quantity} >= 1`),
    index("order_lines_tool_idx").on(t.toolId),
  ],
);

/** Every status an order has had, with who moved it and when (the first is its placing). */
export const orderEvents = pgTable(
  "order_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    status: orderStatus("status").notNull(),
    /** Who made the move: the customer, an admin (by id), or null for the store itself. */
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorRole: text("actor_role").notNull(),
    /** What else happened with the move, in the customer's words (a refund and its state). */
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [index("order_events_order_idx").on(t.orderId, t.id)],
);

/** A signed-in customer's cart, on the server so it is the same on every device. */
export const cartLines = pgTable(
  "cart_lines",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    addedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.toolId] }), check("cart_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

/** A checkout's Idempotency-Key and the order it made, so a retry returns the same order. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** A hash of the request body: the same key with another body is refused (409). */
    requestHash: text("request_hash").notNull(),
    orderId: text("order_id").references(() => orders.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

export const stockReason = pgEnum("stock_reason", STOCK_REASONS);

/**
 * The stock ledger: every change of a tool's stock is one row, so a tool's stock is always
 * the sum of its movements (the first being its "initial" stock).
 */
export const stockMovements = pgTable(
  "stock_movements",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    reason: stockReason("reason").notNull(),
    /** The admin's words for a restock or a correction. */
    note: text("note").notNull().default(""),
    /** The order that took or returned the stock. */
    orderId: text("order_id").references(() => orders.id, { onDelete: "set null" }),
    /** Who made the change: a customer (orders), an admin, or null for the store itself. */
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("stock_movements_tool_idx").on(t.toolId, t.id)],
);

/** Every admin action: who, what, which record, the record before and after, and when. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    /** Kept as it was, so the entry still says who after the account is gone. */
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entityId: text("entity_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_created_idx").on(t.createdAt)],
);

/**
 * How many rows a list has, kept by triggers (migration 0003) so page 1 never counts the
 * catalogue: `tools` (active), `tools:<category>`, `reviews` (visible).
 */
export const listCounts = pgTable("list_counts", {
  list: text("list").primaryKey(),
  n: bigint("n", { mode: "number" }).notNull(),
});

/**
 * The catalogue's version for its facets (migration 0039): one row, raised by statement triggers
 * on every write that can change a facet count or its labels (tools' active, category, brand,
 * specs, product and price; categories; brands; specification definitions), never by a stock
 * change, so checkouts do not touch it.
 */
export const catalogueVersion = pgTable(
  "catalogue_version",
  {
    id: smallint("id").primaryKey().default(1),
    n: bigint("n", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("catalogue_version_one_row", sql`${t.id} = 1`)],
);

/**
 * Answers kept with the catalogue version they were counted at: served only while that is still
 * the version, so they are exact; any catalogue write makes them stale at once, on every instance.
 * Two kinds, by key: `category:<slug>` the facets of a category page (no search, no other filter;
 * catalog/facets.ts), `list-total:<slug>` that page's list total alone (`{total}`; catalog/
 * kept-totals.ts), which the list reads when the page's facets are not kept; an empty slug is the
 * whole catalogue.
 */
export const keptFacets = pgTable("kept_facets", {
  key: text("key").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull(),
  answer: jsonb("answer").notNull(),
});

// ------------------------------------------------------------------ mail

export const mailStatus = pgEnum("mail_status", ["pending", "sent", "failed"]);

/**
 * Every e-mail, written in the same transaction as what caused it; the mail worker sends it
 * (src/server/mail/worker.ts), retrying with backoff until `sent` or, after its last attempt, `failed`.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    kind: text("kind").notNull(),
    status: mailStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /**
     * Documents rendered when the mail is sent: [{kind: "invoice", orderId}], [{kind: "quote", quoteId, revision}],
     * [{kind: "credit_note", creditNoteId}]; [{kind: "credit_note", refundId}] in mail queued before the credit notes' table (issue 49).
     */
    attachments: jsonb("attachments").$type<
      ({ kind: "invoice"; orderId: string } | { kind: "quote"; quoteId: string; revision: number } | { kind: "credit_note"; creditNoteId: string } | { kind: "credit_note"; refundId: string })[]
    >(),
  },
  (t) => [index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`), index("mail_outbox_created_idx").on(t.createdAt)],
);

// ------------------------------------------------------------------ money (issue 31)

/** Sales tax by country, region and postal-code prefix; the most specific match applies (pricing/price.ts). */
export const taxRates = pgTable(
  "tax_rates",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    country: text("country").notNull(),
    region: text("region").notNull().default(""),
    postalPrefix: text("postal_prefix").notNull().default(""),
    name: text("name").notNull(),
    rateBasisPoints: integer("rate_basis_points").notNull(),
    taxShipping: boolean("tax_shipping").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    check("tax_rates_range", sql`${t.rateBasisPoints} between 0 and 10000`),
    uniqueIndex("tax_rates_place_idx").on(t.country, t.region, t.postalPrefix),
  ],
);

export const promotionKind = pgEnum("promotion_kind", ["percent", "amount"]);

export const promotions = pgTable(
  "promotions",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** Upper-case; customers may type it in any case. */
    code: text("code").notNull().unique(),
    kind: promotionKind("kind").notNull(),
    /** percent: 1–100; amount: cents. */
    value: integer("value").notNull(),
    minSubtotalCents: bigint("min_subtotal_cents", { mode: "number" }).notNull().default(0),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    /** Empty: every category. */
    categories: toolCategory("categories").array().notNull().default(sql`'{}'`),
    active: boolean("active").notNull().default(true),
    /** Orders holding a use now (a cancelled order gives its use back); kept under the row's lock at checkout. */
    redemptions: integer("redemptions").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [check("promotions_value_positive", sql`${t.value} >= 1`), check("promotions_redemptions_nonnegative", sql`${t.redemptions} >= 0`)],
);

/** One row per order that used a code; `releasedAt` set once when the order is cancelled. */
export const promotionRedemptions = pgTable(
  "promotion_redemptions",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    promotionId: text("promotion_id")
      .notNull()
      .references(() => promotions.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (t) => [index("promotion_redemptions_user_idx").on(t.promotionId, t.userId).where(sql`${t.releasedAt} is null`)],
);

/** Delivery methods; zones and weight bands are one document, saved whole (contract/money-schemas.ts). */
export const shippingMethods = pgTable("shipping_methods", {
  id: text("id").primaryKey().$defaultFn(newId),
  name: text("name").notNull(),
  freeOverCents: bigint("free_over_cents", { mode: "number" }),
  active: boolean("active").notNull().default(true),
  zones: jsonb("zones")
    .$type<{ name: string; destinations: { country: string; region: string }[]; bands: { maxGrams: number; priceCents: number }[] }[]>()
    .notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The store's own details (one row, id 1): invoices' letterhead and where pickup is taxed. */
export const storeSettings = pgTable("store_settings", {
  id: integer("id").primaryKey().default(1),
  legalName: text("legal_name").notNull(),
  address: text("address").notNull(),
  city: text("city").notNull().default(""),
  region: text("region").notNull().default(""),
  postalCode: text("postal_code").notNull().default(""),
  country: text("country").notNull(),
  taxId: text("tax_id").notNull().default(""),
  /** The store's IANA time zone: documents are dated and numbered (their year) in it (issue 40). */
  timeZone: text("time_zone").notNull().default("America/New_York"),
  updatedAt: updatedAt(),
});

/** Gapless document numbers: the row is locked by the transaction that takes a number, so a rollback gives it back. */
export const documentCounters = pgTable(
  "document_counters",
  {
    kind: text("kind").notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] })],
);

// ------------------------------------------------------------------ payments (issue 32)

/** A card order's payment at the provider: its session, what was paid, and any refund. */
export const payments = pgTable(
  "payments",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    sessionId: text("session_id").unique(),
    /** Where the customer pays (the provider's hosted page). */
    url: text("url"),
    paymentIntent: text("payment_intent"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    /** open → paid | expired; paid → refunded | refund_failed. */
    status: text("status").notNull().default("open"),
    refundId: text("refund_id"),
    refundError: text("refund_error"),
    /** Refusals so far: each new attempt has its own idempotency key (the provider replays a refused one). */
    refundAttempts: integer("refund_attempts").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
);

/**
 * Money owed back (issue 40, decision 0016): written in the same transaction as the decision (an
 * owner's cancel, a late or duplicate payment, a mismatched one cancelled) and sent by the refund
 * worker (payments/refund-worker.ts) like the mail outbox: claimed with SKIP LOCKED and a lease,
 * retried with backoff. The idempotency key is `refund-<id>` (then `refund-<id>-<keyAttempt>`):
 * an unknown outcome is retried with the same key; a new key only after a definite refusal and
 * after the provider's refunds of the payment were read.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** Why: cancel (the owner's cancel of a paid order), late_payment, duplicate_payment, mismatch. */
    kind: text("kind").notNull(),
    /** The payment method whose provider pays it back. */
    provider: text("provider").notNull(),
    paymentIntent: text("payment_intent"),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** pending (queued, or sent and not confirmed) → succeeded | failed. */
    status: text("status").notNull().default("pending"),
    /** The provider's refund once it answered; its own status while pending there. */
    providerRefundId: text("provider_refund_id"),
    providerStatus: text("provider_status"),
    /** Definite refusals so far: each gives the next attempt a new idempotency key. */
    keyAttempt: integer("key_attempt").notNull().default(0),
    /** Calls made (answered or not). */
    tries: integer("tries").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    /** The owner's words (a cancel's, a refund's). */
    reason: text("reason").notNull().default(""),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /**
     * The owner's refund of lines (kind `refund`, DESIGN "Refunds and returns"): the shipping it
     * gives back (the order's, once, with its tax: issue 49), whether its units went back to stock, its Idempotency-Key
     * and the hash of the request that used it, the return it settles, and its credit note
     * (numbered when the money is given back: at once for cash and bank transfer, when the
     * provider confirms a card's).
     */
    shipping: boolean("shipping").notNull().default(false),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull().default(0),
    restock: boolean("restock").notNull().default(false),
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    returnId: text("return_id"),
    creditNoteNumber: text("credit_note_number"),
  },
  (t) => [
    index("refunds_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("refunds_order_idx").on(t.orderId),
    index("refunds_provider_refund_idx").on(t.providerRefundId),
    uniqueIndex("refunds_order_key_idx").on(t.orderId, t.idempotencyKey),
  ],
);

/**
 * A customer's request to return units of a delivered order (DESIGN "Refunds and returns"):
 * `requested` → `approved` | `refused`; `approved` → `received` (the parcel is back); `received`
 * → `refunded` by the refund that names it (`refundId`; a card refund that fails gives it back
 * `received`). `note`: the owner's last words to the customer.
 */
export const returns = pgTable(
  "returns",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    status: text("status").notNull().default("requested"),
    reason: text("reason").notNull(),
    note: text("note"),
    refundId: text("refund_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("returns_order_idx").on(t.orderId), index("returns_status_idx").on(t.status, t.createdAt)],
);

/** The units a return asks to send back: which order line (its position), how many. */
export const returnLines = pgTable(
  "return_lines",
  {
    returnId: text("return_id")
      .notNull()
      .references(() => returns.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id").notNull(),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.returnId, t.position] }), check("return_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

/**
 * The lines of an owner's refund: which order line (its position), how many units, and the
 * share of the line's subtotal, discount and goods' tax they give back (amount = subtotal −
 * discount + tax), kept as computed so the credit note says what the refund said; `restocked`:
 * the units that go back to stock with it once its money is back (never more than the line's,
 * over all its refunds; 0 once it failed); `unshipped`: how many of its units had not shipped
 * when it was made (a refund of a return's units: none), which the store no longer sends and
 * which go back to stock whatever `restock` says, as they never left (issue 52).
 */
export const refundLines = pgTable(
  "refund_lines",
  {
    refundId: text("refund_id")
      .notNull()
      .references(() => refunds.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id").notNull(),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    restocked: integer("restocked").notNull().default(0),
    unshipped: integer("unshipped").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.refundId, t.position] }), check("refund_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

/**
 * A credit note (DESIGN "Money", issue 49): the one model of every credit note, a document with
 * its own number (the gapless `CN-…` series), its own lines and its own amounts, written once by
 * orders/credit-notes.ts (issueCreditNote) and never changed. `refundId`: the owner's refund of
 * lines it documents (null for an order's cancel, which credits the whole invoice); `reason`: that
 * refund's words, printed on the note. The order gives the rest of the page (letterhead, customer,
 * address, the invoice it credits). `orders.credit_note_number`, `orders.credited_at` and
 * `refunds.credit_note_number` repeat its number and date for the API's `creditNoteNumber`,
 * written only with it.
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    number: text("number").notNull().unique(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    refundId: text("refund_id")
      .unique()
      .references(() => refunds.id, { onDelete: "cascade" }),
    reason: text("reason"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    /** What it gives back: total = subtotal − discount + shipping + tax, each the sum of its lines' but the shipping. */
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull(),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
  },
  (t) => [
    index("credit_notes_order_idx").on(t.orderId, t.issuedAt),
    // An order's cancel credits it once.
    uniqueIndex("credit_notes_cancel_idx").on(t.orderId).where(sql`${t.refundId} is null`),
  ],
);

/** A credit note's lines: which order line (its position), how many units, and what of its subtotal, discount and tax they give back. */
export const creditNoteLines = pgTable(
  "credit_note_lines",
  {
    creditNoteId: text("credit_note_id")
      .notNull()
      .references(() => creditNotes.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id").notNull(),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    /** The units' subtotal (unit price × quantity, or a refund's share of the line's). */
    lineTotalCents: bigint("line_total_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
    /** subtotal − discount + tax (and, for a cancel, the line's share of the shipping). */
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.creditNoteId, t.position] }), check("credit_note_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

/** Every provider event applied, by its id: a duplicate, a replay or another instance's copy finds its row and changes nothing. */
export const paymentEvents = pgTable("payment_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  orderId: text("order_id").references(() => orders.id, { onDelete: "set null" }),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

// ------------------------------------------------------------------ quotes (issue 41)

export const quoteStatus = pgEnum("quote_status", QUOTE_STATUSES);
export const quoteRevisionStatus = pgEnum("quote_revision_status", QUOTE_REVISION_STATUSES);

/**
 * A customer's request for a quote (DESIGN "Quotes"): immutable once sent (its lines, message,
 * needed-by date and address); the owner answers with revisions. `status` is the quote's:
 * requested → sent → accepted | declined | expired | withdrawn.
 */
export const quotes = pgTable(
  "quotes",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    /** Q-YYYY-NNNNNN, gapless per year from document_counters (as invoices are). */
    number: text("number").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    status: quoteStatus("status").notNull().default("requested"),
    message: text("message").notNull().default(""),
    /** A calendar date (YYYY-MM-DD), or null. */
    neededBy: text("needed_by"),
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    region: text("region").notNull().default(""),
    postalCode: text("postal_code").notNull().default(""),
    country: text("country").notNull().default(""),
    /** The order made by accepting it (null again when a card order's hold ran out: DESIGN "Quotes"). */
    orderId: text("order_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("quotes_user_created_idx").on(t.userId, t.createdAt), index("quotes_status_created_idx").on(t.status, t.createdAt)],
);

/** What the customer asked for, as asked. */
export const quoteLines = pgTable(
  "quote_lines",
  {
    quoteId: text("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "restrict" }),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.quoteId, t.position] }), check("quote_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

/** A revision's line, priced (DESIGN "Money"): the order made from it copies these cents. */
export interface QuoteLineCents {
  toolId: string;
  toolName: string;
  quantity: number;
  unitPriceCents: number;
  /** unit price × quantity. */
  lineTotalCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/** The owner's answers, each immutable once sent; the newest sent one is the quote's offer. */
export const quoteRevisions = pgTable(
  "quote_revisions",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    quoteId: text("quote_id")
      .notNull()
      .references(() => quotes.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    status: quoteRevisionStatus("status").notNull().default("sent"),
    lines: jsonb("lines").$type<QuoteLineCents[]>().notNull(),
    subtotalCents: bigint("subtotal_cents", { mode: "number" }).notNull(),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
    totalCents: bigint("total_cents", { mode: "number" }).notNull(),
    /** "pickup" (no address on the quote: taxed at the store) or "quoted" (delivered, at the quoted shipping). */
    shippingMethod: text("shipping_method").notNull(),
    taxRateName: text("tax_rate_name"),
    taxRateBasisPoints: integer("tax_rate_basis_points"),
    taxExemptCertificate: text("tax_exempt_certificate"),
    /** The region of a trade account's certificate (DESIGN "Trade accounts"), as an order records it; null for a profile's or none. */
    taxExemptRegion: text("tax_exempt_region"),
    validUntil: timestamp("valid_until", { withTimezone: true }).notNull(),
    message: text("message").notNull().default(""),
    /** The quoted units are held (taken from the stock) until the revision expires, is declined, withdrawn, superseded or accepted. */
    holdStock: boolean("hold_stock").notNull().default(false),
    /** Set once, when the held units go back to the stock or to the order (never twice). */
    holdReleasedAt: timestamp("hold_released_at", { withTimezone: true }),
    sentBy: text("sent_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("quote_revisions_quote_revision_idx").on(t.quoteId, t.revision),
    // The sweep: sent revisions by their end.
    index("quote_revisions_sent_valid_idx").on(t.validUntil).where(sql`${t.status} = 'sent'`),
  ],
);

// ------------------------------------------------------------------ trade accounts (issue 43)

/**
 * A company account (DESIGN "Trade accounts"): its terms, credit limit and discount. Its row is
 * locked (FOR UPDATE) by every placement of a member's order, so racing orders reserve credit one
 * at a time; on hold and credit used are computed from its orders, never stored.
 */
export const tradeAccounts = pgTable(
  "trade_accounts",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    name: text("name").notNull(),
    taxId: text("tax_id").notNull().default(""),
    terms: text("terms").$type<AccountTerms>().notNull().default("none"),
    creditLimitCents: bigint("credit_limit_cents", { mode: "number" }).notNull().default(0),
    /** discountPercent × 100. */
    discountBasisPoints: integer("discount_basis_points").notNull().default(0),
    poRequired: boolean("po_required").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("trade_accounts_terms", sql`${t.terms} in ('none', 'net15', 'net30', 'net60')`),
    check("trade_accounts_credit_nonnegative", sql`${t.creditLimitCents} >= 0`),
    check("trade_accounts_discount_range", sql`${t.discountBasisPoints} between 0 and 10000`),
    index("trade_accounts_name_idx").on(t.name),
  ],
);

/** A customer's place in a trade account: at most one account per customer (the key). */
export const accountMembers = pgTable(
  "account_members",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "cascade" }),
    role: text("role").$type<AccountRole>().notNull(),
    orderLimitCents: bigint("order_limit_cents", { mode: "number" }),
    monthlyLimitCents: bigint("monthly_limit_cents", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("account_members_role", sql`${t.role} in ('buyer', 'approver', 'admin')`),
    check("account_members_limits", sql`coalesce(${t.orderLimitCents}, 0) >= 0 and coalesce(${t.monthlyLimitCents}, 0) >= 0`),
    index("account_members_account_idx").on(t.accountId),
  ],
);

/** A customer's request for a trade account, which the owner sees in the console. */
export const accountApplications = pgTable(
  "account_applications",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    taxId: text("tax_id").notNull().default(""),
    message: text("message").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [index("account_applications_created_idx").on(t.createdAt)],
);

/** A payment the owner recorded against an account's invoices (or a member's card payment of them). */
export const accountPayments = pgTable(
  "account_payments",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    accountId: text("account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "cascade" }),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    reference: text("reference").notNull(),
    /** [{orderId, invoiceNumber, amountCents}]: what it paid. */
    applied: jsonb("applied").$type<{ orderId: string; invoiceNumber: string; amountCents: number }[]>().notNull().default([]),
    recordedBy: text("recorded_by").references(() => user.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [check("account_payments_positive", sql`${t.amountCents} > 0`), index("account_payments_account_idx").on(t.accountId, t.createdAt)],
);

/**
 * A member paying open invoices by card (issue 43): the invoices chosen and their open balance,
 * the provider's page, and, once the provider's webhook says it was paid, the account payment it
 * became (`account_payments`, applied to those invoices). One per account, member and idempotency key (a key is its member's, as on every keyed route).
 */
export const accountCardPayments = pgTable(
  "account_card_payments",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    accountId: text("account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "cascade" }),
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    idempotencyKey: text("idempotency_key").notNull(),
    invoiceNumbers: jsonb("invoice_numbers").$type<string[]>().notNull(),
    amountCents: bigint("amount_cents", { mode: "number" }).notNull(),
    /** open → paid | expired. */
    status: text("status").notNull().default("open"),
    sessionId: text("session_id").unique(),
    url: text("url"),
    paymentIntent: text("payment_intent"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    accountPaymentId: text("account_payment_id").references(() => accountPayments.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [check("account_card_payments_positive", sql`${t.amountCents} > 0`), uniqueIndex("account_card_payments_key").on(t.accountId, t.userId, t.idempotencyKey)],
);

/** A trade account's tax exemption certificate for one region, until it expires (the day itself included). */
export const accountExemptions = pgTable(
  "account_exemptions",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    accountId: text("account_id")
      .notNull()
      .references(() => tradeAccounts.id, { onDelete: "cascade" }),
    country: text("country").notNull(),
    region: text("region").notNull(),
    certificate: text("certificate").notNull(),
    /** YYYY-MM-DD: exempt through that day (the store's calendar), taxed after. */
    expiresOn: text("expires_on").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("account_exemptions_account_idx").on(t.accountId)],
);

/** Reminders mailed for an unpaid terms invoice: one row per invoice and step (0, 7, 30 days), so each goes out once across instances. */
export const invoiceReminders = pgTable(
  "invoice_reminders",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    days: integer("days").notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.days] })],
);

export const schema = {
  tradeAccounts,
  accountMembers,
  accountApplications,
  accountPayments,
  invoiceReminders,
  accountExemptions,
  quotes,
  quoteLines,
  quoteRevisions,
  quoteStatus,
  quoteRevisionStatus,
  payments,
  paymentEvents,
  refunds,
  taxRates,
  promotionKind,
  promotions,
  promotionRedemptions,
  shippingMethods,
  storeSettings,
  documentCounters,
  listCounts,
  catalogueVersion,
  keptFacets,
  user,
  session,
  account,
  verification,
  twoFactor,
  mailOutbox,
  mailStatus,
  tools,
  reviews,
  profiles,
  orders,
  orderLines,
  orderEvents,
  cartLines,
  idempotencyKeys,
  stockMovements,
  auditLog,
  toolCategory,
  categories,
  brands,
  specDefinitions,
  products,
  stockReason,
  orderStatus,
  paymentMethod,
};

// ------------------------------------------------------------------ back-in-stock alerts (issue 42)

/**
 * A subscription's life (decision 0019): `pending` until its address is confirmed by the link
 * mailed to it (a visitor's); `waiting` once confirmed (or at once for a signed-in customer's own
 * address); `due` when the tool can be ordered again (set by a trigger on tools, migration 0022);
 * `sent` once the alert is in the outbox; `ended` when unsubscribed.
 */
export const stockAlertStatus = pgEnum("stock_alert_status", ["pending", "waiting", "due", "sent", "ended"]);

export const stockAlerts = pgTable(
  "stock_alerts",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    toolId: text("tool_id")
      .notNull()
      .references(() => tools.id, { onDelete: "cascade" }),
    /** Lower case. */
    email: text("email").notNull(),
    /** The signed-in customer who subscribed their own address; null for a visitor's. */
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    status: stockAlertStatus("status").notNull(),
    createdAt: createdAt(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** A pending row's: when the last confirmation link mailed for it expires; the mail worker's round deletes it after. */
    confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    // One open subscription per tool and address: a second request finds it (never a second alert).
    uniqueIndex("stock_alerts_open_idx").on(t.toolId, t.email).where(sql`${t.status} in ('pending', 'waiting', 'due')`),
    // The alerts to mail (the mail worker's round) and the console's counts per tool.
    index("stock_alerts_due_idx").on(t.id).where(sql`${t.status} = 'due'`),
    index("stock_alerts_waiting_idx").on(t.toolId).where(sql`${t.status} = 'waiting'`),
    index("stock_alerts_user_idx").on(t.userId),
    // The unconfirmed ones whose link has expired (the mail worker's round deletes them).
    index("stock_alerts_pending_idx").on(t.confirmExpiresAt).where(sql`${t.status} = 'pending'`),
  ],
);

// ------------------------------------------------------------------ background jobs (issue 49, decision 0021)

/**
 * A job that used its last attempt on the job runner (pg-boss keeps its queues in its own schema):
 * its data and error, listed in the console until it is sent again (`retried_at`).
 */
export const jobFailures = pgTable(
  "job_failures",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    queue: text("queue").notNull(),
    /** pg-boss's id of the job that failed: one row per job, however often its last attempt is reported. */
    jobId: text("job_id").notNull(),
    data: jsonb("data").$type<object>().notNull(),
    error: text("error").notNull(),
    attempts: integer("attempts").notNull(),
    failedAt: timestamp("failed_at", { withTimezone: true }).notNull().defaultNow(),
    retriedAt: timestamp("retried_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("job_failures_job_idx").on(t.jobId), index("job_failures_open_idx").on(t.failedAt).where(sql`${t.retriedAt} is null`)],
);

// ------------------------------------------------------------------ shipments (issue 52)

/**
 * A parcel that left the warehouse (DESIGN "Orders" → Shipments): its number (`SH-2026-000001`,
 * from the document counter), carrier and tracking number, and `shipped` → `delivered` |
 * `cancelled` (only before delivered; a cancelled shipment's units are to ship again). Its
 * Idempotency-Key and the hash of the request that used it answer a repeat with the first.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    status: text("status").notNull().default("shipped"),
    /** UPS, USPS, FedEx, DHL or another carrier the owner names; null for what the old "shipped" move sent. */
    carrier: text("carrier"),
    trackingNumber: text("tracking_number"),
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    shippedAt: timestamp("shipped_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
  },
  (t) => [
    index("shipments_order_idx").on(t.orderId),
    uniqueIndex("shipments_number_idx").on(t.number),
    uniqueIndex("shipments_order_key_idx").on(t.orderId, t.idempotencyKey),
    check("shipments_status_known", sql`${t.status} in ('shipped', 'delivered', 'cancelled')`),
  ],
);

/** The units of a shipment: which order line (its position) and how many. */
export const shipmentLines = pgTable(
  "shipment_lines",
  {
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    position: smallint("position").notNull(),
    toolId: text("tool_id").notNull(),
    toolName: text("tool_name").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [primaryKey({ columns: [t.shipmentId, t.position] }), check("shipment_lines_quantity_positive", sql`${t.quantity} >= 1`)],
);

// ------------------------------------------------------------------ catalogue imports (issue 51)

/** Raw bytes (an uploaded file): Buffer in, Buffer out on both drivers (PGlite answers a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A catalogue import (DESIGN `POST /api/admin/catalogue/imports`): the uploaded file itself, so any
 * instance's job runner can run it, its progress and its outcome. At most one real import (not a
 * dry run) is queued or running at a time (the partial unique index): a second is refused, 409
 * IMPORT_RUNNING.
 */
export const catalogueImports = pgTable(
  "catalogue_imports",
  {
    id: text("id").primaryKey().$defaultFn(newId),
    status: text("status", { enum: ["queued", "running", "done", "failed"] }).notNull().default("queued"),
    dryRun: boolean("dry_run").notNull(),
    fileName: text("file_name").notNull(),
    file: bytea("file"),
    rows: integer("rows").notNull().default(0),
    processed: integer("processed").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    errors: jsonb("errors").$type<{ line: number; column: string; message: string }[]>().notNull().default([]),
    /** Every line of the file with an error of its own (not only the first 100 errors'): its bad rows' download. */
    badLines: jsonb("bad_lines").$type<number[]>().notNull().default([]),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    actorEmail: text("actor_email").notNull().default(""),
    createdAt: createdAt(),
    /** Raised every few seconds by the instance running the import (imports.ts): a running import whose beat stopped died with its instance. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    check("catalogue_imports_status", sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
    uniqueIndex("catalogue_imports_one_running_idx").on(sql`(true)`).where(sql`${t.status} in ('queued', 'running') and not ${t.dryRun}`),
  ],
);
