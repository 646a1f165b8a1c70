/**
 * Accounts customers can recover and protect (issue 10), against a real SMTP server started by
 * the test: forgot/reset, verification, lowercase e-mails, two-factor sign-in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkIn, startSmtpStandIn, type SmtpStandIn } from "../../../tests/support/smtp";
import { totp } from "../../../tests/support/totp";
import { MAIL_TEXT } from "../../contract/texts/mail";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const PUBLIC_URL = "http://localhost:3999";

describe.each(drivers())("account recovery and protection on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpStandIn;

  const deliver = async () => {
    for (let i = 0; i < 10 && (await t.app.mail.worker.runOnce()) > 0; i++);
  };
  const signedUp = async (address = "10.60.0.1") => {
    const email = uniqueEmail("owner");
    const c = new Client(t.app, address);
    expect((await c.signUp("Owner", email)).statusCode).toBe(200);
    return { c, email };
  };
  const resetLink = async (email: string) => {
    await deliver();
    const mail = await smtp.waitFor(email, "Reset your Toolyard password");
    return new URL(linkIn(mail, `${PUBLIC_URL}/reset-password?token=`));
  };

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    t = await startTestApp(driver, { SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000" });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("forgot password: the same answer for a known and an unknown e-mail; only the owner gets a link", async () => {
    const { email } = await signedUp();
    const unknown = uniqueEmail("nobody");
    const ask = (e: string) => new Client(t.app, "10.61.0.1").post("/api/auth/request-password-reset", { email: e, redirectTo: "/reset-password" });
    const t0 = Date.now();
    const known = await ask(email);
    const t1 = Date.now();
    const other = await ask(unknown);
    const t2 = Date.now();
    expect(known.statusCode).toBe(200);
    expect(other.statusCode).toBe(known.statusCode);
    expect(other.body).toBe(known.body);
    // Both wait for the same floor, so timing says nothing either.
    expect(t1 - t0).toBeGreaterThanOrEqual(395);
    expect(t2 - t1).toBeGreaterThanOrEqual(395);
    const link = await resetLink(email);
    expect(link.origin).toBe(PUBLIC_URL);
    expect(smtp.to(unknown)).toHaveLength(0);
  });

  it("a sign-up with a taken e-mail tells the account's owner, once per window, with a way in", async () => {
    const { email } = await signedUp();
    for (const address of ["10.62.0.1", "10.62.0.2"]) {
      const again = await new Client(t.app, address).signUp("Someone Else", email.toUpperCase());
      // The spec's sign-up still names the taken address (it signs a new customer in at once).
      expect(again.statusCode).toBe(422);
    }
    await deliver();
    const subject = MAIL_TEXT.existingSignup.subject;
    const mail = await smtp.waitFor(email, subject);
    expect(mail.text).toContain(MAIL_TEXT.greeting("Owner"));
    expect(linkIn(mail, `${PUBLIC_URL}/login`)).toBe(`${PUBLIC_URL}/login`);
    expect(linkIn(mail, `${PUBLIC_URL}/forgot-password`)).toBe(`${PUBLIC_URL}/forgot-password`);
    // Two tries within the window, one message.
    expect(smtp.to(email).filter((m) => m.subject === subject)).toHaveLength(1);
    // A sign-up with a new address sends no such mail.
    const fresh = uniqueEmail("fresh");
    expect((await new Client(t.app, "10.62.0.3").signUp("Fresh", fresh)).statusCode).toBe(200);
    await deliver();
    expect(smtp.to(fresh).filter((m) => m.subject === subject)).toHaveLength(0);
  });

  it("reset: the password rule applies, the link works once, every session ends, the new password signs in", async () => {
    const { c, email } = await signedUp();
    const other = new Client(t.app, "10.60.0.9");
    expect((await other.signIn(email)).statusCode).toBe(200);
    await new Client(t.app, "10.62.0.1").post("/api/auth/request-password-reset", { email, redirectTo: "/reset-password" });
    const token = (await resetLink(email)).searchParams.get("token") as string;
    const browser = new Client(t.app, "10.62.0.2");
    const weak = await browser.post("/api/auth/reset-password", { token, newPassword: "weak" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toMatch(/at least 8/);
    expect((await browser.post("/api/auth/reset-password", { token, newPassword: "N3w!passw" })).statusCode).toBe(200);
    // Used once: a second use fails and changes nothing.
    const again = await browser.post("/api/auth/reset-password", { token, newPassword: "Oth3r!pass" });
    expect(again.statusCode).toBe(400);
    expect((await browser.post("/api/auth/reset-password", { token: "forged-token", newPassword: "Oth3r!pass" })).statusCode).toBe(400);
    // Every old session has ended.
    for (const old of [c, other]) expect((await old.get("/api/auth/get-session")).json()).toBeNull();
    expect((await new Client(t.app, "10.62.0.3").signIn(email)).statusCode).toBe(401);
    expect((await new Client(t.app, "10.62.0.4").signIn(email, "N3w!passw")).statusCode).toBe(200);
    await deliver();
    await smtp.waitFor(email, "password was changed");
  });

  it("limits reset requests per e-mail and per address", async () => {
    const { email } = await signedUp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await new Client(t.app, `10.63.0.${i + 1}`).post("/api/auth/request-password-reset", { email })).statusCode);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it("verification: a link at sign-up; opening it verifies the address; the profile can send it again", async () => {
    const { c, email } = await signedUp();
    await deliver();
    const mail = await smtp.waitFor(email, "Confirm your e-mail");
    const link = new URL(linkIn(mail, `${PUBLIC_URL}/api/auth/verify-email?token=`));
    expect((await c.get("/api/auth/get-session")).json().user.emailVerified).toBe(false);
    expect((await c.post("/api/auth/send-verification-email", { email, callbackURL: "/dashboard/profile" })).statusCode).toBe(200);
    await deliver();
    await expect.poll(() => smtp.to(email).filter((m) => m.subject.includes("Confirm")).length).toBe(2);
    const opened = await c.get(`${link.pathname}${link.search}`);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toContain("/dashboard/profile");
    expect((await c.get("/api/auth/get-session")).json().user.emailVerified).toBe(true);
    const forged = await c.get("/api/auth/verify-email?token=forged&callbackURL=%2Fdashboard%2Fprofile");
    expect(forged.headers.location).toContain("error=");
  });

  it("stores and compares e-mails lowercase: ADMIN@Example.com signs in", async () => {
    const local = `Mixed${Date.now().toString(36)}`;
    const c = new Client(t.app, "10.64.0.1");
    expect((await c.signUp("Mixed", `${local}@Example.com`)).statusCode).toBe(200);
    expect((await c.get("/api/auth/get-session")).json().user.email).toBe(`${local.toLowerCase()}@example.com`);
    expect((await new Client(t.app, "10.64.0.2").signIn(`${local.toUpperCase()}@EXAMPLE.COM`)).statusCode).toBe(200);
  });

  it("two-factor: set up with a code, then sign-in asks for a code; wrong codes are throttled; a backup code works once", async () => {
    const { c, email } = await signedUp("10.65.0.1");
    const enabled = await c.post("/api/auth/two-factor/enable", { password: "Str0ng!pass" });
    expect(enabled.statusCode).toBe(200);
    const { totpURI, backupCodes } = enabled.json() as { totpURI: string; backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    const secret = new URL(totpURI).searchParams.get("secret") as string;
    expect((await c.post("/api/auth/two-factor/verify-totp", { code: totp(secret) })).statusCode).toBe(200);
    expect((await c.get("/api/auth/get-session")).json().user.twoFactorEnabled).toBe(true);

    // The password alone no longer signs in.
    const device = new Client(t.app, "10.65.0.2");
    const first = await device.signIn(email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ twoFactorRedirect: true });
    expect((await device.get("/api/auth/get-session")).json()).toBeNull();
    expect((await device.post("/api/auth/two-factor/verify-totp", { code: "000000" })).statusCode).toBe(401);
    expect((await device.post("/api/auth/two-factor/verify-totp", { code: totp(secret) })).statusCode).toBe(200);
    expect((await device.get("/api/auth/get-session")).json().user.email).toBe(email);

    // A backup code works once.
    const code = backupCodes[0] as string;
    const second = new Client(t.app, "10.65.0.3");
    await second.signIn(email);
    expect((await second.post("/api/auth/two-factor/verify-backup-code", { code })).statusCode).toBe(200);
    const third = new Client(t.app, "10.65.0.4");
    await third.signIn(email);
    expect((await third.post("/api/auth/two-factor/verify-backup-code", { code })).statusCode).toBe(401);

    // Five wrong codes lock the second step, even for the right code.
    const guesser = new Client(t.app, "10.65.0.5");
    await guesser.signIn(email);
    for (let i = 0; i < 5; i++) await guesser.post("/api/auth/two-factor/verify-totp", { code: String(100000 + i) });
    const locked = await guesser.post("/api/auth/two-factor/verify-totp", { code: totp(secret) });
    expect(locked.statusCode).toBeGreaterThanOrEqual(400);
  });
});
