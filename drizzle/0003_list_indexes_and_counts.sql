CREATE TABLE "list_counts" (
	"list" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "tools_category_idx";--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","number");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at","number");--> statement-breakpoint
CREATE INDEX "reviews_visible_created_idx" ON "reviews" USING btree ("created_at","id") WHERE not "reviews"."hidden";--> statement-breakpoint
CREATE INDEX "tools_active_created_idx" ON "tools" USING btree ("created_at","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "tools_active_category_created_idx" ON "tools" USING btree ("category","created_at","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "tools_active_price_idx" ON "tools" USING btree ("price_cents","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "tools_active_category_price_idx" ON "tools" USING btree ("category","price_cents","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "tools_created_idx" ON "tools" USING btree ("created_at","id");--> statement-breakpoint
-- Written by hand (docs/decisions/0013): search and the kept list counts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- The words of a tool, name first. Kept by a trigger on name and description only (not a
-- generated column: Postgres recomputes those at every update, and every order updates stock).
ALTER TABLE "tools" ADD COLUMN "search_vector" tsvector;--> statement-breakpoint
CREATE FUNCTION tools_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := setweight(to_tsvector('english', NEW.name), 'A') || setweight(to_tsvector('english', NEW.description), 'B');
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER tools_search_vector BEFORE INSERT OR UPDATE OF name, description ON "tools"
  FOR EACH ROW EXECUTE FUNCTION tools_search_vector();--> statement-breakpoint
UPDATE "tools" SET "search_vector" = setweight(to_tsvector('english', "name"), 'A') || setweight(to_tsvector('english', "description"), 'B');--> statement-breakpoint
CREATE INDEX "tools_search_idx" ON "tools" USING gin ("search_vector") WHERE "active";--> statement-breakpoint
-- Names alike ('chainsw' finds chainsaws) when the words find nothing.
CREATE INDEX "tools_name_trgm_idx" ON "tools" USING gin ("name" gin_trgm_ops) WHERE "active";--> statement-breakpoint
CREATE FUNCTION list_counts_add(key text, delta bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO list_counts (list, n) VALUES (key, delta) ON CONFLICT (list) DO UPDATE SET n = list_counts.n + EXCLUDED.n;
$$;--> statement-breakpoint
CREATE FUNCTION list_counts_tools() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.active THEN
    PERFORM list_counts_add('tools', -1);
    PERFORM list_counts_add('tools:' || OLD.category::text, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.active THEN
    PERFORM list_counts_add('tools', 1);
    PERFORM list_counts_add('tools:' || NEW.category::text, 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tools_list_counts AFTER INSERT OR DELETE ON "tools"
  FOR EACH ROW EXECUTE FUNCTION list_counts_tools();--> statement-breakpoint
-- Stock changes (every order) do not touch the counts: only a change of `active` or `category` does.
CREATE TRIGGER tools_list_counts_update AFTER UPDATE OF active, category ON "tools"
  FOR EACH ROW WHEN (OLD.active IS DISTINCT FROM NEW.active OR OLD.category IS DISTINCT FROM NEW.category)
  EXECUTE FUNCTION list_counts_tools();--> statement-breakpoint
CREATE FUNCTION list_counts_reviews() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.hidden THEN
    PERFORM list_counts_add('reviews', -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.hidden THEN
    PERFORM list_counts_add('reviews', 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reviews_list_counts AFTER INSERT OR DELETE ON "reviews"
  FOR EACH ROW EXECUTE FUNCTION list_counts_reviews();--> statement-breakpoint
CREATE TRIGGER reviews_list_counts_update AFTER UPDATE OF hidden ON "reviews"
  FOR EACH ROW WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden)
  EXECUTE FUNCTION list_counts_reviews();--> statement-breakpoint
-- The counts of what is there already.
INSERT INTO list_counts (list, n) SELECT 'tools', count(*) FROM "tools" WHERE "active";--> statement-breakpoint
INSERT INTO list_counts (list, n) SELECT 'tools:' || c::text, (SELECT count(*) FROM "tools" WHERE "active" AND "category" = c) FROM unnest(enum_range(NULL::tool_category)) AS c;--> statement-breakpoint
INSERT INTO list_counts (list, n) SELECT 'reviews', count(*) FROM "reviews" WHERE NOT "hidden";
