DROP INDEX "reviews_visible_created_idx";--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "tool_id" text;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reviews" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "rating_sum" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "rating_tenths" smallint GENERATED ALWAYS AS ((case when rating_count = 0 then 0 else round(rating_sum * 10.0 / rating_count) end)::smallint) STORED;--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "rating_rank" bigint GENERATED ALWAYS AS ((case when rating_count = 0 then 0 else (rating_sum * 100000000::bigint / rating_count) * 10000 + least(rating_count, 9999) end)) STORED;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_tool_visible_created_idx" ON "reviews" USING btree ("tool_id","created_at","id") WHERE not "reviews"."hidden" and "reviews"."tool_id" is not null;--> statement-breakpoint
CREATE INDEX "reviews_tool_visible_rating_idx" ON "reviews" USING btree ("tool_id","rating","created_at","id") WHERE not "reviews"."hidden" and "reviews"."tool_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_tool_user_idx" ON "reviews" USING btree ("tool_id","user_id") WHERE "reviews"."tool_id" is not null and "reviews"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "tools_active_rating_idx" ON "tools" USING btree ("rating_rank","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "tools_active_category_rating_idx" ON "tools" USING btree ("category","rating_rank","id") WHERE "tools"."active";--> statement-breakpoint
CREATE INDEX "reviews_visible_created_idx" ON "reviews" USING btree ("created_at","id") WHERE not "reviews"."hidden" and "reviews"."tool_id" is null;