/**
 * Remembers resolved sessions for a few seconds so a busy customer (or API client) does
 * not pay better-auth's full session lookup on every request. Bounded in size; entries
 * never outlive their session. The auth plugin clears it on any sign-out or session or
 * role change, so on one instance a signed-out session ends at once; with several
 * instances, the others forget it within the TTL.
 */
export class SessionCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now = () => Date.now(),
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, sessionExpiresAt: number): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: Math.min(this.now() + this.ttlMs, sessionExpiresAt) });
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=([^;]+)/;

/** The credential a request carries: its bearer token, else its session cookie. */
export function credentialOf(headers: { authorization?: string | undefined; cookie?: string | undefined }): string | undefined {
  const auth = headers.authorization;
  if (auth && auth.slice(0, 7).toLowerCase() === "bearer ") return `b:${auth.slice(7).trim()}`;
  const match = headers.cookie ? SESSION_COOKIE.exec(headers.cookie) : null;
  return match?.[1] ? `c:${match[1]}` : undefined;
}
