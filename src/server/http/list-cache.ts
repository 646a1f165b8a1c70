/**
 * Remembers public list pages (the tool catalogue, the reviews) for a moment, so a busy
 * home page does not cost a database query per visitor.
 *
 * Every write in this process that changes a list (an order takes stock, a cancel returns
 * it, an admin edits a tool, a customer adds a review) calls `invalidate()`, so one instance
 * never serves a list older than its own last write. Other instances sharing the database
 * see it within the TTL. Concurrent misses for the same page share one query.
 */
export class ListCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<V> }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
    private readonly now = () => Date.now(),
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs === 0) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;

    const inFlight = this.loading.get(key);
    if (inFlight && inFlight.generation === this.generation) return inFlight.promise;

    const generation = this.generation;
    const promise = load().then((value) => {
      // A write that landed while this page loaded may not be in it: serve it, do not keep it.
      if (generation === this.generation) this.remember(key, value);
      return value;
    });
    this.loading.set(key, { generation, promise });
    try {
      return await promise;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /** Forget every page: the data behind them changed. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: drop the oldest page.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
