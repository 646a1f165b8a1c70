/**
 * One job runner for the store's background work (decision 0021): pg-boss 10 on both drivers.
 *
 * - A job is a row of pg-boss's queue, sent in the transaction that needs it (`enqueue(tx, …)`),
 *   so a crash after the commit loses nothing and a rollback sends nothing.
 * - pg-boss claims jobs with SKIP LOCKED: a job runs once across instances; a failure is retried
 *   with exponential backoff up to the queue's limit.
 * - A periodic sweep (`every`) is a job sent throttled from each instance's timer: whatever the
 *   number of instances, one job per period is made, and one instance runs it.
 * - A job that used its last attempt is written to `job_failures` with its error, where the
 *   console lists it and can send it again (`failures`, `retry`).
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { and, desc, eq, isNull, sql, type SQL } from "drizzle-orm";
import PgBoss from "pg-boss";
import type { Db, ExecuteSql, Tx } from "../db/client";
import { jobFailures } from "../db/schema";

/** What a queue does with a job's data, and how often it tries. */
export interface QueueDefinition<T extends object> {
  handle: (data: T) => Promise<unknown>;
  /** Attempts after the first (default 5); retries wait retryDelaySeconds × 2^n. */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

export type JobFailure = typeof jobFailures.$inferSelect;

/** A Drizzle transaction (or the database) as pg-boss's `db`: its `$n` text becomes one SQL chunk list. */
export function sqlOf(db: Db | Tx): PgBoss.Db {
  return {
    executeSql: async (text: string, values: unknown[] = []) => {
      const parts = text.split(/\$(\d+)/);
      // pg-boss leaves some values undefined (defaults it has not set); node-postgres sends those as null.
      const chunks: SQL[] = parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`));
      const result = (await db.execute(sql.join(chunks, sql.raw("")))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

export interface JobRunnerOptions {
  /** How often a worker asks for due jobs (pg-boss's least is 0.5 s). */
  pollSeconds?: number;
}

export class JobRunner {
  private readonly boss: PgBoss;
  private readonly queues = new Map<string, QueueDefinition<object>>();
  private readonly periodic: { queue: string; ms: number }[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private started = false;

  constructor(
    private readonly db: Db,
    executeSql: ExecuteSql,
    private readonly log: FastifyBaseLogger,
    private readonly options: JobRunnerOptions = {},
  ) {
    // Its own maintenance (expiring and deleting old jobs) runs; cron schedules are not used.
    this.boss = new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => executeSql(text, values) }, schedule: false, migrate: true });
    this.boss.on("error", (error: Error) => this.log.warn({ err: error }, "the job runner's own maintenance failed; it runs again shortly"));
  }

  /** A queue and its handler; call before `start`. */
  define<T extends object>(queue: string, definition: QueueDefinition<T>): void {
    if (this.started) throw new Error(`queue ${queue} defined after the runner started`);
    this.queues.set(queue, definition as QueueDefinition<object>);
  }

  /** A sweep: every `ms`, one job of `queue` (with `{}` as its data) across every instance. */
  every(queue: string, ms: number): void {
    this.periodic.push({ queue, ms });
  }

  /**
   * Sends a job in `tx`'s transaction: it exists only if that transaction commits. A queue another
   * instance defined takes the retry policy it was created with.
   */
  async enqueue<T extends object>(tx: Db | Tx, queue: string, data: T): Promise<void> {
    const definition = this.queues.get(queue);
    await this.boss.send(queue, data, { db: sqlOf(tx), ...(definition ? this.retryOf(definition) : {}) });
  }

  async start(): Promise<void> {
    this.started = true;
    await this.boss.start();
    for (const [queue, definition] of this.queues) {
      await this.createQueue(queue, definition);
      await this.boss.work<object>(queue, { includeMetadata: true, pollingIntervalSeconds: this.options.pollSeconds ?? 1 }, async (jobs) => {
        for (const job of jobs) await this.run(queue, definition, job);
      });
    }
    for (const { queue, ms } of this.periodic) {
      const tick = () => {
        // One job per period however many instances tick: pg-boss keys it by the time slot.
        this.boss.sendThrottled(queue, {}, {}, Math.max(1, Math.floor(ms / 1000))).catch((error: unknown) => this.log.warn({ err: error, queue }, "a sweep could not be queued; the next tick tries again"));
      };
      const timer = setInterval(tick, ms);
      timer.unref();
      this.timers.push(timer);
    }
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.length = 0;
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }

  /** Runs the sweep now, wherever this instance is (tests; the console's "run now"). */
  async runNow(queue: string): Promise<unknown> {
    const definition = this.queues.get(queue);
    if (!definition) throw new Error(`no queue ${queue}`);
    return definition.handle({});
  }

  /** The queues pg-boss holds (every instance's, this one's included). */
  async queueNames(): Promise<string[]> {
    return (await this.boss.getQueues()).map((q) => q.name);
  }

  /** Jobs that used their last attempt and were not sent again, newest first. */
  async failures(limit = 100): Promise<JobFailure[]> {
    return this.db.select().from(jobFailures).where(isNull(jobFailures.retriedAt)).orderBy(desc(jobFailures.failedAt), desc(jobFailures.id)).limit(limit);
  }

  /**
   * Sends a failed job again with its data (a new job), in one transaction with `also` (the
   * console's audit entry); false when there is no such failure still open.
   */
  async retry(id: string, also?: (tx: Tx, failure: JobFailure) => Promise<void>): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(jobFailures)
        .set({ retriedAt: new Date() })
        .where(and(eq(jobFailures.id, id), isNull(jobFailures.retriedAt)))
        .returning();
      if (!row) return false;
      await this.enqueue(tx, row.queue, row.data);
      await also?.(tx, row);
      return true;
    });
  }

  /**
   * Instances starting together create the same queues: pg-boss's createQueue can then deadlock
   * on Postgres (each makes the queue's partition), so a queue that exists is left alone and a
   * deadlock is tried again.
   */
  private async createQueue(queue: string, definition: QueueDefinition<object>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      if (await this.boss.getQueue(queue)) return;
      try {
        await this.boss.createQueue(queue, { name: queue, ...this.retryOf(definition) });
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 5 || (code !== "40P01" && code !== "23505")) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  private retryOf(definition: QueueDefinition<object>) {
    return { retryLimit: definition.retryLimit ?? 5, retryDelay: definition.retryDelaySeconds ?? 2, retryBackoff: true };
  }

  private async run(queue: string, definition: QueueDefinition<object>, job: PgBoss.JobWithMetadata<object>): Promise<void> {
    try {
      await definition.handle(job.data);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.log.warn({ err: error, queue, job: job.id, attempt: job.retryCount + 1 }, `job ${queue} failed`);
      if (job.retryCount >= job.retryLimit) {
        await this.db
          .insert(jobFailures)
          .values({ id: randomUUID(), queue, jobId: job.id, data: job.data, error: message, attempts: job.retryCount + 1 })
          .onConflictDoNothing({ target: jobFailures.jobId });
      }
      throw error;
    }
  }
}
