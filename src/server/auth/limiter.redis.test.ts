import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisLimiter } from "./limiter";

// Shared limits for several instances; runs when a Redis is reachable (REDIS_URL or the local one).
const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `toolyard:test:${process.pid}:${Date.now()}:`;
let redis: Redis | undefined;
let reachable = false;

beforeAll(async () => {
  redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  reachable = await redis.connect().then(
    () => true,
    () => false,
  );
});

afterAll(async () => {
  if (reachable && redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  } else {
    redis?.disconnect();
  }
});

describe("redisLimiter", () => {
  it("counts hits across instances in one window", async (ctx) => {
    if (!reachable || !redis) return ctx.skip();
    const a = redisLimiter(redis, prefix, 3, 60_000);
    const b = redisLimiter(redis, prefix, 3, 60_000);
    expect(await a.hit("k")).toBe(true);
    expect(await b.hit("k")).toBe(true);
    expect(await a.hit("k")).toBe(true);
    expect(await b.hit("k")).toBe(false);
    expect(await redis.pttl(`${prefix}k`)).toBeGreaterThan(0);
  });

  it("refunds only a live window and never creates a key", async (ctx) => {
    if (!reachable || !redis) return ctx.skip();
    const limiter = redisLimiter(redis, prefix, 1, 60_000);
    await limiter.refund("absent");
    expect(await redis.exists(`${prefix}absent`)).toBe(0);
    expect(await limiter.hit("r")).toBe(true);
    await limiter.refund("r");
    await limiter.refund("r");
    expect(await redis.get(`${prefix}r`)).toBe("0");
    expect(await limiter.exhausted("r")).toBe(false);
    expect(await limiter.hit("r")).toBe(true);
    expect(await limiter.exhausted("r")).toBe(true);
    expect(await limiter.hit("r")).toBe(false);
    expect(await redis.pttl(`${prefix}r`)).toBeGreaterThan(0);
  });
});
