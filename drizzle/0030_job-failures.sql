CREATE TABLE "job_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"job_id" text NOT NULL,
	"data" jsonb NOT NULL,
	"error" text NOT NULL,
	"attempts" integer NOT NULL,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retried_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "job_failures_job_idx" ON "job_failures" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "job_failures_open_idx" ON "job_failures" USING btree ("failed_at") WHERE "job_failures"."retried_at" is null;