import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectTestRedis, type TestRedis } from "../test-support";
import { redisLimiter } from "./limiter";

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
