/**
 * A queue served in batches: jobs that arrive while a batch is being served wait for the next
 * one, and one call of `serve` (one transaction or one statement) answers a whole batch. Under
 * load a round trip, a plan and a commit are then paid once for many requests; a lone request
 * is served at once, as a batch of one.
 *
 * `serve` answers each job of its batch, in order. If it throws, every job of the batch gets
 * the error, unless `aloneWhen` says the error may be one job's fault (a foreign key to an
 * account deleted meanwhile): then each job is served again on its own, so it fails alone.
 */
export type Settled<R> = { ok: R } | { error: unknown };

export interface BatchOptions<J> {
  /** Enough to amortise a round trip and a commit, small enough to keep a transaction short. */
  maxBatch: number;
  /** At most one job of a key in a batch; the others wait for the next batch, in their order. */
  distinctBy?: (job: J) => string;
  aloneWhen?: (error: unknown) => boolean;
}

interface Waiting<J, R> {
  job: J;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class Batches<J, R> {
  private queue: Waiting<J, R>[] = [];
  private draining = false;

  constructor(
    private readonly serve: (jobs: J[]) => Promise<Settled<R>[]>,
    private readonly options: BatchOptions<J>,
  ) {}

  submit(job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  /** Serves the queue, batch after batch, until no job waits. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.next();
        try {
          settle(batch, await this.serve(batch.map((w) => w.job)));
        } catch (error) {
          if (batch.length > 1 && this.options.aloneWhen?.(error)) {
            for (const one of batch) await this.serve([one.job]).then((s) => settle([one], s), one.reject);
          } else {
            for (const w of batch) w.reject(error);
          }
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /** Takes the next batch off the queue: the oldest jobs, one per key when keys are distinct. */
  private next(): Waiting<J, R>[] {
    const { maxBatch, distinctBy } = this.options;
    if (!distinctBy) return this.queue.splice(0, maxBatch);
    const batch: Waiting<J, R>[] = [];
    const rest: Waiting<J, R>[] = [];
    const keys = new Set<string>();
    for (const w of this.queue) {
      const key = distinctBy(w.job);
      if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(w);
      } else {
        rest.push(w);
      }
    }
    this.queue = rest;
    return batch;
  }
}

function settle<J, R>(batch: Waiting<J, R>[], settled: Settled<R>[]): void {
  batch.forEach((w, i) => {
    const result = settled[i];
    if (result === undefined) w.reject(new Error("a batch was served without an answer for each job"));
    else if ("ok" in result) w.resolve(result.ok);
    else w.reject(result.error);
  });
}

/** Postgres's foreign_key_violation, wherever a driver or Drizzle wrapped it (`cause`). */
export function isForeignKeyViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === "object"; depth++) {
    if ((current as { code?: unknown }).code === "23503") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
