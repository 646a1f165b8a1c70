ALTER TYPE "public"."order_status" ADD VALUE 'awaiting_approval';--> statement-breakpoint
ALTER TYPE "public"."payment_method" ADD VALUE 'terms';--> statement-breakpoint
CREATE TABLE "account_applications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_exemptions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"country" text NOT NULL,
	"region" text NOT NULL,
	"certificate" text NOT NULL,
	"expires_on" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_members" (
	"user_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"role" text NOT NULL,
	"order_limit_cents" bigint,
	"monthly_limit_cents" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_members_role" CHECK ("account_members"."role" in ('buyer', 'approver', 'admin')),
	CONSTRAINT "account_members_limits" CHECK (coalesce("account_members"."order_limit_cents", 0) >= 0 and coalesce("account_members"."monthly_limit_cents", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "account_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"reference" text NOT NULL,
	"applied" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recorded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_payments_positive" CHECK ("account_payments"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_reminders" (
	"order_id" text NOT NULL,
	"days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_reminders_order_id_days_pk" PRIMARY KEY("order_id","days")
);
--> statement-breakpoint
CREATE TABLE "trade_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tax_id" text DEFAULT '' NOT NULL,
	"terms" text DEFAULT 'none' NOT NULL,
	"credit_limit_cents" bigint DEFAULT 0 NOT NULL,
	"discount_basis_points" integer DEFAULT 0 NOT NULL,
	"po_required" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_accounts_terms" CHECK ("trade_accounts"."terms" in ('none', 'net15', 'net30', 'net60')),
	CONSTRAINT "trade_accounts_credit_nonnegative" CHECK ("trade_accounts"."credit_limit_cents" >= 0),
	CONSTRAINT "trade_accounts_discount_range" CHECK ("trade_accounts"."discount_basis_points" between 0 and 10000)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_exempt_region" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "account_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "po_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "due_date" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "invoice_date" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_applications" ADD CONSTRAINT "account_applications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_exemptions" ADD CONSTRAINT "account_exemptions_account_id_trade_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_members" ADD CONSTRAINT "account_members_account_id_trade_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_payments" ADD CONSTRAINT "account_payments_account_id_trade_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_payments" ADD CONSTRAINT "account_payments_recorded_by_user_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_reminders" ADD CONSTRAINT "invoice_reminders_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_applications_created_idx" ON "account_applications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "account_exemptions_account_idx" ON "account_exemptions" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "account_members_account_idx" ON "account_members" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "account_payments_account_idx" ON "account_payments" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "trade_accounts_name_idx" ON "trade_accounts" USING btree ("name");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_trade_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."trade_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_account_idx" ON "orders" USING btree ("account_id","created_at") WHERE "orders"."account_id" is not null;