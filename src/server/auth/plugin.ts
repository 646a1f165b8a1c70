/**
 * Mounts better-auth under /api/auth behind our gateway (gateway.ts: canonical paths,
 * validation and rate limits for every POST), and gives routes the `requireUser` and
 * `requireAdmin` guards and `request.viewer`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { z } from "zod";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { userTokenBodySchema, userTokenParamsSchema, userTokenResponseSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { AUTH_ERRORS } from "../../contract/texts/auth";
import { ApiError, forbidden, unauthorized, unavailable } from "../http/errors";
import { FRESH_SIGN_IN_SECONDS } from "../../contract/account-schemas";
import { ACCOUNT_DELETION_TEXT, SECURITY_TEXT } from "../../contract/texts/account";
import { errorResponses } from "../http/schemas";
import type { Redis } from "ioredis";
import type { Config, RateLimitSettings } from "../config";
import { TtlCache } from "../http/ttl-cache";
import { admit, canonicalAuthPath, nonCanonicalPath, SLOWDOWN_MS, tooMany, type Limiters } from "./gateway";
import { createAuth, type Auth } from "./instance";
import { memoryLimiter, memorySlowLane, redisLimiter, redisSlowLane } from "./limiter";
import { ADMIN_ROLE, roleOf, type Role } from "./roles";
import { credentialOf } from "./credential";
import { eq, sql } from "drizzle-orm";
import { mailOutbox, user } from "../db/schema";
import { templates, type Rendered } from "../mail/templates";

/** Runs as an onRequest hook, so an anonymous caller is refused before any body is read. */
export type Guard = (request: FastifyRequest) => Promise<void>;

export interface Viewer {
  id: string;
  email: string;
  name: string;
  role: Role;
}

declare module "fastify" {
  interface FastifyInstance {
    auth: Auth;
    requireUser: Guard;
    requireAdmin: Guard;
    /** Forgets every remembered session: after a role change, the next request sees the new role. */
    forgetSessions: () => void;
    /**
     * Proves the signed-in caller is the account's owner before an irreversible step: the
     * password of an account that has one (wrong ones count like failed sign-ins from this
     * device), else a sign-in at most FRESH_SIGN_IN_SECONDS old. Throws the ApiError to answer.
     */
    confirmOwner: (request: FastifyRequest, password: string | undefined) => Promise<void>;
    /** Ends every session of an account (Redis included) and expires this caller's cookies. */
    endAllSessions: (userId: string, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by requireUser / requireAdmin. */
    viewer: Viewer;
  }
}


function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  // better-auth records the client address; Fastify knows it (and honours trustProxy).
  headers.set("x-forwarded-for", request.ip);
  return headers;
}

/** Resolves the caller from the session cookie or an `Authorization: Bearer` token. */
export async function resolveViewer(auth: Auth, request: FastifyRequest, cache?: TtlCache<Viewer>): Promise<Viewer | null> {
  const credential = credentialOf(request.headers);
  if (!credential) return null;
  const cached = cache?.peek(credential);
  if (cached) return cached;
  const result = await auth.api.getSession({ headers: webHeaders(request) });
  if (!result) return null;
  const { user, session } = result;
  const viewer: Viewer = { id: user.id, email: user.email, name: user.name, role: roleOf(user) };
  cache?.set(credential, viewer, new Date(session.expiresAt).getTime());
  return viewer;
}

/** Answers that belong to one person: never stored by a browser's or a proxy's cache. */
const PERSONAL_PREFIXES = ["/api/auth/", "/api/me/", "/api/order", "/api/cart", "/api/checkout", "/api/user/", "/api/admin"];

/** A request whose answer is personal: it names a signed-in caller or a personal path (404s included). */
export function isPersonal(request: FastifyRequest): boolean {
  // `viewer` is only set by the guards; elsewhere it is null (or absent outside /api).
  return Boolean(request.viewer as Viewer | null | undefined) || PERSONAL_PREFIXES.some((prefix) => request.url.startsWith(prefix));
}

