DROP INDEX "account_card_payments_key";--> statement-breakpoint
ALTER TABLE "quote_revisions" ADD COLUMN "tax_exempt_region" text;--> statement-breakpoint
CREATE UNIQUE INDEX "account_card_payments_key" ON "account_card_payments" USING btree ("account_id","user_id","idempotency_key");