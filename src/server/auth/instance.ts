import { betterAuth } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, bearer, genericOAuth, twoFactor } from "better-auth/plugins";
import type { SecondaryStorage } from "better-auth";
import type { Redis } from "ioredis";
import type { Config } from "../config";
import type { PasswordHashing } from "../app";
import type { Db } from "../db/client";
import { schema } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { storeLink, templates } from "../mail/templates";
import { ADMIN_ROLE, CUSTOMER_ROLE, roleForNewAccount } from "./roles";

export const GOOGLE_PROVIDER_ID = "google";
/** A reset link works for an hour, once (better-auth deletes the token when it is used). */
export const RESET_TOKEN_SECONDS = 60 * 60;
/** Where a verification link lands once better-auth has checked it. */
export const VERIFIED_CALLBACK = "/dashboard/profile";

function redisStorage(redis: Redis, prefix: string): SecondaryStorage {
  const namespace = `${prefix}auth:`;
  return {
    get: (key) => redis.get(namespace + key),
    getAndDelete: (key) => redis.getdel(namespace + key),
    async set(key, value, ttl) {
      if (ttl) await redis.set(namespace + key, value, "EX", ttl);
      else await redis.set(namespace + key, value);
    },
    async delete(key) {
      await redis.del(namespace + key);
    },
    async increment(key, ttl) {
      const result = await redis.multi().incr(namespace + key).expire(namespace + key, ttl, "NX").exec();
      return Number(result?.[0]?.[1] ?? 0);
    },
  };
}

/** How long the second step waits for its code after the first (the twoFactor plugin's default). */
const TWO_FACTOR_STEP_SECONDS = 10 * 60;

/** The path (and query) of a same-origin redirect target, else "/": where to go once the code is right. */
function returnPathOf(returned: unknown, publicUrl: string): string {
  // The callback's redirect: an APIError of better-call's (not the class better-auth/api exports).
  const headers = returned !== null && typeof returned === "object" && "headers" in returned ? (returned as { headers?: HeadersInit }).headers : undefined;
  if (!headers) return "/";
  const location = new Headers(headers).get("location");
  if (!location) return "/";
  const target = new URL(location, publicUrl);
  return target.origin === new URL(publicUrl).origin ? `${target.pathname}${target.search}` : "/";
}

/**
 * Google sign-in passes the same second step as a password (issue 10): the twoFactor plugin only
 * hooks the password sign-ins, so after Google's callback an account with two-step sign-in on
 * gets what the plugin gives a password sign-in (its session undone, the plugin's `two_factor`
 * cookie and records, so its verify-totp / verify-backup-code endpoints finish the sign-in) and
 * is sent to /two-factor instead of its callback URL. Trusted devices are not offered: every
 * Google sign-in of such an account asks for the code.
 */
function secondStepAfterGoogle(publicUrl: string) {
  return createAuthMiddleware(async (ctx) => {
    if (!ctx.path.startsWith("/callback/")) return;
    const signedIn = ctx.context.newSession;
    if (!signedIn?.user.twoFactorEnabled) return;
    const returnTo = returnPathOf(ctx.context.returned, publicUrl);
    deleteSessionCookie(ctx, true);
    await ctx.context.internalAdapter.deleteSession(signedIn.session.token);
    ctx.context.setNewSession(null);
    const cookie = ctx.context.createAuthCookie("two_factor", { maxAge: TWO_FACTOR_STEP_SECONDS });
    const identifier = `2fa-${generateRandomString(20)}`;
    const expiresAt = new Date(Date.now() + TWO_FACTOR_STEP_SECONDS * 1000);
    await ctx.context.internalAdapter.createVerificationValue({ value: signedIn.user.id, identifier, expiresAt });
    await ctx.context.internalAdapter.createVerificationValue({ value: "0", identifier: `2fa-attempts-${identifier}`, expiresAt });
    await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
    throw ctx.redirect(`${publicUrl}/two-factor?from=${encodeURIComponent(returnTo)}`);
  });
}

