/**
 * Google sign-in passes the same second step as a password (issue 10): an account with
 * two-step sign-in on that comes back from Google (the OpenID stand-in) gets no session until
 * its code is right.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, googleLogin } from "../../../tests/support/google-login";
import { OIDC_CLIENT, startOidcProvider } from "../../../tests/support/oidc";
import { totp } from "../../../tests/support/totp";
import { Client, drivers, ORIGIN, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const PASSWORD = "Str0ng!pass";

describe.each(drivers())("two-step sign-in after Google on %s", (driver) => {
  let t: TestApp;
  let oidc: { close: () => Promise<void> };

  const sessionOf = async (c: Client) => (await c.get("/api/auth/get-session")).json() as { user: { email: string } } | null;

  /** A password account with a verified e-mail (so Google may link to it) and two-step sign-in on. */
  const protectedAccount = async (address: string) => {
    const email = uniqueEmail("twostep");
    const c = new Client(t.app, address);
    expect((await c.signUp("Two Step", email)).statusCode).toBe(200);
    await t.app.store.db.execute(sql`update "user" set email_verified = true where email = ${email}`);
    const enabled = await c.post("/api/auth/two-factor/enable", { password: PASSWORD });
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
    const secret = new URL(totpURI).searchParams.get("secret") as string;
    expect((await c.post("/api/auth/two-factor/verify-totp", { code: totp(secret) })).statusCode).toBe(200);
    return { email, secret, backupCodes };
  };

  beforeAll(async () => {
    const port = await freePort();
    const provider = await startOidcProvider(port, ORIGIN);
    oidc = provider;
    t = await startTestApp(driver, {
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_DISCOVERY_URL: `${provider.issuer}/.well-known/openid-configuration`,
    });
  });
  afterAll(async () => {
    await t?.close();
    await oidc?.close();
  });

  it("sends an account with two-step sign-in to the code page, with no session until the code is right", async () => {
    const { email, secret } = await protectedAccount("10.80.0.1");
    const device = new Client(t.app, "10.80.0.2");
    // The browser's call names the page to return to as an absolute URL (features/auth/api.ts).
    const back = await googleLogin(device, ORIGIN, email, `${ORIGIN}/dashboard/profile`);
    expect(back.status).toBe(302);
    expect(back.location).toBe(`${ORIGIN}/two-factor?from=${encodeURIComponent("/dashboard/profile")}`);
    expect(await sessionOf(device)).toBeNull();
    expect(await t.app.store.db.execute(sql`select 1 from session s join "user" u on u.id = s.user_id where u.email = ${email}`).then((r) => (r as unknown as { rows: unknown[] }).rows)).toHaveLength(1);

    expect((await device.post("/api/auth/two-factor/verify-totp", { code: "000000" })).statusCode).toBe(401);
    expect(await sessionOf(device)).toBeNull();
    expect((await device.post("/api/auth/two-factor/verify-totp", { code: totp(secret) })).statusCode).toBe(200);
    expect((await sessionOf(device))?.user.email).toBe(email);
  });

  it("takes a backup code after Google, once", async () => {
    const { email, backupCodes } = await protectedAccount("10.80.1.1");
    const code = backupCodes[0] as string;
    const first = new Client(t.app, "10.80.1.2");
    expect((await googleLogin(first, ORIGIN, email)).location).toContain("/two-factor?");
    expect((await first.post("/api/auth/two-factor/verify-backup-code", { code })).statusCode).toBe(200);
    expect((await sessionOf(first))?.user.email).toBe(email);
    const second = new Client(t.app, "10.80.1.3");
    await googleLogin(second, ORIGIN, email);
    expect((await second.post("/api/auth/two-factor/verify-backup-code", { code })).statusCode).toBe(401);
    expect(await sessionOf(second)).toBeNull();
  });

  it("lets an account without two-step sign-in straight in", async () => {
    const email = uniqueEmail("plain");
    const device = new Client(t.app, "10.80.2.1");
    const back = await googleLogin(device, ORIGIN, email);
    expect(back).toEqual({ status: 302, location: "/" });
    expect((await sessionOf(device))?.user.email).toBe(email);
  });
});
