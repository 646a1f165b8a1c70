CREATE TYPE "public"."quote_revision_status" AS ENUM('sent', 'superseded', 'accepted', 'declined', 'expired', 'withdrawn');--> statement-breakpoint
CREATE TYPE "public"."quote_status" AS ENUM('requested', 'sent', 'accepted', 'declined', 'expired', 'withdrawn');--> statement-breakpoint
ALTER TYPE "public"."stock_reason" ADD VALUE 'quote_hold';--> statement-breakpoint
ALTER TYPE "public"."stock_reason" ADD VALUE 'quote_release';--> statement-breakpoint
CREATE TABLE "quote_lines" (
	"quote_id" text NOT NULL,
	"position" smallint NOT NULL,
	"tool_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "quote_lines_quote_id_position_pk" PRIMARY KEY("quote_id","position"),
	CONSTRAINT "quote_lines_quantity_positive" CHECK ("quote_lines"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "quote_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"quote_id" text NOT NULL,
	"revision" integer NOT NULL,
	"status" "quote_revision_status" DEFAULT 'sent' NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"shipping_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"shipping_method" text NOT NULL,
	"tax_rate_name" text,
	"tax_rate_basis_points" integer,
	"tax_exempt_certificate" text,
	"valid_until" timestamp with time zone NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"hold_stock" boolean DEFAULT false NOT NULL,
	"hold_released_at" timestamp with time zone,
	"sent_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"user_id" text NOT NULL,
	"status" "quote_status" DEFAULT 'requested' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"needed_by" text,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"region" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotes_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quote_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "quote_number" text;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_lines" ADD CONSTRAINT "quote_lines_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_revisions" ADD CONSTRAINT "quote_revisions_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_revisions" ADD CONSTRAINT "quote_revisions_sent_by_user_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "quote_revisions_quote_revision_idx" ON "quote_revisions" USING btree ("quote_id","revision");--> statement-breakpoint
CREATE INDEX "quote_revisions_sent_valid_idx" ON "quote_revisions" USING btree ("valid_until") WHERE "quote_revisions"."status" = 'sent';--> statement-breakpoint
CREATE INDEX "quotes_user_created_idx" ON "quotes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "quotes_status_created_idx" ON "quotes" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE set null ON UPDATE no action;