/** The sign-in limits (gateway.ts): in this process, or in Redis when instances share them. */
function limitersFor(config: Config, redis: Redis | undefined): Limiters {
  const make = (name: string, { max, windowMs }: RateLimitSettings) =>
    redis ? redisLimiter(redis, `${config.redisKeyPrefix}${name}:`, max, windowMs) : memoryLimiter(max, windowMs);
  return {
    byAddress: make("auth-ip", config.authAddressRateLimit),
    byEmail: make("auth-email", config.authRateLimit),
    byAccount: make("auth-account", config.authAccountRateLimit),
    alerts: make("auth-alert", { max: config.authAccountRateLimit.max === 0 ? 0 : 1, windowMs: config.authAccountRateLimit.windowMs }),
    // Shared like the counts: N instances together serve one slowed attempt per second at an account.
    slowLane: redis ? redisSlowLane(redis, `${config.redisKeyPrefix}auth-slow:`, SLOWDOWN_MS) : memorySlowLane(SLOWDOWN_MS),
  };
}

const authPlugin: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const auth = createAuth(config, app.store.db, app.redis, app.passwordHashing);
  const limiters = limitersFor(config, app.redis);
  const publicUrl = config.publicUrl;
  // Resolved sessions, remembered for SESSION_CACHE_SECONDS; forgotten when a session may have ended.
  const sessions = new TtlCache<Viewer>(config.sessionCacheMs, 10_000);
  const ownOrigin = new URL(publicUrl).origin;
  app.decorate("auth", auth);
  app.decorateRequest("viewer", null as unknown as Viewer);

  const requireUser: Guard = async (request) => {
    const viewer = await resolveViewer(auth, request, sessions);
    if (!viewer) throw unauthorized();
    request.viewer = viewer;
  };
  const requireAdmin: Guard = async (request) => {
    const viewer = await resolveViewer(auth, request, sessions);
    if (!viewer) throw unauthorized();
    if (viewer.role !== ADMIN_ROLE) throw forbidden();
    request.viewer = viewer;
  };
  app.decorate("requireUser", requireUser);
  app.decorate("requireAdmin", requireAdmin);
  app.decorate("forgetSessions", () => sessions.clear());

  app.decorate("confirmOwner", async (request: FastifyRequest, password: string | undefined) => {
    const context = await auth.$context;
    const credential = await context.internalAdapter.findCredentialAccount(request.viewer.id);
    if (credential?.password) {
      if (!password) {
        const message = ACCOUNT_DELETION_TEXT.passwordRequired;
        throw new ApiError(400, "PASSWORD_REQUIRED", message, { details: [{ path: "password", message }] });
      }
      // Counted like a sign-in from this device: a stolen session cannot guess the password freely.
      const key = `email:${request.viewer.email.toLowerCase()}|ip:${request.ip}`;
      if (!(await limiters.byEmail.hit(key))) throw await tooMany(limiters.byEmail, key);
      if (!(await context.password.verify({ hash: credential.password, password }))) {
        throw new ApiError(400, "INVALID_PASSWORD", SECURITY_TEXT.wrongPassword, { details: [{ path: "password", message: SECURITY_TEXT.wrongPassword }] });
      }
      await limiters.byEmail.refund(key);
      return;
    }
    // No password (a Google-only account): the caller must have signed in moments ago.
    const current = await auth.api.getSession({ headers: webHeaders(request), query: { disableCookieCache: true } });
    if (!current) throw unauthorized();
    if (Date.now() - new Date(current.session.createdAt).getTime() > FRESH_SIGN_IN_SECONDS * 1000) {
      throw new ApiError(403, "SESSION_NOT_FRESH", ACCOUNT_DELETION_TEXT.notFresh);
    }
  });

  app.decorate("endAllSessions", async (userId: string, reply: FastifyReply) => {
    const context = await auth.$context;
    // The database rows may be gone already (a deleted account); Redis keeps its own copies.
    await context.internalAdapter.deleteUserSessions(userId);
    sessions.clear();
    const { sessionToken, sessionData, dontRememberToken } = context.authCookies;
    const secure = sessionToken.attributes.secure ? "; Secure" : "";
    reply.header(
      "set-cookie",
      [sessionToken, sessionData, dontRememberToken].map((c) => `${c.name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`),
    );
  });

  /** Queues a message to the account with this e-mail, if there is one (the outbox sends it). */
  async function tellOwner(request: FastifyRequest, email: string, message: (name: string) => Rendered) {
    try {
      const [owner] = await app.store.db.select({ email: user.email, name: user.name }).from(user).where(eq(sql`lower(${user.email})`, email.toLowerCase())).limit(1);
      if (!owner) return;
      const m = message(owner.name);
      await app.store.db.insert(mailOutbox).values({ to: owner.email.toLowerCase(), subject: m.subject, text: m.text, html: m.html, kind: m.kind });
    } catch (error) {
      request.log.warn({ err: error }, "could not queue a mail to an account's owner");
    }
  }

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    // The path we guard must be the path better-auth routes (gateway.ts, rule 1).
    const path = canonicalAuthPath(request.url);
    if (path === undefined) throw nonCanonicalPath();
    const arrived = Date.now();
    const admission = request.method === "POST" ? await admit(request, path, limiters) : undefined;
    const headers = webHeaders(request);
    // The app's onRequest hook has already refused foreign origins and cross-site requests.
    // A client without a browser (curl, an API test with a cookie jar) sends no Origin, and
    // better-auth refuses that whenever a cookie is present: vouch for it as our own.
    if (request.method === "POST" && !headers.has("origin") && !headers.has("referer")) {
      headers.set("origin", ownOrigin);
    }
    headers.delete("content-length");
    const response = await auth.handler(
      new Request(new URL(request.url, publicUrl), {
        method: request.method,
        headers,
        body: admission ? JSON.stringify(admission.body) : undefined,
      }),
    );
    // A success does not count against the limits; failures do.
    await admission?.settle(response.status < 400);
    if (admission?.alertOwner && response.status >= 400) {
      // Once per window per account: its owner hears of the failed sign-ins (if the account exists).
      await tellOwner(request, admission.alertOwner, () => templates.failedSignIns(config.authAccountRateLimit.max + 1, config.publicUrl));
    }
    const signedUpAs = admission?.body.email;
    if (admission?.policy.limit === "signup" && response.status === 422 && typeof signedUpAs === "string" && (await limiters.alerts?.hit(`sign-up:${signedUpAs}`))) {
      // A sign-up with an address that has an account: its owner hears of it, once per window
      // (someone may be trying it out, or the owner has forgotten the account).
      await tellOwner(request, signedUpAs, (name) => templates.existingSignup(name, config.publicUrl));
    }
    const wait = (admission?.policy.minimumMs ?? 0) - (Date.now() - arrived);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    // Sign-out, revoked sessions, role or user changes: forget every remembered session.
    if (admission?.policy.changesSessions) sessions.clear();
    // better-auth answers a failed database or Redis call with a bare 500.
    if (response.status >= 500 && (await app.dependenciesDown())) throw unavailable();
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      if (key !== "set-cookie" && key !== "content-length") reply.header(key, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header("set-cookie", cookies);
    const text = await response.text();
    if (response.status >= 400 && text.startsWith("{")) {
      // One error shape across the API: better-auth's {code, message} becomes {error, message}.
      const body = JSON.parse(text) as { code?: string; message?: string };
      return reply.send({ error: body.code ?? "AUTH_ERROR", message: body.message ?? AUTH_ERRORS.generic });
    }
    if (response.status === 404 && text === "") return reply.send({ error: "NOT_FOUND", message: API_TEXT.notFound });
    return reply.send(text === "" ? null : text);
  }

  app.route({ method: ["GET", "POST"], url: "/auth/*", schema: { hide: true }, handler: forward });

  // What the login and sign-up pages offer: 'Continue With Google' says in place when it is not configured.
  app.get(
    "/sign-in-options",
    { schema: { tags: ["accounts"], summary: "Which sign-in methods this store offers", response: { 200: z.object({ google: z.boolean() }) } } },
    async () => ({ google: Boolean(config.google) }),
  );

  app.put(
    "/user/:email",
    {
      onRequest: requireUser,
      schema: {
        tags: ["accounts"],
        summary: "A bearer token for API clients, for the signed-in user's own e-mail only",
        params: userTokenParamsSchema,
        body: userTokenBodySchema,
        response: { 200: userTokenResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const email = request.viewer.email.toLowerCase();
      if (request.params.email.toLowerCase() !== email || request.body.email.toLowerCase() !== email) throw forbidden();
      // The caller's own session, as a bearer token: asking again mints nothing new, and
      // signing out (or revoking that session) ends the token with it.
      const current = await auth.api.getSession({ headers: webHeaders(request) });
      if (!current) throw unauthorized();
      return { token: current.session.token };
    },
  );
};

export default fp(authPlugin, { name: "toolyard-auth" });
