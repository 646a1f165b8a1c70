/**
 * Mounts better-auth under /api/auth, puts our own validation and rate limits in
 * front of sign-in and sign-up, and gives routes the `requireUser` and
 * `requireAdmin` guards and `request.viewer`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { loginSchema, signupSchema, userTokenBodySchema, userTokenParamsSchema, userTokenResponseSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { AUTH_ERRORS } from "../../contract/texts/auth";
import { ApiError, forbidden, unauthorized } from "../http/errors";
import { errorResponses } from "../http/schemas";
import type { Auth } from "./instance";
import type { Limiter } from "./limiter";
import { credentialOf, SessionCache } from "./session-cache";
import type { ZodType } from "zod";

/** Runs as an onRequest hook, so an anonymous caller is refused before any body is read. */
export type Guard = (request: FastifyRequest) => Promise<void>;

export interface Viewer {
  id: string;
  email: string;
  name: string;
  role: "admin" | "user";
}

declare module "fastify" {
  interface FastifyInstance {
    auth: Auth;
    requireUser: Guard;
    requireAdmin: Guard;
  }
  interface FastifyRequest {
    /** Set by requireUser / requireAdmin. */
    viewer: Viewer;
  }
}

export interface AuthPluginOptions {
  auth: Auth;
  publicUrl: string;
  /** How long a resolved session is remembered in this process (0: not at all). */
  sessionCacheMs: number;
  limiters: { byAddress: Limiter; byEmail: Limiter };
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
export async function resolveViewer(auth: Auth, request: FastifyRequest, cache?: SessionCache<Viewer>): Promise<Viewer | null> {
  const credential = credentialOf(request.headers);
  if (!credential) return null;
  const cached = cache?.get(credential);
  if (cached) return cached;
  const result = await auth.api.getSession({ headers: webHeaders(request) });
  if (!result) return null;
  const { user, session } = result;
  const viewer: Viewer = { id: user.id, email: user.email, name: user.name, role: user.role === "admin" ? "admin" : "user" };
  cache?.set(credential, viewer, new Date(session.expiresAt).getTime());
  return viewer;
}

const SIGN_IN = "/api/auth/sign-in/email";
const SIGN_UP = "/api/auth/sign-up/email";

/** Auth calls that cannot end or change a session; every other state-changing call clears the cache. */
const SESSION_SAFE_POSTS = new Set([SIGN_IN, SIGN_UP, "/api/auth/sign-in/social"]);

/** Auth endpoints whose body we validate with the forms' schemas and rate limit. */
const GUARDED_POSTS: Record<string, ZodType<{ email: string }>> = { [SIGN_IN]: loginSchema, [SIGN_UP]: signupSchema };

const authPlugin: FastifyPluginAsyncZod<AuthPluginOptions> = async (app, { auth, publicUrl, limiters, sessionCacheMs }) => {
  const sessions = new SessionCache<Viewer>(sessionCacheMs);
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
    if (viewer.role !== "admin") throw forbidden();
    request.viewer = viewer;
  };
  app.decorate("requireUser", requireUser);
  app.decorate("requireAdmin", requireAdmin);

  const tooMany = () => new ApiError(429, "RATE_LIMITED", AUTH_ERRORS.tooManyRequests);

  /**
   * Validates a sign-in or sign-up with the form's schema and counts the attempt. Returns
   * what to do once better-auth has answered: a success hands its attempts back.
   *
   * Sign-ins are counted on arrival against the e-mail and the client address, so a burst
   * of parallel guesses cannot slip through before the first one fails. Sign-ups are counted
   * on arrival against the e-mail only; against the address only once they fail, so many
   * people signing up at once from one address (an office, a school) are never turned away.
   */
  async function guard(request: FastifyRequest, path: string): Promise<((ok: boolean) => Promise<void>) | undefined> {
    const schema = GUARDED_POSTS[path];
    if (!schema) return undefined;
    const parsed = schema.safeParse(request.body ?? {});
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
      throw new ApiError(400, "VALIDATION", details[0]?.message ?? API_TEXT.invalidInput, { details });
    }
    const { byEmail, byAddress } = limiters;
    const emailKey = `email:${parsed.data.email}`;
    const addressKey = `ip:${request.ip}`;
    // A guess at an account that is already locked out does not also spend the address's budget.
    if (!(await byEmail.hit(emailKey))) throw tooMany();
    if (path === SIGN_UP) {
      if (await byAddress.exhausted(addressKey)) {
        await byEmail.refund(emailKey);
        throw tooMany();
      }
      return async (ok) => {
        if (ok) await byEmail.refund(emailKey);
        else await byAddress.hit(addressKey);
      };
    }
    if (!(await byAddress.hit(addressKey))) {
      await byEmail.refund(emailKey);
      throw tooMany();
    }
    return async (ok) => {
      if (ok) await Promise.all([byEmail.refund(emailKey), byAddress.refund(addressKey)]);
    };
  }

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split("?")[0] ?? "";
    let settle: ((ok: boolean) => Promise<void>) | undefined;
    if (request.method === "POST") {
      settle = await guard(request, path);
      // Sign-out, session revocation, role or user changes: forget every remembered session.
      if (!SESSION_SAFE_POSTS.has(path)) sessions.clear();
    }
    const headers = webHeaders(request);
    // The app's onRequest hook has already refused foreign origins and cross-site requests.
    // A client without a browser (curl, an API test with a cookie jar) sends no Origin, and
    // better-auth refuses that whenever a cookie is present: vouch for it as our own.
    if (request.method === "POST" && !headers.has("origin") && !headers.has("referer")) {
      headers.set("origin", ownOrigin);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== undefined;
    const response = await auth.handler(
      new Request(new URL(request.url, publicUrl), {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(request.body) : undefined,
      }),
    );
    // A successful sign-in or sign-up does not count against the limits; failures do.
    await settle?.(response.status < 400);
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
      const ctx = await auth.$context;
      const session = await ctx.internalAdapter.createSession(request.viewer.id);
      if (!session) throw new Error("session not created");
      return { token: session.token };
    },
  );
};

export default fp(authPlugin, { name: "toolyard-auth" });
