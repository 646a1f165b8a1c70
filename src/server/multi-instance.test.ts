/**
 * Two store instances sharing one Postgres database and one Redis, as REDIS_URL promises:
 * a session made on one is honoured by the other, a sign-out on one ends it on both, and the
 * sign-in limits are counted together. Runs when DATABASE_URL is set and Redis is reachable;
 * under CI=true an unreachable Redis fails it (connectTestRedis throws).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "../contract/schemas";
import { buildApp } from "./app";
import { createTool } from "./catalog/service";
import { STOCK_ALERT_LIMITS } from "./stock-alerts/routes";
import { loadConfig } from "./config";
import { prepareStore } from "./start-up";
import { Client, connectTestRedis, createPostgresDatabase, uniqueEmail, type TestRedis } from "./test-support";

let testRedis: TestRedis | undefined;
let apps: FastifyInstance[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  testRedis = await connectTestRedis();
  if (!testRedis.redis) return;
  const db = await createPostgresDatabase();
  dropDatabase = db.drop;
  const env = {
    NODE_ENV: "test",
    AUTH_SECRET: "multi-instance-secret-multi-instance-0123",
    PUBLIC_URL: "http://localhost:3999",
    DATABASE_URL: db.url,
    REDIS_URL: testRedis.url,
    REDIS_KEY_PREFIX: testRedis.prefix,
    // No in-process memory of sessions: every request asks the shared store.
    SESSION_CACHE_SECONDS: "0",
    LIST_CACHE_SECONDS: "0",
  };
  // One after the other: the second finds the schema migrated and the catalogue seeded.
  for (let i = 0; i < 2; i++) {
    const app = await buildApp(loadConfig({ ...env, DATA_DIR: "memory://" }));
    await prepareStore(app);
    await app.ready();
    apps.push(app);
  }
}, 120_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  apps = [];
  await dropDatabase?.();
  await testRedis?.close();
});

describe("two instances sharing Postgres and Redis", () => {
  it("honour each other's sessions, and a sign-out on one ends the session on both", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const onA = new Client(a, "10.9.0.1");
    const email = uniqueEmail("shared");
    expect((await onA.signUp("Shared", email)).statusCode).toBe(200);
    const cookie = onA.cookieHeader();
    const onB = (url: string) => b.inject({ method: "GET", url, headers: { cookie } });
    expect((await onB("/api/me/profile")).json()).toMatchObject({ displayName: "Shared", email });
    expect(await testRedis?.redis?.keys(`${testRedis.prefix}auth:*`)).not.toHaveLength(0);

    expect((await onA.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    expect((await onB("/api/me/profile")).statusCode).toBe(401);
  });

  it("count failed sign-ins together", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const email = uniqueEmail("target");
    expect((await new Client(a, "10.9.0.2").signUp("Target", email)).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const app = i % 2 === 0 ? a : b;
      // One device on both instances: the (e-mail, address) pair's count is shared through Redis.
      statuses.push((await new Client(app, "10.9.1.1").signIn(email, `Wr0ng!pass${i}`)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("serve slowed guesses at one account one at a time across both instances", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const email = uniqueEmail("besieged");
    expect((await new Client(a, "10.9.2.1").signUp("Besieged", email)).statusCode).toBe(200);
    // AUTH_RATE_LIMIT_ACCOUNT_MAX (10) failures from ten addresses, on both instances, at full speed...
    for (let i = 0; i < 10; i++) expect((await new Client(i % 2 === 0 ? a : b, `10.9.3.${i + 1}`).signIn(email, `Wr0ng!pass${i}`)).statusCode).toBe(401);
    // ...then four at once, two on each: one lane in Redis serves them a second apart (slots 0-3 s),
    // where a lane per instance would have let two through at a time (done in about 1 s).
    const started = Date.now();
    const results = await Promise.all([0, 1, 2, 3].map((i) => new Client(i % 2 === 0 ? a : b, `10.9.4.${i + 1}`).signIn(email, `Wr0ng!pass${i}`)));
    expect(results.map((r) => r.statusCode)).toEqual([401, 401, 401, 401]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(await testRedis?.redis?.keys(`${testRedis.prefix}auth-slow:*`)).toHaveLength(1);
  });

  it("end a deleted account's sessions on both, Redis copies included", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const email = uniqueEmail("leaving");
    const onA = new Client(a, "10.9.5.1");
    expect((await onA.signUp("Leaving", email)).statusCode).toBe(200);
    const elsewhere = new Client(b, "10.9.5.2");
    expect((await elsewhere.signIn(email)).statusCode).toBe(200);
    expect((await elsewhere.get("/api/me/profile")).statusCode).toBe(200);
    expect((await onA.post("/api/me/delete-account", { password: "Str0ng!pass" })).statusCode).toBe(200);
    for (const c of [onA, elsewhere]) expect((await c.get("/api/me/profile")).statusCode).toBe(401);
    const left = await testRedis?.redis?.keys(`${testRedis.prefix}auth:*`);
    for (const key of left ?? []) expect(await testRedis?.redis?.get(key)).not.toContain(email);
  });

  it("share one catalogue: stock taken on one instance is gone on the other", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const buyer = new Client(a, "10.9.0.3");
    await buyer.signUp("Buyer", uniqueEmail("buyer"));
    const [tool] = (await b.inject({ method: "GET", url: "/api/tool?limit=1" })).json() as Tool[];
    if (!tool) throw new Error("no tool");
    expect((await buyer.post("/api/order", { toolId: tool._id, quantity: tool.minimumQuantity })).statusCode).toBe(201);
    const after = (await b.inject({ method: "GET", url: `/api/tool/${tool._id}` })).json() as Tool;
    expect(after.availableQuantity).toBe(tool.availableQuantity - tool.minimumQuantity);
  });

  it("count back-in-stock requests per e-mail and per client address together (issue 42)", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const tool = await createTool(a.store.db, {
      name: `Shared alert tool ${uniqueEmail("t")}`,
      image: "/images/tools/jigsaw.svg",
      price: 10,
      availableQuantity: 0,
      minimumQuantity: 1,
      description: "Sold out.",
      category: "hand-tools",
    });
    const url = `/api/tool/${tool._id}/stock-alerts`;
    // One address's requests, alternately on each instance, from addresses of their own.
    const email = uniqueEmail("shared-alert");
    for (let i = 0; i < STOCK_ALERT_LIMITS.perEmail; i++) {
      expect((await new Client(i % 2 === 0 ? a : b, `10.9.1.${i + 1}`).post(url, { email })).statusCode).toBe(202);
    }
    expect((await new Client(b, "10.9.1.100").post(url, { email })).statusCode).toBe(429);
    expect((await new Client(a, "10.9.1.101").post(url, { email })).statusCode).toBe(429);
    // One client's requests for many addresses, alternately on each instance.
    const statuses: number[] = [];
    for (let i = 0; i <= STOCK_ALERT_LIMITS.perClient; i++) {
      statuses.push((await new Client(i % 2 === 0 ? a : b, "10.9.2.1").post(url, { email: uniqueEmail("shared-flood") })).statusCode);
    }
    expect(statuses.filter((s) => s === 202)).toHaveLength(STOCK_ALERT_LIMITS.perClient);
    expect(statuses.at(-1)).toBe(429);
  });
});
