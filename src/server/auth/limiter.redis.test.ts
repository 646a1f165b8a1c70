import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTestRedis, type TestRedis } from "../test-support";
import { redisLimiter, redisSlowLane } from "./limiter";

// Shared limits for several instances; runs when a Redis is reachable (REDIS_URL or the local one),
// and fails without one under CI=true (connectTestRedis throws).
let testRedis: TestRedis | undefined;
let redis: Redis | undefined;
let prefix = "";
let reachable = false;

beforeAll(async () => {
  testRedis = await connectTestRedis();
  redis = testRedis.redis;
  prefix = testRedis.prefix;
  reachable = redis !== undefined;
});

afterAll(async () => {
  await testRedis?.close();
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

describe("redisSlowLane", () => {
  it("hands out one sequence of slots to every instance, a gap apart, and forgets the key once they are past", async (ctx) => {
    if (!reachable || !redis) return ctx.skip();
    const a = redisSlowLane(redis, `${prefix}slow:`, 1000);
    const b = redisSlowLane(redis, `${prefix}slow:`, 1000);
    const waits = [await a.take("acct"), await b.take("acct"), await a.take("acct"), await b.take("acct")];
    // Slots 0, 1, 2 and 3 s ahead (less the few ms the round trips took).
    waits.forEach((wait, i) => {
      expect(wait).toBeLessThanOrEqual(i * 1000);
      expect(wait).toBeGreaterThan(i * 1000 - 250);
    });
    expect(await a.take("other")).toBe(0);
    // The key expires a second after its last slot is free.
    const ttl = await redis.pttl(`${prefix}slow:acct`);
    expect(ttl).toBeGreaterThan(4000);
    expect(ttl).toBeLessThanOrEqual(5000);
  });
});
