/**
 * Services going away (issue 14): an unreachable REDIS_URL or DATABASE_URL stops the start
 * with one line naming the variable; at run time a Redis or database outage answers 503 with
 * Retry-After, quickly, and the store recovers when the service is back. The outages are
 * real: the services sit behind a TCP proxy that the test stops and starts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TEXT } from "../contract/texts/api";
import { Client, connectTestRedis, createPostgresDatabase, startTcpProxy, startTestApp, uniqueEmail, type TcpProxy, type TestApp, type TestRedis } from "./test-support";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs the real entry point and returns what it printed and how it ended. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string; ms: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-outage-"));
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", PORT: "39999", DATA_DIR: dataDir, SEED: "false", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

describe("an unreachable service at start", () => {
  it("REDIS_URL: one line naming it, at once", async () => {
    const { code, stderr, ms } = await runMain({ REDIS_URL: "redis://127.0.0.1:1" });
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^Configuration error: REDIS_URL: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 /);
    expect(ms).toBeLessThan(15_000);
  });

  it("DATABASE_URL: one line naming it, without the password", async () => {
    const { code, stderr } = await runMain({ DATABASE_URL: "postgres://shop:secret@127.0.0.1:1/toolyard" });
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^Configuration error: DATABASE_URL: cannot reach Postgres at postgres:\/\/shop:\*\*\*@127\.0\.0\.1:1\/toolyard /);
    expect(stderr).not.toContain("secret");
  });
});

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work;
  expect(Date.now() - started).toBeLessThan(ms);
  return result;
}

async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the store did not recover");
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("a Redis outage at run time", () => {
  let redis: TestRedis;
  let proxy: TcpProxy;
  let t: TestApp | undefined;
  beforeAll(async () => {
    redis = await connectTestRedis();
    if (!redis.redis) return;
    proxy = await startTcpProxy(Number(new URL(redis.url).port || 6379));
    t = await startTestApp("pglite", {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      REDIS_KEY_PREFIX: redis.prefix,
      SESSION_CACHE_SECONDS: "0",
      LIST_CACHE_SECONDS: "0",
    });
  });
  afterAll(async () => {
    await proxy?.start().catch(() => undefined);
    await t?.close();
    await proxy?.stop();
    await redis?.close();
  });

  it("answers what needs Redis with 503 and Retry-After, never hangs, keeps the catalogue open, and recovers", async (ctx) => {
    if (!t) return ctx.skip();
    const app = t.app;
    const email = uniqueEmail("redis");
    const c = new Client(app, "10.15.0.1");
    expect((await c.signUp("Redis", email)).statusCode).toBe(200);
    expect((await c.get("/api/me/profile")).statusCode).toBe(200);

    await proxy.stop();
    const signIn = await within(5000, new Client(app, "10.15.0.2").signIn(email));
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json()).toEqual({ error: "UNAVAILABLE", message: API_TEXT.unavailable });
    expect(Number(signIn.headers["retry-after"])).toBeGreaterThan(0);
    const profile = await within(5000, c.get("/api/me/profile"));
    expect(profile.statusCode).toBe(503);
    expect(profile.headers["retry-after"]).toBeDefined();
    expect((await within(5000, c.get("/api/tool"))).statusCode).toBe(200);

    await proxy.start();
    await eventually(async () => (await c.get("/api/me/profile")).statusCode === 200);
    expect((await new Client(app, "10.15.0.3").signIn(email)).statusCode).toBe(200);
  });
});

describe.runIf(process.env.DATABASE_URL)("a database outage at run time", () => {
  let proxy: TcpProxy;
  let drop: (() => Promise<void>) | undefined;
  let t: TestApp;
  beforeAll(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    const url = new URL(database.url);
    proxy = await startTcpProxy(Number(url.port || 5432));
    url.port = String(proxy.port);
    t = await startTestApp("pglite", { DATABASE_URL: url.toString(), SESSION_CACHE_SECONDS: "0", LIST_CACHE_SECONDS: "0" });
  });
  afterAll(async () => {
    await proxy?.start().catch(() => undefined);
    await t?.close();
    await proxy?.stop();
    await drop?.();
  });

  it("answers 503 with Retry-After on the API as /api/health does, and recovers", async () => {
    const c = new Client(t.app, "10.15.1.1");
    expect((await c.signUp("Db", uniqueEmail("db"))).statusCode).toBe(200);
    expect((await c.get("/api/tool")).statusCode).toBe(200);

    await proxy.stop();
    for (const res of [await within(10_000, c.get("/api/tool")), await within(10_000, c.get("/api/me/profile")), await within(10_000, c.get("/api/order"))]) {
      expect(res.statusCode, res.raw.req.url).toBe(503);
      expect(res.json().error, res.raw.req.url).toBe("UNAVAILABLE");
      expect(res.headers["retry-after"], res.raw.req.url).toBeDefined();
    }
    expect((await c.get("/api/health")).statusCode).toBe(503);

    await proxy.start();
    await eventually(async () => (await c.get("/api/tool")).statusCode === 200);
    expect((await c.get("/api/me/profile")).statusCode).toBe(200);
  });
});
