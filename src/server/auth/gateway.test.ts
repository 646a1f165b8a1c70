/**
 * The auth gateway and the outage rules (issue 14), over real HTTP where the exact bytes of
 * the path matter: app.inject() normalises a URL before the server sees it, curl
 * --path-as-is and node's http client do not.
 */
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TEXT } from "../../contract/texts/api";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import { session, user } from "../db/schema";
import { Client, drivers, ORIGIN, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { canonicalAuthPath } from "./gateway";

function post(port: number, path: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), origin: ORIGIN, ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Every spelling an outside probe used, and more, of paths better-auth would route to sign-in or sign-up. */
const SPELLINGS = [
  "/api/auth/./sign-in/email",
  "/api/auth/%2e/sign-in/email",
  "/api/auth/%2E/sign-in/email",
  "/api/auth/sign-in/./email",
  "/api/auth/x/../sign-in/email",
  "/api/auth/x/%2e%2e/sign-in/email",
  "/api/auth/%2E%2E/auth/sign-in/email",
  "/api/auth//sign-in/email",
  "/api/auth/sign-in//email",
  "/api/auth/sign-in/email/",
  "/api/auth/sign-in/email/.",
  "/api/auth/%73ign-in/email",
  "/api/auth/sign-in%2femail",
];

describe("canonicalAuthPath", () => {
  it("keeps canonical paths and their query", () => {
    expect(canonicalAuthPath("/api/auth/sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(canonicalAuthPath("/api/auth/callback/google?code=1&state=..%2F")).toBe("/api/auth/callback/google");
    expect(canonicalAuthPath("/api/auth/admin/set-role")).toBe("/api/auth/admin/set-role");
  });
  it.each(SPELLINGS)("refuses %s", (path) => {
    expect(canonicalAuthPath(path)).toBeUndefined();
  });
});

describe.each(drivers())("the auth gateway on %s", (driver) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp(driver);
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses every non-canonical spelling of sign-in with 400, and the real path still counts every guess", async () => {
    const email = uniqueEmail("victim");
    expect((await new Client(t.app).signUp("Victim", email)).statusCode).toBe(200);
    const guess = JSON.stringify({ email, password: "Wr0ng!pass" });
    for (const path of SPELLINGS) {
      for (let i = 0; i < 3; i++) {
        const res = await post(port, path, guess, { "x-probe": path });
        expect(res.status, path).toBe(400);
        expect(JSON.parse(res.body), path).toEqual({ error: "BAD_PATH", message: API_TEXT.badPath });
      }
    }
    // None of those reached better-auth, and none spent the budget: the normal path counts 5, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(port, "/api/auth/sign-in/email", guess)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("lets no spelling of sign-up skip its rules", async () => {
    const weak = JSON.stringify({ name: "", email: "WEAK@T.IO", password: "aaaaaaaa" });
    for (const path of ["/api/auth/./sign-up/email", "/api/auth/%2e/sign-up/email", "/api/auth/sign-up/./email", "/api/auth/x/../sign-up/email"]) {
      expect((await post(port, path, weak)).status, path).toBe(400);
    }
    const direct = await post(port, "/api/auth/sign-up/email", weak);
    expect(direct.status).toBe(400);
    expect(JSON.parse(direct.body).message).toBe(VALIDATION_TEXT.nameRequired);
    const made = await t.app.store.db.select().from(user).where(sql`lower(${user.email}) = 'weak@t.io'`);
    expect(made).toHaveLength(0);
  });

  it("answers a 429 with Retry-After", async () => {
    const email = uniqueEmail("retry");
    let last = await post(port, "/api/auth/sign-in/email", JSON.stringify({ email, password: "Wr0ng!pass" }));
    for (let i = 0; i < 5; i++) last = await post(port, "/api/auth/sign-in/email", JSON.stringify({ email, password: "Wr0ng!pass" }));
    expect(last.status).toBe(429);
    const seconds = Number(last.headers["retry-after"]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
  });

  it("applies the sign-up name rule to update-user, trims it, and forgets the remembered session's old name", async () => {
    const c = new Client(t.app, "10.14.0.1");
    await c.signUp("Before", uniqueEmail("rename"));
    expect((await c.get("/api/me/profile")).json().displayName).toBe("Before");
    const long = await c.post("/api/auth/update-user", { name: "x".repeat(20_000) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe(VALIDATION_TEXT.tooLong(80));
    for (const name of ["", "   "]) {
      const blank = await c.post("/api/auth/update-user", { name });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toBe(VALIDATION_TEXT.nameRequired);
    }
    const ok = await c.post("/api/auth/update-user", { name: "  After  " });
    expect(ok.statusCode).toBe(200);
    expect((await c.get("/api/me/profile")).json().displayName).toBe("After");
  });

  it("applies the password rule to a new password", async () => {
    const c = new Client(t.app, "10.14.0.2");
    await c.signUp("Pw", uniqueEmail("pw"));
    const res = await c.post("/api/auth/change-password", { currentPassword: "Str0ng!pass", newPassword: "weakpassword" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(VALIDATION_TEXT.passwordRule);
  });

  it.each(["sign-out", "update-user", "change-password", "revoke-session", "admin/set-role", "sign-in/email"])(
    "answers deeply nested JSON to /api/auth/%s with 400",
    async (endpoint) => {
      const c = new Client(t.app, "10.14.0.3");
      await c.signUp("Deep", uniqueEmail("deep"));
      const nested = `{"name":${"[".repeat(5000)}${"]".repeat(5000)}}`;
      const res = await c.request({ method: "POST", url: `/api/auth/${endpoint}`, payload: nested, headers: { "content-type": "application/json" } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "VALIDATION", message: API_TEXT.tooDeep });
    },
  );

  it("answers deeply nested JSON to any other route with 400 too", async () => {
    const c = new Client(t.app, "10.14.0.6");
    await c.signUp("Deep", uniqueEmail("deep"));
    const nested = `{"name":"Deep","rating":5,"description":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const res = await c.request({ method: "POST", url: "/api/review", payload: nested, headers: { "content-type": "application/json" } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(API_TEXT.tooDeep);
  });

  it("marks personal answers private, no-store, and leaves the public catalogue cacheable", async () => {
    const c = new Client(t.app, "10.14.0.4");
    const email = uniqueEmail("private");
    await c.signUp("Private", email);
    const personal = [
      await c.get("/api/me/profile"),
      await new Client(t.app).get("/api/me/profile"),
      await c.get("/api/order"),
      await c.get("/api/order/nope"),
      await c.delete("/api/order/nope"),
      await c.get("/api/auth/get-session"),
      await c.put(`/api/user/${encodeURIComponent(email)}`, { email }),
    ];
    for (const res of personal) expect(res.headers["cache-control"], res.raw.req.url).toBe("private, no-store");
    expect((await c.get("/api/cart")).headers["cache-control"]).toBe("private, no-store");
    expect((await c.get("/api/tool")).headers["cache-control"] ?? "").not.toMatch(/private|no-store/);
  });

  it("hands API clients the caller's own session: no new session per call, and signing out ends it", async () => {
    const c = new Client(t.app, "10.14.0.5");
    const email = uniqueEmail("bearer");
    await c.signUp("Bearer", email);
    const [owner] = await t.app.store.db.select().from(user).where(eq(user.email, email));
    if (!owner) throw new Error("no user");
    const sessionsOf = async () => (await t.app.store.db.select().from(session).where(eq(session.userId, owner.id))).length;
    const before = await sessionsOf();
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) tokens.add((await c.put(`/api/user/${encodeURIComponent(email)}`, { email })).json().token);
    expect(tokens.size).toBe(1);
    expect(await sessionsOf()).toBe(before);
    const [token] = [...tokens];
    const asBearer = () => t.app.inject({ method: "GET", url: "/api/me/profile", headers: { authorization: `Bearer ${token}` } });
    expect((await asBearer()).statusCode).toBe(200);
    expect((await c.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    expect((await asBearer()).statusCode).toBe(401);
  });
});
