import { describe, expect, it } from "vitest";
import { memoryLimiter } from "./limiter";

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
  it("is off when max is 0", async () => {
    const limiter = memoryLimiter(0, 1000);
    for (let i = 0; i < 50; i++) expect(await limiter.hit("a")).toBe(true);
  });
});
