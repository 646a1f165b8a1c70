/**
 * Test harness: builds the real app on a throw-away database, PGlite in memory or a
 * fresh database on the Postgres server named by DATABASE_URL (dropped afterwards).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions } from "fastify";
import { Redis } from "ioredis";
import { buildApp, type BuildOptions, type PasswordHashing } from "./app";
import { findAppRoot, loadConfig, type Config } from "./config";
import { starterImage } from "./db/starter-image";
import { prepareStore } from "./start-up";
import { PG_TEMPLATE_ENV, withAdminClient } from "../../tests/support/pg-template";

export type Driver = "pglite" | "postgres";

/** PGlite always; Postgres too when DATABASE_URL is set. */
export const drivers = (): Driver[] => (process.env.DATABASE_URL ? ["pglite", "postgres"] : ["pglite"]);

/**
 * A new database on the DATABASE_URL server. `migrated`: a copy of the run's migrated template
 * when there is one (tests/support/pg-template.ts, Vitest's global setup, makes it once per run;
 * the store's migrator then finds nothing to do), else an empty database. A copy costs a few
 * hundred milliseconds; migrating a new database took 2–3 s, and the API tests start a store on
 * Postgres over a hundred times.
 */
export async function createPostgresDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `toolyard_test_${randomBytes(6).toString("hex")}`;
  const template = options.migrated ? process.env[PG_TEMPLATE_ENV] : undefined;
  await withAdminClient((c) => c.query(template ? `create database ${name} template ${template}` : `create database ${name}`));
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdminClient((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** The store's migrations. */
export const realMigrations = path.join(findAppRoot(), "drizzle");

/** A copy of the migrations folder that stops after the first `count` migrations (the migration tests' old store). */
export function firstMigrations(count: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "toolyard-migrations-"));
  cpSync(realMigrations, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** Per migrations folder: this process reads the folder and the image once. */
const images = new Map<string, Promise<Blob>>();

/**
 * The migrated PGlite image for these migrations (db/starter-image.ts): every test app starts
 * from it instead of running initdb and the migrations again (about 2.5 s each). The build has
 * usually made it already; a worker that misses it makes it.
 */
export function pgliteImage(migrationsDir: string): Promise<Blob> {
  let image = images.get(migrationsDir);
  if (!image) {
    image = starterImage(migrationsDir);
    images.set(migrationsDir, image);
  }
  return image;
}

/**
 * Passwords in the API tests' stores: scrypt at a sixteenth of better-auth's cost (N 1024 rather
 * than 16384, r 16). Its own cost takes 80–200 ms of CPU a sign-up or sign-in on our 2-core
 * machines, and these tests sign thousands of customers up on both drivers: half of some files'
 * time. The rules around passwords (length, limits, reset) are ours and unchanged; the built
 * store the browser and built-store tests run hashes as shipped.
 */
const TEST_SCRYPT: ScryptOptions = { N: 1024, r: 16, p: 1 };
const scryptKey = (password: string, salt: string): Promise<Buffer> =>
  new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, 64, TEST_SCRYPT, (error, key) => (error ? reject(error) : resolve(key))));
export const testPasswordHashing: PasswordHashing = {
  hash: async (password) => {
    const salt = randomBytes(16).toString("hex");
    return `${salt}:${(await scryptKey(password, salt)).toString("hex")}`;
  },
  verify: async ({ hash, password }) => {
    const [salt = "", key = ""] = hash.split(":");
    const stored = Buffer.from(key, "hex");
    const derived = await scryptKey(password, salt);
    return stored.length === derived.length && timingSafeEqual(stored, derived);
  },
};

/** Build options for a test app on `config`: a memory:// PGlite starts from the migrated image; passwords are hashed cheaply. */
export async function harnessOptions(config: Config): Promise<BuildOptions> {
  const image = !config.databaseUrl && config.dataDir === "memory://" ? { memoryImage: await pgliteImage(config.migrationsDir) } : {};
  return { ...image, passwordHashing: testPasswordHashing };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close: () => Promise<void>;
}

