/**
 * The one in-process cache: entries live for a TTL (never past their own expiry), the map is
 * bounded, `clear()` forgets everything. Used for public list pages (`get` loads through it,
 * concurrent misses share one load) and for resolved sessions (`peek` and `set`).
 *
 * A load that was running when `clear()` was called may hold data from before the change
 * that cleared it: its result is served to the callers that asked before, but not kept.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<V> }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
    private readonly now = () => Date.now(),
  ) {}

  /** The live entry for `key`, if any. */
  peek(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps `value` for the TTL, or until `expiresAt` if that comes first. */
  set(key: string, value: V, expiresAt = Infinity): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Math.min(this.now() + this.ttlMs, expiresAt) });
  }

  /** The entry for `key`, loaded (once, however many ask at the same time) on a miss. */
  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.ttlMs === 0) return load();
    const hit = this.peek(key);
    if (hit !== undefined) return hit;

    const inFlight = this.loading.get(key);
    if (inFlight && inFlight.generation === this.generation) return inFlight.promise;

    const generation = this.generation;
    const promise = load().then((value) => {
      if (generation === this.generation) this.set(key, value);
      return value;
    });
    this.loading.set(key, { generation, promise });
    try {
      return await promise;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /** Forgets every entry: the data behind them changed. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
