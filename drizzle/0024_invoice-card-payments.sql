CREATE TABLE "account_card_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"user_id" text,
	"idempotency_key" text NOT NULL,
	"invoice_numbers" jsonb NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"session_id" text,
	"url" text,
	"payment_intent" text,
	"expires_at" timestamp with time zone NOT NULL,
	"account_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_card_payments_session_id_unique" UNIQUE("session_id"),
	CONSTRAINT "account_card_payments_positive" CHECK ("account_card_payments"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "account_card_payments" ADD CONSTRAINT "account_card_payments_account_id_trade_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_card_payments" ADD CONSTRAINT "account_card_payments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_card_payments" ADD CONSTRAINT "account_card_payments_account_payment_id_account_payments_id_fk" FOREIGN KEY ("account_payment_id") REFERENCES "public"."account_payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_card_payments_key" ON "account_card_payments" USING btree ("account_id","idempotency_key");