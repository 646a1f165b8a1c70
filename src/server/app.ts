/**
 * buildApp(config) → a ready-to-listen Fastify instance serving the API under /api and the
 * built SPA on the same origin: a list of plugins, registered in order. It never listens and
 * changes no data itself (seeding and the admin-role sync run at start-up: start-up.ts).
 */
import Fastify, { type FastifyInstance, type RouteOptions } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config";
import { registerErrorHandling } from "./http/errors";
import api from "./plugins/api";
import caches from "./plugins/caches";
import crawlers from "./plugins/crawlers";
import database from "./plugins/database";
import docs from "./plugins/docs";
import { jobs } from "./jobs";
import mail from "./mail/plugin";
import payments from "./payments/plugin";
import rateLimit from "./plugins/rate-limit";
import redis from "./plugins/redis";
import security from "./plugins/security";
import spa from "./plugins/spa";
import uploads from "./plugins/uploads";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    /** What time it is: the system's, or a test's clock (trade accounts' due dates, holds and reminders). */
    clock: () => Date;
    /** How passwords are hashed: better-auth's own scrypt, unless the API tests' harness gives a cheaper one. */
    passwordHashing: PasswordHashing | null;
  }
}

/** better-auth's `emailAndPassword.password`: a hash and its check. */
export interface PasswordHashing {
  hash: (password: string) => Promise<string>;
  verify: (input: { hash: string; password: string }) => Promise<boolean>;
}

function logger(config: Config) {
  if (config.logFormat === "json") return { level: config.logLevel };
  return {
    level: config.logLevel,
    transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss", ignore: "pid,hostname" } },
  };
}

export interface BuildOptions {
  /** Hears every route as it is registered (the endpoint × role test enumerates them so). */
  onRoute?: (route: RouteOptions) => void;
  /** A memory:// PGlite starts from this migrated image (the test harness; see db/client.ts). */
  memoryImage?: Blob;
  /** Addresses per sitemap file (plugins/crawlers.ts); the protocol's 50,000 unless a test asks for fewer. */
  sitemapUrlLimit?: number;
  /** The time the store reads for trade accounts' months, due dates, holds and reminders; a test moves it instead of waiting. */
  clock?: () => Date;
  /**
   * The API tests' harness only (test-support.ts): scrypt at a lower cost, since those tests sign
   * thousands of customers up. A started or built store (npm start, the browser tests) never has it.
   */
  passwordHashing?: PasswordHashing;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger(config),
    // Opening the database runs the migrations: on a loaded machine (CI running tests in
    // parallel) PGlite's first start can pass avvio's 10 s default without anything being wrong.
    pluginTimeout: 120_000,
    // A hop count trusts that many proxies nearest the server (proxy-addr's own rule).
    trustProxy: typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 64 * 1024,
    requestIdHeader: "x-request-id",
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("clock", options.clock ?? (() => new Date()));
  app.decorate("passwordHashing", options.passwordHashing ?? null);
  // An unexpected failure while the database or Redis is down is an outage (503), not a bug.
  registerErrorHandling(app, { dependenciesDown: () => (app.hasDecorator("dependenciesDown") ? app.dependenciesDown() : Promise.resolve(false)) });

  try {
    // Redis first: a wrong REDIS_URL stops the start before the database is opened.
    await app.register(redis);
    await app.register(database, { memoryImage: options.memoryImage });
    await app.register(caches);
    await app.register(jobs);
    await app.register(mail);
    await app.register(payments);
    await app.register(security);
    await app.register(rateLimit);
    await app.register(docs);
    await app.register(api);
    await app.register(crawlers, { sitemapUrlLimit: options.sitemapUrlLimit });
    await app.register(uploads);
    await app.register(spa);
  } catch (error) {
    // What opened before the failure (Redis, the database) closes with the app.
    await app.close().catch(() => undefined);
    throw error;
  }
  return app;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
