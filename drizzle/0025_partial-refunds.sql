ALTER TYPE "public"."stock_reason" ADD VALUE 'return';--> statement-breakpoint
CREATE TABLE "refund_lines" (
	"refund_id" text NOT NULL,
	"position" smallint NOT NULL,
	"tool_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"restocked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "refund_lines_refund_id_position_pk" PRIMARY KEY("refund_id","position"),
	CONSTRAINT "refund_lines_quantity_positive" CHECK ("refund_lines"."quantity" >= 1)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "shipping" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "shipping_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "restock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "request_hash" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "return_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "credit_note_number" text;--> statement-breakpoint
ALTER TABLE "refund_lines" ADD CONSTRAINT "refund_lines_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_order_key_idx" ON "refunds" USING btree ("order_id","idempotency_key");