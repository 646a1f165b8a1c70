/**
 * What every request passes before any route: security headers, the same-origin rule for
 * state-changing calls (CSRF), refusal of input no route takes (NUL characters, deep nesting),
 * and private, no-store on personal answers.
 */
import helmet from "@fastify/helmet";
import fp from "fastify-plugin";
import { API_TEXT } from "../../contract/texts/api";
import { isPersonal } from "../auth/plugin";
import { ApiError } from "../http/errors";
import { ENTRY_ON_LOAD_CSP_SOURCE } from "../pages/deferred-entry";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

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

export default fp(
  async (app) => {
    const { publicUrl, trustedOrigins } = app.config;
    const https = publicUrl.startsWith("https://");
    // global: false, and the headers set by our own hook below: @fastify/helmet builds helmet's
    // middleware anew for every request (its options parsed, its CSP written: ~7% of the store's
    // CPU in bench:checkout). The headers depend on the configuration only, not on the request,
    // so helmet sets them once, on the first request, and every request gets the same.
    await app.register(helmet, {
      global: false,
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", "data:"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // The pages' code is the app's own files; the one inline script, by its hash, puts the
          // app's entry into a rendered page once it has loaded (pages/deferred-entry.ts).
          scriptSrc: ["'self'", ENTRY_ON_LOAD_CSP_SOURCE],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      hsts: https,
      // The OAuth round trip returns from another site; the default "same-origin" would drop the opener.
      crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
      // "no-referrer" would make browsers send `Origin: null` on the store's own posts.
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    });
    let securityHeaders: [string, string | number | string[]][] | undefined;
    app.addHook("onRequest", async (_request, reply) => {
      if (securityHeaders) {
        for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
        return;
      }
      const before = new Map(Object.entries(reply.raw.getHeaders()));
      reply.helmet();
      securityHeaders = Object.entries(reply.raw.getHeaders()).flatMap(([name, value]) =>
        value === undefined || before.get(name) === value ? [] : [[name, value] as [string, string | number | string[]]],
      );
    });

    // Requests from foreign origins never change anything (CSRF); API clients without a
    // browser send no Origin and authenticate with a bearer token.
    const trusted = new Set(trustedOrigins);
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

    // Postgres cannot store NUL in text, and nothing we take is nested deeply: refuse both as
    // invalid input before any handler (or better-auth, which recurses) sees them.
    app.addHook("preValidation", async (request) => {
      for (const part of [request.params, request.query, request.body]) {
        const problem = inspectInput(part);
        if (problem === "nul") {
          throw new ApiError(400, "VALIDATION", API_TEXT.invalidInput, {
            details: [{ path: "", message: API_TEXT.noNul }],
          });
        }
        if (problem === "deep") {
          throw new ApiError(400, "VALIDATION", API_TEXT.tooDeep, { details: [{ path: "", message: API_TEXT.tooDeep }] });
        }
      }
    });

    app.addHook("onSend", async (request, reply) => {
      if (isPersonal(request)) reply.header("cache-control", "private, no-store");
    });
  },
  { name: "toolyard-security" },
);
