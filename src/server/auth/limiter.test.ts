import { describe, expect, it } from "vitest";
import { memoryLimiter, memorySlowLane } from "./limiter";

describe("memoryLimiter", () => {
  it("allows max hits per window, then refuses until the window ends", async () => {
    let now = 0;
    const limiter = memoryLimiter(3, 1000, () => now);
    expect(await limiter.hit("a")).toBe(true);
    expect(await limiter.hit("a")).toBe(true);
    expect(await limiter.hit("a")).toBe(true);
    expect(await limiter.hit("a")).toBe(false);
    expect(await limiter.hit("b")).toBe(true);
    now = 1000;
    expect(await limiter.hit("a")).toBe(true);
  });

  it("gives refunded attempts back, never below zero and never into a new window", async () => {
    let now = 0;
    const limiter = memoryLimiter(2, 1000, () => now);
    for (let i = 0; i < 10; i++) {
      expect(await limiter.hit("ok")).toBe(true);
      await limiter.refund("ok");
    }
    await limiter.refund("never-hit");
    await limiter.refund("never-hit");
    expect(await limiter.hit("never-hit")).toBe(true);
    expect(await limiter.hit("never-hit")).toBe(true);
    expect(await limiter.hit("never-hit")).toBe(false);
    // A refund after the window ended does not lend credit to the next one.
    now = 1000;
    await limiter.refund("never-hit");
    expect(await limiter.hit("never-hit")).toBe(true);
    expect(await limiter.hit("never-hit")).toBe(true);
    expect(await limiter.hit("never-hit")).toBe(false);
  });

  it("tells whether a key is exhausted without counting", async () => {
    let now = 0;
    const limiter = memoryLimiter(2, 1000, () => now);
    expect(await limiter.exhausted("k")).toBe(false);
    await limiter.hit("k");
    expect(await limiter.exhausted("k")).toBe(false);
    await limiter.hit("k");
    expect(await limiter.exhausted("k")).toBe(true);
    expect(await limiter.exhausted("k")).toBe(true);
    now = 1000;
    expect(await limiter.exhausted("k")).toBe(false);
  });

  it("is off when max is 0", async () => {
    const limiter = memoryLimiter(0, 1000);
    for (let i = 0; i < 50; i++) expect(await limiter.hit("a")).toBe(true);
    expect(await limiter.exhausted("a")).toBe(false);
  });
});

describe("memorySlowLane", () => {
  it("gives each attempt at a key the next slot, a gap apart; other keys and later attempts go at once", async () => {
    let now = 0;
    const lane = memorySlowLane(1000, () => now);
    expect(await lane.take("a")).toBe(0);
    expect(await lane.take("a")).toBe(1000);
    expect(await lane.take("a")).toBe(2000);
    expect(await lane.take("b")).toBe(0);
    now = 1500;
    expect(await lane.take("a")).toBe(1500);
    now = 10_000;
    expect(await lane.take("a")).toBe(0);
  });
});
