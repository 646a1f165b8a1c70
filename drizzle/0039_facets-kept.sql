CREATE TABLE "catalogue_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogue_version_one_row" CHECK ("catalogue_version"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "kept_facets" (
	"key" text PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL,
	"answer" jsonb NOT NULL
);
--> statement-breakpoint
INSERT INTO "catalogue_version" ("id", "n") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Raised once per statement that can change a facet count or label (schema.ts catalogueVersion):
-- a stock change (available_quantity) or a rating never fires it.
CREATE OR REPLACE FUNCTION catalogue_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalogue_version SET n = n + 1 WHERE id = 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tools_catalogue_version AFTER INSERT OR DELETE OR TRUNCATE ON tools FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE TRIGGER tools_catalogue_version_update AFTER UPDATE OF active, category, category_id, brand_id, specs, product_id, price_cents ON tools FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE TRIGGER categories_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON categories FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE TRIGGER brands_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON brands FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
--> statement-breakpoint
CREATE TRIGGER spec_definitions_catalogue_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON spec_definitions FOR EACH STATEMENT EXECUTE FUNCTION catalogue_version_bump();
