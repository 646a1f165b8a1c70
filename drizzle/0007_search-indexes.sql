-- The catalogue's search indexes, tuned for a shop that reads its catalogue far more often than
-- it writes it (decision 0013, bench/scale.ts).
-- 1. No pending list: with fastupdate (the default) new entries wait in an unsorted list that
--    every search reads from start to end until a vacuum merges it; after 100,000 tools were
--    added it held 9,463 entries and a search spent milliseconds in it. Entries now go straight
--    into the index (a tool's save costs a little more), and what is pending is merged now.
ALTER INDEX "tools_search_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX "tools_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('tools_search_idx'::regclass);--> statement-breakpoint
SELECT gin_clean_pending_list('tools_name_trgm_idx'::regclass);--> statement-breakpoint
-- 2. The typo search (`q <% name`) compares trigrams of every row it reads, some 50 times the
--    work of a plain comparison; at cost 1 the planner read the table from the start (24 ms at
--    100,000 tools) instead of asking the trigram index (13 ms).
ALTER FUNCTION word_similarity_op(text, text) COST 50;
