import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test-support";

describe("the general API limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp("pglite", { RATE_LIMIT_MAX: "2", RATE_LIMIT_WINDOW_SECONDS: "60", SEED: "false" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers past the limit with 429, our error shape and Retry-After", async () => {
    const get = () => t.app.inject({ url: "/api/tool", remoteAddress: "10.16.0.1" });
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    const res = await get();
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe("RATE_LIMITED");
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });
});
