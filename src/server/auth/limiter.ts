/**
 * A fixed-window counter: in memory for one instance, in Redis when several share limits.
 * Used for sign-in and sign-up, which are limited per client address and per e-mail.
 *
 * An attempt is counted when it arrives (so a burst of parallel guesses cannot slip
 * through before the first one fails) and handed back with `refund` when it succeeds:
 * customers who type their password right never use up the budget, guesses do.
 */
import type { Redis } from "ioredis";

export interface Limiter {
  /** Counts one attempt on `key`; true while the key is within `max` attempts per window. */
  hit(key: string): Promise<boolean>;
  /** Takes back one attempt on `key` (it succeeded, or was never made). */
  refund(key: string): Promise<void>;
  /** True when `key` has used up its window, without counting anything. */
  exhausted(key: string): Promise<boolean>;
  /** Milliseconds until `key`'s window ends (what a 429's Retry-After says). */
  retryAfterMs(key: string): Promise<number>;
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
    async refund(key) {
      const current = windows.get(key);
      if (current && current.resetAt > now() && current.count > 0) current.count -= 1;
    },
    async exhausted(key) {
      if (max === 0) return false;
      const current = windows.get(key);
      return current !== undefined && current.resetAt > now() && current.count >= max;
    },
    async retryAfterMs(key) {
      const current = windows.get(key);
      return current ? Math.max(0, current.resetAt - now()) : 0;
    },
  };
}

/** Decrements only a live window: a refund must never create a key without an expiry. */
const REFUND_SCRIPT = `if redis.call('exists', KEYS[1]) == 1 and tonumber(redis.call('get', KEYS[1])) > 0 then
  return redis.call('decr', KEYS[1])
end
return 0`;

export function redisLimiter(redis: Redis, prefix: string, max: number, windowMs: number): Limiter {
  return {
    async hit(key) {
      if (max === 0) return true;
      const fullKey = `${prefix}${key}`;
      const result = await redis.multi().incr(fullKey).pexpire(fullKey, windowMs, "NX").exec();
      const count = Number(result?.[0]?.[1] ?? 0);
      return count <= max;
    },
    async refund(key) {
      if (max === 0) return;
      await redis.eval(REFUND_SCRIPT, 1, `${prefix}${key}`);
    },
    async exhausted(key) {
      if (max === 0) return false;
      return Number((await redis.get(`${prefix}${key}`)) ?? 0) >= max;
    },
    async retryAfterMs(key) {
      return Math.max(0, await redis.pttl(`${prefix}${key}`));
    },
  };
}

/**
 * Serves attempts at one key one at a time, `gapMs` apart: each caller is given the next free
 * slot and told how long to wait for it. In memory for one instance; in Redis the slots are
 * shared, so N instances together still serve one attempt per gap at an account under attack.
 */
export interface SlowLane {
  /** Takes the next slot for `key`; resolves with the milliseconds to wait for it (0: go now). */
  take(key: string): Promise<number>;
}

export function memorySlowLane(gapMs: number, now = () => Date.now()): SlowLane {
  /** The time from which the next slot of a key is free. */
  const nextFree = new Map<string, number>();
  return {
    async take(key) {
      const t = now();
      if (nextFree.size > 10_000) for (const [k, free] of nextFree) if (free <= t) nextFree.delete(k);
      const slot = Math.max(t, nextFree.get(key) ?? 0);
      nextFree.set(key, slot + gapMs);
      return slot - t;
    },
  };
}

/**
 * One round trip: the slot is taken by Redis's own clock (instances' clocks may differ), and the
 * key lives only as long as a slot is taken (it expires a second after the last one is free).
 */
const SLOT_SCRIPT = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gap = tonumber(ARGV[1])
local slot = math.max(now, tonumber(redis.call('get', KEYS[1]) or '0'))
redis.call('set', KEYS[1], slot + gap, 'PX', slot + gap - now + 1000)
return slot - now`;

export function redisSlowLane(redis: Redis, prefix: string, gapMs: number): SlowLane {
  return {
    async take(key) {
      return Number(await redis.eval(SLOT_SCRIPT, 1, `${prefix}${key}`, gapMs));
    },
  };
}
