import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_ERRORS } from "../../contract/texts/auth";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import { mailOutbox, user } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { syncAdminRoles } from "./roles";

const ADMIN = "boss@toolyard.example";

describe.each(drivers())("accounts API on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    // The shop's default limits: the tests below show they stop guessing, not customers.
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("signs up with a display name, signs in at once, in an httpOnly SameSite=Lax cookie", async () => {
    const c = new Client(t.app);
    const email = uniqueEmail("ada");
    const res = await c.signUp("Ada Lovelace", email);
    expect(res.statusCode).toBe(200);
    const cookie = [res.headers["set-cookie"]].flat().find((l) => l?.includes("session_token"));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/);
    const session = await c.get("/api/auth/get-session");
    expect(session.json().user).toMatchObject({ name: "Ada Lovelace", email, role: "user" });
  });

  it.each([
    [{ name: "", email: "a@example.com", password: "Str0ng!pass" }, VALIDATION_TEXT.nameRequired],
    [{ name: "A", email: "", password: "Str0ng!pass" }, VALIDATION_TEXT.emailRequired],
    [{ name: "A", email: "nope", password: "Str0ng!pass" }, VALIDATION_TEXT.emailInvalid],
    [{ name: "A", email: "a@example.com", password: "" }, VALIDATION_TEXT.passwordRequired],
    [{ name: "A", email: "a@example.com", password: "weakpassword" }, VALIDATION_TEXT.passwordRule],
    [{ name: "A", email: "a@example.com", password: "Way2Long!Password" }, VALIDATION_TEXT.passwordRule],
  ])("rejects sign-up %o with the spec's message", async (body, message) => {
    const res = await new Client(t.app).post("/api/auth/sign-up/email", body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: "VALIDATION", message });
  });

  it("validates the login form on the server too", async () => {
    const res = await new Client(t.app).post("/api/auth/sign-in/email", { email: "", password: "" });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message)).toEqual([
      VALIDATION_TEXT.emailRequired,
      VALIDATION_TEXT.passwordRequired,
    ]);
  });

  it("answers a taken e-mail with a clear code", async () => {
    const email = uniqueEmail("dup");
    expect((await new Client(t.app).signUp("One", email)).statusCode).toBe(200);
    const again = await new Client(t.app).signUp("Two", email);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toMatch(/^USER_ALREADY_EXISTS/);
  });

  it("gives the same answer for a wrong password and an unknown account", async () => {
    const email = uniqueEmail("known");
    await new Client(t.app).signUp("Known", email);
    const wrong = await new Client(t.app).signIn(email, "Wr0ng!pass");
    const unknown = await new Client(t.app).signIn(uniqueEmail("ghost"), "Wr0ng!pass");
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  it("logs in, and sign-out ends the session on the server", async () => {
    const email = uniqueEmail("out");
    await new Client(t.app).signUp("Out", email);
    const c = new Client(t.app);
    expect((await c.signIn(email)).statusCode).toBe(200);
    const stolen = c.cookieHeader();
    expect((await c.get("/api/auth/get-session")).json().user.email).toBe(email);
    // A protected route has seen (and remembered) the session before the sign-out.
    expect((await c.get("/api/me/profile")).statusCode).toBe(200);
    expect((await c.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    const protectedReplay = await t.app.inject({ method: "GET", url: "/api/me/profile", headers: { cookie: stolen } });
    expect(protectedReplay.statusCode).toBe(401);
    // The old cookie, replayed, is no longer a session.
    const replay = await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie: stolen } });
    expect(replay.json()).toBeNull();
  });

  it("answers a brute force from one device with 429 after 5 tries a minute (per e-mail and address)", async () => {
    const email = uniqueEmail("victim");
    await new Client(t.app).signUp("Victim", email);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await new Client(t.app, "10.1.0.1").signIn(email, `Wr0ng!pass${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const res = await new Client(t.app, "10.1.0.1").signIn(email, "Wr0ng!passX");
    expect(res.json()).toEqual({ error: "RATE_LIMITED", message: AUTH_ERRORS.tooManyRequests });
    // The guesser's device waits, even with the right password: it cannot tell it was right...
    expect((await new Client(t.app, "10.1.0.1").signIn(email)).statusCode).toBe(429);
    // ...while the owner's own device is never locked out.
    expect((await new Client(t.app, "10.1.0.98").signIn(email)).statusCode).toBe(200);
  });

  it("slows down guesses at one account from many addresses, mails the owner once, and still lets the owner in", async () => {
    const email = uniqueEmail("spread");
    await new Client(t.app).signUp("Spread", email);
    // AUTH_RATE_LIMIT_ACCOUNT_MAX (10) failures from ten addresses pass at full speed...
    for (let i = 0; i < 10; i++) expect((await new Client(t.app, `10.1.1.${i + 1}`).signIn(email, `Wr0ng!pass${i}`)).statusCode).toBe(401);
    // ...the next ones are served one at a time, a second apart: never refused.
    const started = Date.now();
    const results = await Promise.all([1, 2, 3].map((i) => new Client(t.app, `10.1.2.${i}`).signIn(email, `Wr0ng!pass${i}`)));
    expect(results.map((r) => r.statusCode)).toEqual([401, 401, 401]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    const right = await new Client(t.app, "10.1.3.1").signIn(email);
    expect(right.statusCode).toBe(200);
    const alerts = (await t.app.store.db.select().from(mailOutbox)).filter((m) => m.to === email && m.kind === "failed-sign-ins");
    expect(alerts).toHaveLength(1);
  });

  it("counts a burst of parallel guesses from one device before any of them fails", async () => {
    const email = uniqueEmail("burst");
    await new Client(t.app).signUp("Burst", email);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => new Client(t.app, "10.2.0.1").signIn(email, `Wr0ng!pass${i}`)));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });

  it("never counts successful sign-ins and sign-ups against the limits", async () => {
    const email = uniqueEmail("regular");
    const address = "10.3.0.1";
    expect((await new Client(t.app, address).signUp("Regular", email)).statusCode).toBe(200);
    for (let i = 0; i < 40; i++) expect((await new Client(t.app, address).signIn(email)).statusCode, `sign-in ${i}`).toBe(200);
    for (let i = 0; i < 40; i++) {
      expect((await new Client(t.app, address).signUp(`New ${i}`, uniqueEmail("many"))).statusCode, `sign-up ${i}`).toBe(200);
    }
    // A typo now and then is fine too.
    expect((await new Client(t.app, address).signIn(email, "Typ0!pass")).statusCode).toBe(401);
    expect((await new Client(t.app, address).signIn(email)).statusCode).toBe(200);
    // 82 password hashings one after the other: about 15 s on a quiet machine, 30 s in a busy CI.
  }, 90_000);

  it("lets many people sign up at once from one address; failed sign-ups count against it", async () => {
    const address = "10.8.0.1";
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => new Client(t.app, address).signUp(`Crowd ${i}`, uniqueEmail("crowd"))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array.from({ length: 60 }, () => 200));
    const taken = uniqueEmail("taken");
    expect((await new Client(t.app, "10.8.0.2").signUp("Taken", taken)).statusCode).toBe(200);
    // Each failure below is for a different e-mail, so only the address budget can stop them.
    const statuses: number[] = [];
    for (let i = 0; i < 29; i++) statuses.push((await new Client(t.app, address).signIn(uniqueEmail("miss"), "Wr0ng!pass")).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    // The 30th failure is a sign-up with an e-mail that is taken...
    expect((await new Client(t.app, address).signUp("Again", taken)).statusCode).toBe(422);
    // ...and then the address has used its budget, for sign-ups and sign-ins alike.
    expect((await new Client(t.app, address).signUp("New", uniqueEmail("late"))).statusCode).toBe(429);
    expect((await new Client(t.app, address).signIn(taken)).statusCode).toBe(429);
    expect((await new Client(t.app, "10.8.0.3").signIn(taken)).statusCode).toBe(200);
    // About 90 password hashings: 30 s was not enough on a CI machine that also runs the built stores.
  }, 90_000);

  it("limits failed attempts per client address across e-mails", async () => {
    const address = "10.4.0.1";
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await new Client(t.app, address).signIn(uniqueEmail("spray"), "Wr0ng!pass")).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    // Another address is not affected.
    expect((await new Client(t.app, "10.4.0.2").signIn(uniqueEmail("spray"), "Wr0ng!pass")).statusCode).toBe(401);
  });

  it("accepts clients without a browser: no Origin header, cookies kept between calls", async () => {
    const email = uniqueEmail("curl");
    const c = new Client(t.app, "10.5.0.1", null);
    expect((await c.signUp("Curl", email)).statusCode).toBe(200);
    expect((await c.signIn(email)).statusCode).toBe(200);
    expect((await c.get("/api/auth/get-session")).json().user.email).toBe(email);
    expect((await c.post("/api/review", { name: "Curl", rating: 4, description: "From a script" })).statusCode).toBe(201);
    expect((await c.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    expect((await c.get("/api/auth/get-session")).json()).toBeNull();
  });

  it("takes every loopback spelling of the store's own origin", async () => {
    for (const origin of ["http://127.0.0.1:3999", "http://[::1]:3999"]) {
      const c = new Client(t.app, "10.6.0.1", origin);
      const res = await c.signUp("Loop", uniqueEmail("loop"));
      expect(res.statusCode, origin).toBe(200);
      expect((await c.post("/api/auth/sign-out", {})).statusCode, origin).toBe(200);
    }
    const otherPort = await new Client(t.app, "10.6.0.2", "http://127.0.0.1:4000").signUp("Loop", uniqueEmail("loop"));
    expect(otherPort.statusCode).toBe(403);
  });

  it("refuses state-changing requests from foreign origins", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-in/email",
      headers: { origin: "https://evil.example" },
      payload: { email: "a@example.com", password: "Str0ng!pass" },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe("FOREIGN_ORIGIN");
    const crossSite = await t.app.inject({
      method: "POST",
      url: "/api/review",
      headers: { "sec-fetch-site": "cross-site" },
      payload: {},
    });
    expect(crossSite.statusCode).toBe(403);
    const nullCrossSite = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { origin: "null", "sec-fetch-site": "cross-site" },
      payload: {},
    });
    expect(nullCrossSite.statusCode).toBe(403);
    // `Origin: null` from the store's own page (a strict referrer policy) is still its own.
    const nullSameOrigin = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      headers: { origin: "null", "sec-fetch-site": "same-origin" },
      remoteAddress: "10.7.0.1",
      payload: { name: "Null", email: uniqueEmail("null"), password: "Str0ng!pass" },
    });
    expect(nullSameOrigin.statusCode).toBe(200);
  });

  it("reports Google sign-in as not configured when it is not", async () => {
    const res = await new Client(t.app).post("/api/auth/sign-in/social", { provider: "google", callbackURL: "/" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe("PROVIDER_NOT_FOUND");
    // The pages learn it beforehand, to say so in place.
    expect((await t.app.inject({ method: "GET", url: "/api/sign-in-options" })).json()).toEqual({ google: false });
  });

  describe("PUT /api/user/:email", () => {
    it("gives the signed-in user a bearer token for their own e-mail only", async () => {
      const email = uniqueEmail("tok");
      const c = new Client(t.app);
      await c.signUp("Tok", email);
      const res = await c.put(`/api/user/${encodeURIComponent(email)}`, { email });
      expect(res.statusCode).toBe(200);
      const { token } = res.json();
      expect(typeof token).toBe("string");
      const viaBearer = await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { authorization: `Bearer ${token}` } });
      expect(viaBearer.json().user.email).toBe(email);
      const review = await t.app.inject({
        method: "POST",
        url: "/api/review",
        headers: { authorization: `Bearer ${token}` },
        payload: { name: "Tok", rating: 5, description: "Via the API" },
      });
      expect(review.statusCode).toBe(201);

      const other = await c.put(`/api/user/${encodeURIComponent("someone@example.com")}`, { email: "someone@example.com" });
      expect(other.statusCode).toBe(403);
      const mismatch = await c.put(`/api/user/${encodeURIComponent(email)}`, { email: "someone@example.com" });
      expect(mismatch.statusCode).toBe(403);
    });

    it("answers 401 when signed out", async () => {
      const res = await new Client(t.app).put("/api/user/a%40example.com", { email: "a@example.com" });
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe("UNAUTHORIZED");
    });

    it("rejects a forged bearer token", async () => {
      const res = await t.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { authorization: "Bearer forged.token" } });
      expect(res.json()).toBeNull();
    });
  });

  describe("admin role", () => {
    it("is granted on sign-up to ADMIN_EMAILS and guards tool writes", async () => {
      const admin = new Client(t.app);
      await admin.signUp("Boss", ADMIN);
      expect((await admin.get("/api/auth/get-session")).json().user.role).toBe("admin");
      const customer = new Client(t.app);
      await customer.signUp("Customer", uniqueEmail("cust"));
      const tool = {
        name: "Test Mallet",
        image: "/images/tools/claw-hammer.svg",
        price: 12.5,
        availableQuantity: 10,
        minimumQuantity: 1,
        description: "A rubber mallet.",
        category: "hand-tools",
      };
      expect((await customer.post("/api/tool", tool)).statusCode).toBe(403);
      const created = await admin.post("/api/tool", tool);
      expect(created.statusCode).toBe(201);
      const id = created.json()._id;
      expect((await customer.put(`/api/tool/${id}`, { availableQuantity: 0 })).statusCode).toBe(403);
      expect((await customer.delete(`/api/tool/${id}`)).statusCode).toBe(403);
      expect((await admin.put(`/api/tool/${id}`, { price: 13 })).json().price).toBe(13);
      expect((await admin.delete(`/api/tool/${id}`)).statusCode).toBe(204);
      expect((await t.app.inject({ method: "GET", url: `/api/tool/${id}` })).statusCode).toBe(404);
    });

    it("is granted at start-up to existing accounts named in ADMIN_EMAILS", async () => {
      const email = uniqueEmail("later");
      await new Client(t.app).signUp("Later", email);
      await syncAdminRoles(t.app.store.db, [email]);
      const [row] = await t.app.store.db.select({ role: user.role }).from(user).where(eq(user.email, email));
      expect(row?.role).toBe("admin");
    });
  });
});

describe("secure cookies", () => {
  it("are Secure when PUBLIC_URL is https", async () => {
    const t = await startTestApp("pglite", { PUBLIC_URL: "https://shop.example" });
    try {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-up/email",
        headers: { origin: "https://shop.example" },
        payload: { name: "S", email: uniqueEmail("sec"), password: "Str0ng!pass" },
      });
      expect(res.statusCode).toBe(200);
      const cookie = [res.headers["set-cookie"]].flat().find((l) => l?.includes("session_token"));
      expect(cookie).toMatch(/; Secure/i);
    } finally {
      await t.close();
    }
  });
});

describe("client addresses behind a proxy", () => {
  /** 31 failed sign-ins, each claiming a different client in X-Forwarded-For; the statuses of the last two. */
  async function spray(t: TestApp): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/sign-in/email",
        remoteAddress: "127.0.0.1",
        headers: { origin: "http://localhost:3999", "x-forwarded-for": `203.0.113.${i + 1}` },
        payload: { email: uniqueEmail("proxied"), password: "Wr0ng!pass" },
      });
      statuses.push(res.statusCode);
    }
    return statuses.slice(30);
  }

  it("are read from X-Forwarded-For with TRUST_PROXY, so clients behind the proxy do not share a budget", async () => {
    const t = await startTestApp("pglite", { TRUST_PROXY: "1" });
    try {
      expect(await spray(t)).toEqual([401, 401]);
    } finally {
      await t.close();
    }
  });

  it("ignore X-Forwarded-For without TRUST_PROXY, so a client cannot pick its own address", async () => {
    const t = await startTestApp("pglite");
    try {
      expect(await spray(t)).toEqual([429, 429]);
    } finally {
      await t.close();
    }
  });
});
