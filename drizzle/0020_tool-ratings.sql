-- A tool's rating (issue 42): its visible reviews' count and sum, changed by one atomic update of
-- the tool's row per review written, hidden, restored or deleted, so racing reviews never lose one.
CREATE FUNCTION tool_rating_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.tool_id IS NOT NULL AND NOT OLD.hidden THEN
    UPDATE tools SET rating_count = rating_count - 1, rating_sum = rating_sum - OLD.rating WHERE id = OLD.tool_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.tool_id IS NOT NULL AND NOT NEW.hidden THEN
    UPDATE tools SET rating_count = rating_count + 1, rating_sum = rating_sum + NEW.rating WHERE id = NEW.tool_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER reviews_tool_rating_insert AFTER INSERT ON "reviews"
  FOR EACH ROW WHEN (NEW.tool_id IS NOT NULL) EXECUTE FUNCTION tool_rating_apply();--> statement-breakpoint
CREATE TRIGGER reviews_tool_rating_delete AFTER DELETE ON "reviews"
  FOR EACH ROW WHEN (OLD.tool_id IS NOT NULL) EXECUTE FUNCTION tool_rating_apply();--> statement-breakpoint
CREATE TRIGGER reviews_tool_rating_update AFTER UPDATE OF hidden, rating, tool_id ON "reviews"
  FOR EACH ROW WHEN (OLD.hidden IS DISTINCT FROM NEW.hidden OR OLD.rating IS DISTINCT FROM NEW.rating OR OLD.tool_id IS DISTINCT FROM NEW.tool_id)
  EXECUTE FUNCTION tool_rating_apply();--> statement-breakpoint
-- The spec's store-wide list counts its own reviews only (a tool's reviews are counted on the tool).
CREATE OR REPLACE FUNCTION list_counts_reviews_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM list_counts_add('reviews', (SELECT count(*) FROM new_rows WHERE NOT hidden AND tool_id IS NULL));
  ELSE
    PERFORM list_counts_add('reviews', -(SELECT count(*) FROM old_rows WHERE NOT hidden AND tool_id IS NULL));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION list_counts_reviews_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.tool_id IS NULL THEN
    PERFORM list_counts_add('reviews', CASE WHEN NEW.hidden THEN -1 ELSE 1 END);
  END IF;
  RETURN NULL;
END $$;
