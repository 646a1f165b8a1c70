import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { loadConfig } from "../config";

/** The security headers (helmet's), whatever else a response carries. */
const SECURITY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];
const securityHeadersOf = (headers: Record<string, unknown>) => Object.fromEntries(SECURITY_HEADERS.flatMap((name) => (name in headers ? [[name, headers[name]]] : [])));

describe.each([
  ["http", "http://localhost:3999"],
  ["https", "https://shop.example"],
])("security headers on %s", (scheme, publicUrl) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "s".repeat(40), DATA_DIR: "memory://", SEED: "false", PUBLIC_URL: publicUrl });
    app = await buildApp(config);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("are set on every answer, the same each time (set by helmet once, then copied)", async () => {
    const first = securityHeadersOf((await app.inject({ url: "/api/tool" })).headers);
    expect(first).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "SAMEORIGIN",
      "cross-origin-opener-policy": "same-origin-allow-popups",
      "referrer-policy": "strict-origin-when-cross-origin",
    });
    const csp = String(first["content-security-policy"]);
    for (const directive of ["default-src 'self'", "img-src 'self' data:", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp.includes("upgrade-insecure-requests")).toBe(scheme === "https");
    expect("strict-transport-security" in first).toBe(scheme === "https");

    // An API answer, a refusal, a missing route and a page: the same headers.
    for (const request of [{ url: "/api/tool" }, { url: "/api/cart" }, { url: "/api/nothing-here" }, { url: "/tools" }, { method: "POST" as const, url: "/api/checkout", payload: {} }]) {
      const res = await app.inject(request);
      expect(securityHeadersOf(res.headers), `${request.url} (${res.statusCode})`).toEqual(first);
    }
  });
});
