import { LRUCache } from "lru-cache";

/**
 * The one in-process cache, on lru-cache: entries live for a TTL (never past their own expiry),
 * at most `maxEntries` are kept (the least recently used goes first), `clear()` forgets
 * everything. Used for public lists and rendered pages (`get` loads through lru-cache's `fetch`,
 * so concurrent misses share one load) and for resolved sessions (`peek` and `set`).
 *
 * What this adds to lru-cache: a TTL of 0 turns the cache off (lru-cache would read it as
 * "forever"), a value may be null (lru-cache keeps neither null nor undefined), each `get` brings
 * its own load, and `set` takes the moment the value stops being true (a session's end).
 *
 * A load that was running when `clear()` was called may hold data from before the change
 * that cleared it: its result is served to the callers that asked before, but not kept.
 */
export class TtlCache<V> {
  /** Values are boxed: "no tool by that id" (null) is worth keeping too. */
  private readonly lru: LRUCache<string, { value: V }, () => Promise<V>> | null;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 500,
    private readonly now = () => Date.now(),
  ) {
    this.lru =
      ttlMs === 0
        ? null
        : new LRUCache({
            max: maxEntries,
            ttl: ttlMs,
            fetchMethod: async (_key, _stale, { context: load }) => ({ value: await load() }),
            // clear() aborts the loads in flight. Their callers still get the result; it is not
            // kept, because the entry it was loading for is gone.
            ignoreFetchAbort: true,
            // The same clock as `set`'s expiry, read each time: no timer to reuse a reading, and a
            // test's clock is seen as soon as it moves.
            perf: { now },
            ttlResolution: 0,
          });
  }

  /** The live entry for `key`, if any. */
  peek(key: string): V | undefined {
    return this.lru?.get(key)?.value;
  }

  /** Keeps `value` for the TTL, or until `expiresAt` if that comes first. */
  set(key: string, value: V, expiresAt = Infinity): void {
    if (!this.lru) return;
    const ttl = Math.min(this.ttlMs, expiresAt - this.now());
    // lru-cache reads a TTL of 0 as "forever": a value already past its end is not kept at all.
    if (ttl <= 0) return;
    this.lru.set(key, { value }, { ttl });
  }

  /**
   * The entry for `key`, loaded (once, however many ask at the same time) on a miss. A value
   * `keep` refuses is served to everyone who asked for it, and not kept (a page showing that its
   * data failed to load: the next visitor gets another try).
   */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.lru) return load();
    // forceFetch, not fetch: with ignoreFetchAbort every load settles with its value or its error.
    const box = await this.lru.forceFetch(key, { context: load });
    if (!keep(box.value) && this.lru.peek(key) === box) this.lru.delete(key);
    return box.value;
  }

  /** Forgets every entry: the data behind them changed. */
  clear(): void {
    this.lru?.clear();
  }

  /** Entries kept, and loads in flight. */
  get size(): number {
    return this.lru?.size ?? 0;
  }
}
