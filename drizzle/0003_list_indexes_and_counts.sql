CREATE TABLE "list_counts" (
	"list" text PRIMARY KEY NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "tools_category_idx";--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at","number");--> statement-breakpoint
CREATE INDEX "orders_status_created_idx" ON "orders" USING btree ("status","created_at","number");--> statement-breakpoint
CREATE INDEX "orders_delivered_user_idx" ON "orders" USING btree ("user_id") WHERE "orders"."status" = 'delivered';--> statement-breakpoint
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
-- Inserts and deletes are counted once per statement (a bulk load is one upsert per list);
-- updates per row, and only when `active` or the category changes: stock changes (every
-- order) never touch the counts.
CREATE FUNCTION list_counts_tools_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM list_counts_add(c.list, c.n) FROM (
      SELECT 'tools' AS list, count(*) AS n FROM new_rows WHERE active
      UNION ALL SELECT 'tools:' || category::text, count(*) FROM new_rows WHERE active GROUP BY category
    ) AS c WHERE c.n > 0;
  ELSE
    PERFORM list_counts_add(c.list, -c.n) FROM (
      SELECT 'tools' AS list, count(*) AS n FROM old_rows WHERE active
      UNION ALL SELECT 'tools:' || category::text, count(*) FROM old_rows WHERE active GROUP BY category
    ) AS c WHERE c.n > 0;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tools_list_counts_insert AFTER INSERT ON "tools" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_tools_statement();--> statement-breakpoint
CREATE TRIGGER tools_list_counts_delete AFTER DELETE ON "tools" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_tools_statement();--> statement-breakpoint
CREATE FUNCTION list_counts_tools_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.active THEN
    PERFORM list_counts_add('tools', -1);
    PERFORM list_counts_add('tools:' || OLD.category::text, -1);
  END IF;
  IF NEW.active THEN
    PERFORM list_counts_add('tools', 1);
    PERFORM list_counts_add('tools:' || NEW.category::text, 1);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tools_list_counts_update AFTER UPDATE OF active, category ON "tools"
  FOR EACH ROW WHEN (OLD.active IS DISTINCT FROM NEW.active OR OLD.category IS DISTINCT FROM NEW.category)
  EXECUTE FUNCTION list_counts_tools_update();--> statement-breakpoint
CREATE FUNCTION list_counts_reviews_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM list_counts_add('reviews', (SELECT count(*) FROM new_rows WHERE NOT hidden));
  ELSE
    PERFORM list_counts_add('reviews', -(SELECT count(*) FROM old_rows WHERE NOT hidden));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reviews_list_counts_insert AFTER INSERT ON "reviews" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_reviews_statement();--> statement-breakpoint
CREATE TRIGGER reviews_list_counts_delete AFTER DELETE ON "reviews" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION list_counts_reviews_statement();--> statement-breakpoint
CREATE FUNCTION list_counts_reviews_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM list_counts_add('reviews', CASE WHEN NEW.hidden THEN -1 ELSE 1 END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reviews_list_counts_update AFTER UPDATE OF hidden ON "reviews"
  FOR EACH ROW WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden)
  EXECUTE FUNCTION list_counts_reviews_update();--> statement-breakpoint
-- The counts of what is there already.
INSERT INTO list_counts (list, n) SELECT 'tools', count(*) FROM "tools" WHERE "active";--> statement-breakpoint
INSERT INTO list_counts (list, n) SELECT 'tools:' || c::text, (SELECT count(*) FROM "tools" WHERE "active" AND "category" = c) FROM unnest(enum_range(NULL::tool_category)) AS c;--> statement-breakpoint
INSERT INTO list_counts (list, n) SELECT 'reviews', count(*) FROM "reviews" WHERE NOT "hidden";
