-- Issue 49, decision 0021: background work is enqueued in the transaction that needs it, whatever
-- statement wrote the row (a checkout's CTE included): triggers send pg-boss jobs, with the retry
-- policy each queue was created with. Before a queue exists (a store's first start) nothing is sent
-- here; the module enqueues the rows that need a job when the runner starts (jobs.atStart).
-- Every mail row sends its job (queue 'mail-send', {id}; mail/worker.ts).
CREATE FUNCTION mail_outbox_jobs(ids bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, policy)
  SELECT q.name, jsonb_build_object('id', m.id), COALESCE(q.retry_limit, 2), GREATEST(COALESCE(q.retry_delay, 1), 1),
         COALESCE(q.retry_backoff, true), COALESCE(q.expire_seconds, 900) * interval '1 second', q.policy
    FROM unnest(ids) AS m(id) JOIN pgboss.queue q ON q.name = 'mail-send';
END $$;
--> statement-breakpoint
CREATE FUNCTION mail_outbox_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM mail_outbox_jobs(ARRAY(SELECT id FROM new_mail WHERE status = 'pending'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER mail_outbox_enqueue AFTER INSERT ON mail_outbox REFERENCING NEW TABLE AS new_mail
  FOR EACH STATEMENT EXECUTE FUNCTION mail_outbox_enqueue();
--> statement-breakpoint
-- A subscription that falls due (its tool came back: 0022's trigger; or confirmed while the tool can
-- be ordered) sends the job that mails the due alerts (queue 'stock-alerts-due', stock-alerts/routes.ts).
-- Its policy is 'short': one job waits at a time (a row due while one waits adds none; one due while
-- it runs makes the next).
CREATE FUNCTION stock_alerts_enqueue() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pgboss.job (name, data, singleton_key, retry_limit, retry_delay, retry_backoff, expire_in, policy)
  SELECT q.name, '{}'::jsonb, 'due', COALESCE(q.retry_limit, 2), GREATEST(COALESCE(q.retry_delay, 1), 1),
         COALESCE(q.retry_backoff, true), COALESCE(q.expire_seconds, 900) * interval '1 second', q.policy
    FROM pgboss.queue q WHERE q.name = 'stock-alerts-due'
  ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
CREATE FUNCTION stock_alerts_due_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM stock_alerts_enqueue();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_alerts_due_job AFTER INSERT OR UPDATE OF status ON stock_alerts
  FOR EACH ROW WHEN (NEW.status = 'due') EXECUTE FUNCTION stock_alerts_due_job();
--> statement-breakpoint
-- A refund owed (payments/refunds.ts: a cancel's, a late or second payment's, the owner's refund of
-- lines) sends its job (queue 'refund-send', {id}) in the transaction that writes it.
CREATE FUNCTION refund_jobs(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO pgboss.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, policy)
  SELECT q.name, jsonb_build_object('id', r.id), COALESCE(q.retry_limit, 2), GREATEST(COALESCE(q.retry_delay, 1), 1),
         COALESCE(q.retry_backoff, true), COALESCE(q.expire_seconds, 900) * interval '1 second', q.policy
    FROM unnest(ids) AS r(id) JOIN pgboss.queue q ON q.name = 'refund-send';
END $$;
--> statement-breakpoint
CREATE FUNCTION refunds_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refund_jobs(ARRAY(SELECT id FROM new_refunds WHERE status = 'pending'));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER refunds_enqueue AFTER INSERT ON refunds REFERENCING NEW TABLE AS new_refunds
  FOR EACH STATEMENT EXECUTE FUNCTION refunds_enqueue();
