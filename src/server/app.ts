/**
 * buildApp(config) → a ready-to-listen Fastify instance serving the API under /api
 * and the built SPA on the same origin. It never listens itself (tests inject).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { Redis } from "ioredis";
import type { Review, Tool } from "../contract/schemas";
import { API_TEXT } from "../contract/texts/api";
import { createAuth } from "./auth/instance";
import { memoryLimiter, redisLimiter } from "./auth/limiter";
import authPlugin from "./auth/plugin";
import { syncAdminRoles } from "./auth/roles";
import { catalogRoutes } from "./catalog/routes";
import type { Config } from "./config";
import { openDatabase, type Database } from "./db/client";
import { seedIfEmpty } from "./db/seed";
import { ApiError, registerErrorHandling } from "./http/errors";
import { ListCache } from "./http/list-cache";
import { healthRoutes } from "./http/health";
import { orderRoutes } from "./orders/routes";
import { profileRoutes } from "./profile/routes";
import { reviewRoutes } from "./reviews/routes";

/** The public lists' short-lived caches; whoever changes their data invalidates them. */
export interface ListCaches {
  tools: ListCache<{ items: Tool[]; total: number }>;
  reviews: ListCache<{ items: Review[]; total: number }>;
}

declare module "fastify" {
  interface FastifyInstance {
    store: Database;
    config: Config;
    lists: ListCaches;
  }
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    // A hop count trusts that many proxies nearest the server (proxy-addr's own rule).
    trustProxy: typeof config.trustProxy === "number" ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 64 * 1024,
    requestIdHeader: "x-request-id",
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsDir: config.migrationsDir,
  });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  app.decorate("store", database);
  app.decorate("config", config);
  app.decorate("lists", { tools: new ListCache(config.listCacheMs), reviews: new ListCache(config.listCacheMs) } satisfies ListCaches);
  app.addHook("onClose", async () => {
    await database.close();
    await redis?.quit();
  });

  if (config.seed) await seedIfEmpty(database.db);
  await syncAdminRoles(database.db, config.adminEmails);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: config.publicUrl.startsWith("https://") ? [] : null,
      },
    },
    hsts: config.publicUrl.startsWith("https://"),
    // The OAuth round trip returns from another site; the default "same-origin" would drop the opener.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    // "no-referrer" would make browsers send `Origin: null` on the store's own posts.
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });

  // Requests from foreign origins never change anything (CSRF); API clients without a
  // browser send no Origin and authenticate with a bearer token.
  const trusted = new Set(config.trustedOrigins);
  app.addHook("onRequest", async (request) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith("/api/")) return;
    const site = request.headers["sec-fetch-site"];
    // Under a strict referrer policy some browsers send `Origin: null` for their own posts;
    // Fetch Metadata then still tells a same-origin request apart.
    const origin = request.headers.origin === "null" && site === "same-origin" ? undefined : request.headers.origin;
    if ((origin !== undefined && !trusted.has(origin)) || site === "cross-site") {
      throw new ApiError(403, "FOREIGN_ORIGIN", API_TEXT.foreignOrigin);
    }
  });

  // Postgres cannot store NUL in text: refuse it as invalid input instead of failing later.
  app.addHook("preValidation", async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new ApiError(400, "VALIDATION", API_TEXT.invalidInput, {
        details: [{ path: "", message: "Text must not contain NUL characters" }],
      });
    }
  });

  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimit.max === 0 ? Number.MAX_SAFE_INTEGER : config.apiRateLimit.max,
    timeWindow: config.apiRateLimit.windowMs,
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rl:` } : {}),
    allowList: (request) => !request.url.startsWith("/api/") || config.apiRateLimit.max === 0,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: "Toolyard API", version: "1.0.0", description: "Tools, reviews, orders and accounts." },
      components: {
        securitySchemes: {
          cookie: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
          bearer: { type: "http", scheme: "bearer" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs" });

  const byAddress = config.authAddressRateLimit;
  const byEmail = config.authRateLimit;
  const auth = createAuth(config, database.db, redis);
  await app.register(
    async (api) => {
      await api.register(authPlugin, {
        auth,
        publicUrl: config.publicUrl,
        sessionCacheMs: config.sessionCacheMs,
        limiters: {
          byAddress: redis
            ? redisLimiter(redis, `${config.redisKeyPrefix}auth-ip:`, byAddress.max, byAddress.windowMs)
            : memoryLimiter(byAddress.max, byAddress.windowMs),
          byEmail: redis
            ? redisLimiter(redis, `${config.redisKeyPrefix}auth-email:`, byEmail.max, byEmail.windowMs)
            : memoryLimiter(byEmail.max, byEmail.windowMs),
        },
      });
      await api.register(healthRoutes);
      await api.register(catalogRoutes);
      await api.register(reviewRoutes);
      await api.register(orderRoutes);
      await api.register(profileRoutes);
    },
    { prefix: "/api" },
  );

  registerSpa(app, config.webDir);
  return app;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 20 || value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, v]) => key.includes("\u0000") || containsNul(v, depth + 1));
}

/** Serves the built SPA; unknown paths get index.html so client routes deep-link. */
function registerSpa(app: FastifyInstance, webDir: string): void {
  const index = path.join(webDir, "index.html");
  const hasWeb = existsSync(index);
  if (hasWeb) {
    void app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (vite.config.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        // Hashed bundles never change; everything else is revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
        } else {
          res.header("cache-control", "public, max-age=3600");
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const wantsPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !url.startsWith("/api/") &&
      url !== "/api" &&
      !url.startsWith("/assets/");
    if (wantsPage && hasWeb) {
      return reply.header("cache-control", "no-cache").type("text/html").sendFile("index.html");
    }
    return reply.status(404).send({ error: "NOT_FOUND", message: API_TEXT.notFound });
  });
}
