CREATE TABLE "credit_note_lines" (
	"credit_note_id" text NOT NULL,
	"position" smallint NOT NULL,
	"tool_id" text NOT NULL,
	"tool_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"line_total_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	CONSTRAINT "credit_note_lines_credit_note_id_position_pk" PRIMARY KEY("credit_note_id","position"),
	CONSTRAINT "credit_note_lines_quantity_positive" CHECK ("credit_note_lines"."quantity" >= 1)
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"order_id" text NOT NULL,
	"refund_id" text,
	"reason" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"subtotal_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"shipping_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	CONSTRAINT "credit_notes_number_unique" UNIQUE("number"),
	CONSTRAINT "credit_notes_refund_id_unique" UNIQUE("refund_id")
);
--> statement-breakpoint
ALTER TABLE "credit_note_lines" ADD CONSTRAINT "credit_note_lines_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_notes_order_idx" ON "credit_notes" USING btree ("order_id","issued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_cancel_idx" ON "credit_notes" USING btree ("order_id") WHERE "credit_notes"."refund_id" is null;--> statement-breakpoint
-- Written by hand (issue 49): every credit note issued before this table carried forward, with the
-- number, date, lines and amounts its PDF showed. An order's cancel: the order's lines and amounts,
-- dated when it was credited (or cancelled, before credited_at was kept).
INSERT INTO "credit_notes" ("id", "number", "order_id", "refund_id", "reason", "issued_at", "subtotal_cents", "discount_cents", "shipping_cents", "tax_cents", "total_cents")
SELECT gen_random_uuid()::text, o."credit_note_number", o."id", NULL, NULL, coalesce(o."credited_at", o."cancelled_at", o."created_at"),
       o."subtotal_cents", o."discount_cents", o."shipping_cents", o."tax_cents", o."total_cents"
  FROM "orders" o
 WHERE o."credit_note_number" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "credit_note_lines" ("credit_note_id", "position", "tool_id", "tool_name", "quantity", "unit_price_cents", "line_total_cents", "discount_cents", "tax_cents", "total_cents")
SELECT cn."id", l."position", l."tool_id", l."tool_name", l."quantity", l."unit_price_cents", l."line_total_cents", l."discount_cents", l."tax_cents", l."total_cents"
  FROM "credit_notes" cn
  JOIN "order_lines" l ON l."order_id" = cn."order_id"
 WHERE cn."refund_id" IS NULL;
--> statement-breakpoint
-- A refund of lines: its lines' shares; with the shipping, the order's shipping as charged and the
-- rest of what the refund gave for it (the shipping's tax) beside the lines' tax; its amount the total;
-- dated when its money was back.
INSERT INTO "credit_notes" ("id", "number", "order_id", "refund_id", "reason", "issued_at", "subtotal_cents", "discount_cents", "shipping_cents", "tax_cents", "total_cents")
SELECT gen_random_uuid()::text, r."credit_note_number", r."order_id", r."id", r."reason", coalesce(r."settled_at", r."created_at"),
       coalesce(rl."subtotal", 0), coalesce(rl."discount", 0), s."shipping", coalesce(rl."tax", 0) + r."shipping_cents" - s."shipping", r."amount_cents"
  FROM "refunds" r
  JOIN "orders" o ON o."id" = r."order_id"
  CROSS JOIN LATERAL (SELECT CASE WHEN r."shipping" THEN least(r."shipping_cents", o."shipping_cents") ELSE 0 END AS "shipping") s
  LEFT JOIN (SELECT "refund_id", sum("subtotal_cents") AS "subtotal", sum("discount_cents") AS "discount", sum("tax_cents") AS "tax"
               FROM "refund_lines" GROUP BY "refund_id") rl ON rl."refund_id" = r."id"
 WHERE r."credit_note_number" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "credit_note_lines" ("credit_note_id", "position", "tool_id", "tool_name", "quantity", "unit_price_cents", "line_total_cents", "discount_cents", "tax_cents", "total_cents")
SELECT cn."id", l."position", l."tool_id", l."tool_name", l."quantity", l."unit_price_cents", l."subtotal_cents", l."discount_cents", l."tax_cents", l."amount_cents"
  FROM "credit_notes" cn
  JOIN "refund_lines" l ON l."refund_id" = cn."refund_id";
