/**
 * A fixed-window counter: in memory for one instance, in Redis when several share limits.
 * Used for sign-in and sign-up, which are limited per client address and per e-mail.
 */
import type { Redis } from "ioredis";

export interface Limiter {
  /** Counts one hit on `key`; true while the key is within `max` hits per window. */
  hit(key: string): Promise<boolean>;
}

export function memoryLimiter(max: number, windowMs: number, now = () => Date.now()): Limiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweep = now() + windowMs;
  return {
    async hit(key) {
      if (max === 0) return true;
      const t = now();
      if (t >= nextSweep) {
        // Forget expired windows so the map cannot grow without bound.
        for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
        nextSweep = t + windowMs;
      }
      const current = windows.get(key);
      if (!current || current.resetAt <= t) {
        windows.set(key, { count: 1, resetAt: t + windowMs });
        return true;
      }
      current.count += 1;
      return current.count <= max;
    },
  };
}

export function redisLimiter(redis: Redis, prefix: string, max: number, windowMs: number): Limiter {
  return {
    async hit(key) {
      if (max === 0) return true;
      const fullKey = `${prefix}${key}`;
      const result = await redis.multi().incr(fullKey).pexpire(fullKey, windowMs, "NX").exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      return count <= max;
    },
  };
}
