CREATE TABLE "brands" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brands_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"parent_id" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"default_tool_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "spec_definitions" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"unit" text,
	"kind" text NOT NULL,
	"filterable" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spec_definitions_kind" CHECK ("spec_definitions"."kind" in ('text', 'number', 'boolean'))
);
--> statement-breakpoint
-- The spec's four categories become the roots of the tree (decision 0023): their ids are their slugs.
INSERT INTO "categories" ("id", "slug", "name", "parent_id", "position") VALUES
	('hand-tools', 'hand-tools', 'Hand Tools', NULL, 0),
	('lawn-mowers', 'lawn-mowers', 'Lawn Mowers', NULL, 1),
	('power-tools', 'power-tools', 'Power Tools', NULL, 2),
	('chainsaws', 'chainsaws', 'Chainsaws', NULL, 3);--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "category_id" text;--> statement-breakpoint
UPDATE "tools" SET "category_id" = "category"::text;--> statement-breakpoint
ALTER TABLE "tools" ALTER COLUMN "category_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "brand_id" text;--> statement-breakpoint
-- Existing tools get a SKU made from their id, so the same database always gets the same SKUs.
ALTER TABLE "tools" ADD COLUMN "sku" text;--> statement-breakpoint
UPDATE "tools" SET "sku" = 'TY-' || upper(substr(md5("id"), 1, 12));--> statement-breakpoint
ALTER TABLE "tools" ALTER COLUMN "sku" SET DEFAULT ('TY-' || upper(substr(md5(random()::text), 1, 12)));--> statement-breakpoint
ALTER TABLE "tools" ALTER COLUMN "sku" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "gtin" text;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "images" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
UPDATE "tools" SET "images" = jsonb_build_array("image");--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "specs" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "product_id" text;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "option_values" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_parent_id_categories_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "categories_parent_idx" ON "categories" USING btree ("parent_id","position");--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_brand_id_brands_id_fk" FOREIGN KEY ("brand_id") REFERENCES "public"."brands"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tools_category_id_idx" ON "tools" USING btree ("category_id","created_at","id");--> statement-breakpoint
CREATE INDEX "tools_brand_idx" ON "tools" USING btree ("brand_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_sku_idx" ON "tools" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "tools_product_idx" ON "tools" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "tools_specs_idx" ON "tools" USING gin ("specs");--> statement-breakpoint
-- A tool's root category (the spec's "category", which promotions and old clients read) follows
-- its place in the tree. The trigger writes only the row being written, never another tool's.
CREATE OR REPLACE FUNCTION tools_category_root() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  root text;
BEGIN
  IF NEW.category_id IS NULL THEN
    NEW.category_id := NEW.category::text;
    RETURN NEW;
  END IF;
  WITH RECURSIVE up AS (
    SELECT id, parent_id, slug FROM categories WHERE id = NEW.category_id
    UNION ALL
    SELECT c.id, c.parent_id, c.slug FROM categories c JOIN up ON c.id = up.parent_id
  )
  SELECT slug INTO root FROM up WHERE parent_id IS NULL LIMIT 1;
  IF root IS NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.category_id IS DISTINCT FROM OLD.category_id THEN
    NEW.category := root::tool_category;
  ELSIF NEW.category::text <> root THEN
    -- The root alone was changed (the spec's PUT /api/tool/:id with another category): the tool moves to that root.
    NEW.category_id := NEW.category::text;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER tools_category_root BEFORE INSERT OR UPDATE OF category, category_id ON tools
  FOR EACH ROW EXECUTE FUNCTION tools_category_root();