/** better-auth's own log follows LOG_LEVEL (pino's names). */
function betterAuthLogger(level: string): { disabled: boolean; level: "debug" | "warn" | "error" } {
  if (level === "silent") return { disabled: true, level: "error" };
  if (level === "error" || level === "fatal") return { disabled: false, level: "error" };
  if (level === "debug" || level === "trace") return { disabled: false, level: "debug" };
  return { disabled: false, level: "warn" };
}

export function createAuth(config: Config, db: Db, redis: Redis | undefined, passwordHashing: PasswordHashing | null = null) {
  return betterAuth({
    appName: "Toolyard",
    logger: betterAuthLogger(config.logLevel),
    baseURL: config.publicUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    database: drizzleAdapter(db, { provider: "pg", schema }),
    // Several instances share sessions through Redis; Postgres keeps the record of them.
    ...(redis ? { secondaryStorage: redisStorage(redis, config.redisKeyPrefix) } : {}),
    trustedOrigins: config.trustedOrigins,
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      // better-auth's scrypt, unless the API tests' harness asks for a cheaper one (app.ts BuildOptions).
      ...(passwordHashing ? { password: passwordHashing } : {}),
      // The form's rule (8–15) is enforced by our zod schema before better-auth sees the request.
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // Shopping never needs a verified address (linking Google does: accountLinking below).
      requireEmailVerification: false,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      // A reset ends every session: whoever knew the old password is signed out.
      revokeSessionsOnPasswordReset: true,
      // The link opens our page, which posts the token with the new password (/api/auth/reset-password),
      // then signs in with it (the e-mail in the link names the account).
      sendResetPassword: async ({ user, token }) => {
        const url = storeLink(config.publicUrl, `/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`);
        await enqueueMail(db, [{ to: user.email, ...templates.resetPassword(user.name, url) }]);
      },
      onPasswordReset: async ({ user }) => {
        await enqueueMail(db, [{ to: user.email, ...templates.passwordChanged(user.name, config.publicUrl) }]);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, token }) => {
        const url = storeLink(config.publicUrl, `/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(VERIFIED_CALLBACK)}`);
        await enqueueMail(db, [{ to: user.email, ...templates.verifyEmail(user.name, url) }]);
      },
    },
    user: {
      changeEmail: { enabled: false },
    },
    session: {
      ...(redis ? { storeSessionInDatabase: true } : {}),
      expiresIn: 60 * 60 * 24 * 14,
      updateAge: 60 * 60 * 24,
    },
    account: {
      accountLinking: {
        enabled: true,
        // Google proves the e-mail; an unverified local account is never linked (the default).
        requireLocalEmailVerified: true,
      },
    },
    // Our own limiter runs in front (per address and per e-mail, settings in config).
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: config.publicUrl.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      ipAddress: { ipAddressHeaders: ["x-forwarded-for"] },
    },
    onAPIError: { errorURL: `${config.publicUrl}/login` },
    hooks: { after: secondStepAfterGoogle(config.publicUrl) },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => ({
            data: { ...user, role: roleForNewAccount(user.email, config.adminEmails) },
          }),
        },
      },
    },
    plugins: [
      admin({ defaultRole: CUSTOMER_ROLE, adminRoles: [ADMIN_ROLE] }),
      // TOTP with ten one-use backup codes; five wrong codes in a row lock the second step for 15 minutes.
      twoFactor({
        issuer: "Toolyard",
        backupCodeOptions: { amount: 10 },
        accountLockout: { enabled: true, maxFailedAttempts: 5, durationSeconds: 15 * 60 },
        // Google's callback asks for the same second step (secondStepAfterGoogle, same cookie lifetime).
        twoFactorCookieMaxAge: TWO_FACTOR_STEP_SECONDS,
      }),
      bearer(),
      genericOAuth({
        config: config.google
          ? [
              {
                providerId: GOOGLE_PROVIDER_ID,
                clientId: config.google.clientId,
                clientSecret: config.google.clientSecret,
                discoveryUrl: config.google.discoveryUrl,
                scopes: ["openid", "email", "profile"],
                pkce: true,
              },
            ]
          : [],
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