/**
 * `demoMoney`: the demo's delivery methods, tax rates and code too (as `npm start` seeds them).
 * Off by default: each API test sets up the money it is about, and its totals are its own.
 */
export async function startTestApp(driver: Driver, env: Record<string, string> = {}, options: BuildOptions & { demoMoney?: boolean } = {}): Promise<TestApp> {
  const { demoMoney = false, ...buildOptions } = options;
  const pgDb = driver === "postgres" ? await createPostgresDatabase({ migrated: true }) : undefined;
  const config = loadConfig({
    NODE_ENV: "test",
    AUTH_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_URL: "http://localhost:3999",
    DATA_DIR: "memory://",
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const app = await buildApp(config, { ...(await harnessOptions(config)), ...buildOptions });
  await prepareStore(app, { money: demoMoney });
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await pgDb?.drop();
    },
  };
}

export const ORIGIN = "http://localhost:3999";

/** Cookie jar for app.inject: keeps the session cookie between calls, like a browser. */
export class Client {
  private cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    /** The client's address as the server sees it; rate limits count per address. */
    private readonly remoteAddress = "127.0.0.1",
    /** The Origin header a browser would send; `null` sends none, like curl or an API client. */
    private readonly origin: string | null = ORIGIN,
  ) {}

  async request(options: InjectOptions & { method: string; url: string }) {
    const headers: Record<string, string> = { ...(this.origin ? { origin: this.origin } : {}), ...(options.headers as Record<string, string>) };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const response = await this.app.inject({ ...options, headers, remoteAddress: this.remoteAddress });
    const setCookie = response.headers["set-cookie"];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim())) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The Cookie header this client would send (to replay a session elsewhere). */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get = (url: string) => this.request({ method: "GET", url });
  post = (url: string, payload: unknown) => this.request({ method: "POST", url, payload: payload as object });
  put = (url: string, payload: unknown) => this.request({ method: "PUT", url, payload: payload as object });
  delete = (url: string) => this.request({ method: "DELETE", url });

  async signUp(name: string, email: string, password = "Str0ng!pass") {
    return this.post("/api/auth/sign-up/email", { name, email, password });
  }
  async signIn(email: string, password = "Str0ng!pass") {
    return this.post("/api/auth/sign-in/email", { email, password });
  }
}

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}@example.com`;

export interface TestRedis {
  url: string;
  /** Every key a test writes starts with this; `close` deletes them. */
  prefix: string;
  /** Undefined when no Redis answers: tests that need it skip. */
  redis: Redis | undefined;
  close: () => Promise<void>;
}

/**
 * The Redis of REDIS_URL (or the local one) under a key prefix of its own, if one is reachable.
 * Under CI=true an unreachable Redis throws, so the tests that need it fail instead of skipping.
 */
export async function connectTestRedis(): Promise<TestRedis> {
  const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const prefix = `toolyard-test:${randomBytes(6).toString("hex")}:`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  const reachable = await client.connect().then(
    () => true,
    () => false,
  );
  // Locally a missing Redis skips the shared-store tests; CI claims to test them, so there it is a failure.
  if (!reachable && process.env.CI === "true") {
    client.disconnect();
    throw new Error(`No Redis answers at ${url}: the Redis-backed tests are required under CI=true (start redis-server or set REDIS_URL).`);
  }
  return {
    url,
    prefix,
    redis: reachable ? client : undefined,
    close: async () => {
      if (!reachable) return client.disconnect();
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      await client.quit();
    },
  };
}

export interface TcpProxy {
  port: number;
  /** Cuts every connection and refuses new ones, like a service that went down. */
  stop: () => Promise<void>;
  /** Accepts connections again on the same port. */
  start: () => Promise<void>;
}

/** A TCP proxy on loopback to `targetPort`, to take a real service away and bring it back. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
    start: () => listen(port),
  };
}
