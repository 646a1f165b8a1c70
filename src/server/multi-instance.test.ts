/**
 * Two store instances sharing one Postgres database and one Redis, as REDIS_URL promises:
 * a session made on one is honoured by the other, a sign-out on one ends it on both, and the
 * sign-in limits are counted together. Runs when DATABASE_URL is set and Redis is reachable.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./app";
import { loadConfig } from "./config";
import { Client, createPostgresDatabase, uniqueEmail } from "./test-support";
import type { FastifyInstance } from "fastify";

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `toolyard-test:${randomBytes(6).toString("hex")}:`;

let redis: Redis | undefined;
let usable = false;
let apps: FastifyInstance[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) return;
  redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  usable = await redis.connect().then(
    () => true,
    () => false,
  );
  if (!usable) return;
  const db = await createPostgresDatabase();
  dropDatabase = db.drop;
  const env = {
    NODE_ENV: "test",
    AUTH_SECRET: "multi-instance-secret-multi-instance-0123",
    PUBLIC_URL: "http://localhost:3999",
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    // No in-process memory of sessions: every request asks the shared store.
    SESSION_CACHE_SECONDS: "0",
    LIST_CACHE_SECONDS: "0",
  };
  // One after the other: the second finds the schema migrated and the catalogue seeded.
  for (let i = 0; i < 2; i++) {
    const config = loadConfig(env);
    config.dataDir = "memory://";
    const app = await buildApp(config);
    await app.ready();
    apps.push(app);
  }
}, 120_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  apps = [];
  await dropDatabase?.();
  if (usable && redis) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  } else {
    redis?.disconnect();
  }
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
    expect(await redis?.keys(`${prefix}auth:*`)).not.toHaveLength(0);

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
      statuses.push((await new Client(app, `10.9.1.${i + 1}`).signIn(email, `Wr0ng!pass${i}`)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("share one catalogue: stock taken on one instance is gone on the other", async (ctx) => {
    const [a, b] = apps;
    if (!a || !b) return ctx.skip();
    const buyer = new Client(a, "10.9.0.3");
    await buyer.signUp("Buyer", uniqueEmail("buyer"));
    const [tool] = (await b.inject({ method: "GET", url: "/api/tool?limit=1" })).json() as Array<{ _id: string; availableQuantity: number; minimumQuantity: number }>;
    if (!tool) throw new Error("no tool");
    expect((await buyer.post("/api/order", { toolId: tool._id, quantity: tool.minimumQuantity })).statusCode).toBe(201);
    const after = (await b.inject({ method: "GET", url: `/api/tool/${tool._id}` })).json() as { availableQuantity: number };
    expect(after.availableQuantity).toBe(tool.availableQuantity - tool.minimumQuantity);
  });
});
