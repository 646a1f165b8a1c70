CREATE TYPE "public"."promotion_kind" AS ENUM('percent', 'amount');--> statement-breakpoint
CREATE TABLE "document_counters" (
	"kind" text NOT NULL,
	"year" integer NOT NULL,
	"last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "document_counters_kind_year_pk" PRIMARY KEY("kind","year")
);
--> statement-breakpoint
CREATE TABLE "promotion_redemptions" (
	"order_id" text PRIMARY KEY NOT NULL,
	"promotion_id" text NOT NULL,
	"user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" "promotion_kind" NOT NULL,
	"value" integer NOT NULL,
	"min_subtotal_cents" bigint DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"categories" "tool_category"[] DEFAULT '{}' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"redemptions" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotions_code_unique" UNIQUE("code"),
	CONSTRAINT "promotions_value_positive" CHECK ("promotions"."value" >= 1),
	CONSTRAINT "promotions_redemptions_nonnegative" CHECK ("promotions"."redemptions" >= 0)
);
--> statement-breakpoint
CREATE TABLE "shipping_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"free_over_cents" bigint,
	"active" boolean DEFAULT true NOT NULL,
	"zones" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"legal_name" text NOT NULL,
	"address" text NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"id" text PRIMARY KEY NOT NULL,
	"country" text NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_prefix" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"tax_shipping" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_rates_range" CHECK ("tax_rates"."rate_basis_points" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "shipping_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "total_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "subtotal_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "region" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method" text DEFAULT 'pickup' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipping_method_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promotion_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate_name" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_rate_basis_points" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_exempt_certificate" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credit_note_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_problem" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "city" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "region" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "postal_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "tax_exempt_certificate" text;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "weight_grams" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotion_redemptions" ADD CONSTRAINT "promotion_redemptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "promotion_redemptions_user_idx" ON "promotion_redemptions" USING btree ("promotion_id","user_id") WHERE "promotion_redemptions"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_rates_place_idx" ON "tax_rates" USING btree ("country","region","postal_prefix");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promotion_id_promotions_id_fk" FOREIGN KEY ("promotion_id") REFERENCES "public"."promotions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_invoice_number_unique" UNIQUE("invoice_number");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credit_note_number_unique" UNIQUE("credit_note_number");--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_weight_range" CHECK ("tools"."weight_grams" between 0 and 1000000);--> statement-breakpoint
-- Orders from before issue 31: their lines' totals were their subtotals, with nothing else.
UPDATE "orders" SET "subtotal_cents" = "total_cents";--> statement-breakpoint
UPDATE "order_lines" SET "total_cents" = "line_total_cents";--> statement-breakpoint
-- The demo catalogue's tools get their believable weights (a store's own tools keep the default, 1 kg, until the owner sets them).
UPDATE "tools" SET "weight_grams" = 900 WHERE "image" = '/images/tools/claw-hammer.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 2100 WHERE "image" = '/images/tools/combination-spanner-set.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 450 WHERE "image" = '/images/tools/screwdriver-set.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 650 WHERE "image" = '/images/tools/hand-saw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 11500 WHERE "image" = '/images/tools/push-reel-mower.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 32000 WHERE "image" = '/images/tools/petrol-rotary-mower.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 15500 WHERE "image" = '/images/tools/cordless-mower.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 185000 WHERE "image" = '/images/tools/ride-on-mower.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 1600 WHERE "image" = '/images/tools/cordless-drill.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 2300 WHERE "image" = '/images/tools/angle-grinder.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 4200 WHERE "image" = '/images/tools/circular-saw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 2400 WHERE "image" = '/images/tools/jigsaw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 5600 WHERE "image" = '/images/tools/petrol-chainsaw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 4100 WHERE "image" = '/images/tools/cordless-chainsaw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 3300 WHERE "image" = '/images/tools/top-handle-chainsaw.svg';--> statement-breakpoint
UPDATE "tools" SET "weight_grams" = 4800 WHERE "image" = '/images/tools/pole-saw.svg';--> statement-breakpoint
-- The store's details as the info strip gives them; the owner edits them in the console.
INSERT INTO "store_settings" ("id", "legal_name", "address", "city", "region", "postal_code", "country", "tax_id")
VALUES (1, 'Toolyard Inc.', '12 Forge Lane', 'Brooklyn', 'NY', '11201', 'US', '') ON CONFLICT DO NOTHING;
