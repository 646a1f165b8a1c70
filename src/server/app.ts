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
import { sql } from "drizzle-orm";
import type { Review, Tool } from "../contract/schemas";
import { API_TEXT } from "../contract/texts/api";
import { createAuth } from "./auth/instance";
import { memoryLimiter, redisLimiter } from "./auth/limiter";
import authPlugin, { isPersonal } from "./auth/plugin";
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
import { connectRedis } from "./redis";
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

  // Redis first: a wrong REDIS_URL stops the start before the database is opened.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : undefined;
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      migrationsDir: config.migrationsDir,
    });
  } catch (error) {
    redis?.disconnect();
    throw error;
  }
  /** Asked when something fails unexpectedly: an outage answers 503, a bug 500. */
  const dependenciesDown = async (): Promise<boolean> => {
    if (redis && redis.status !== "ready") return true;
    return !(await databaseAnswers(database));
  };
  registerErrorHandling(app, { dependenciesDown });
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

  app.addHook("onSend", async (request, reply) => {
    if (isPersonal(request)) reply.header("cache-control", "private, no-store");
  });

  // Postgres cannot store NUL in text, and nothing we take is nested deeply: refuse both as
  // invalid input before any handler (or better-auth, which recurses) sees them.
  app.addHook("preValidation", async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const problem = inspectInput(part);
      if (problem === "nul") {
        throw new ApiError(400, "VALIDATION", API_TEXT.invalidInput, {
          details: [{ path: "", message: "Text must not contain NUL characters" }],
        });
      }
      if (problem === "deep") {
        throw new ApiError(400, "VALIDATION", API_TEXT.tooDeep, { details: [{ path: "", message: API_TEXT.tooDeep }] });
      }
    }
  });

  await app.register(rateLimit, {
    global: true,
    max: config.apiRateLimit.max === 0 ? Number.MAX_SAFE_INTEGER : config.apiRateLimit.max,
    timeWindow: config.apiRateLimit.windowMs,
    // During a Redis outage the general API limit steps aside (the store stays browsable);
    // the sign-in limits do not, they answer 503.
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rl:`, skipOnError: true } : {}),
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
        dependenciesDown,
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

/** Deeper than any payload of ours: a body nested further is refused, not walked. */
export const MAX_INPUT_DEPTH = 16;

/** Walks parsed input without recursion: a NUL anywhere, or nesting beyond MAX_INPUT_DEPTH. */
export function inspectInput(value: unknown): "nul" | "deep" | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current === "string") {
      if (current.includes("\u0000")) return "nul";
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return "deep";
    for (const [key, child] of Object.entries(current)) {
      if (key.includes("\u0000")) return "nul";
      stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

async function databaseAnswers(database: Database, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = database.db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
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
