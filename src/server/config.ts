/**
 * Environment → typed configuration. Every variable is optional for a local run;
 * a bad value stops the start with one line that names the variable.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { RETURN_DAYS } from "../contract/constants";

export interface RateLimitSettings {
  /** Requests allowed per window; 0 turns the limit off. */
  max: number;
  windowMs: number;
}

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  discoveryUrl: string;
}

export interface MailSettings {
  smtpUrl: string | undefined;
  from: string;
  /** How often the worker looks for due mail (ms). */
  pollMs: number;
  /** Attempts before a message is given up as `failed`. */
  maxAttempts: number;
  /** Connection, greeting and (twice this) socket timeout of one SMTP attempt (ms). */
  timeoutMs: number;
}

/** Card payments through Stripe Checkout (issue 32): on only when both secrets are set. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** STRIPE_API_URL: another host for the SDK (the tests' stand-in); absent, Stripe's own. */
  apiUrl: string | undefined;
}

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  publicUrl: string;
  /** Origins allowed to post with cookies: the store's own, and DEV_ORIGINS (set by `npm run dev`). */
  trustedOrigins: string[];
  dataDir: string;
  /** Where uploaded photos and their resized variants are kept (UPLOAD_DIR, else DATA_DIR/uploads). */
  uploadDir: string;
  /** Absent: embedded PGlite under dataDir (or in memory when dataDir is "memory://"). */
  databaseUrl: string | undefined;
  authSecret: string;
  /**
   * What the operator should know at start: e.g. a generated auth secret where other instances
   * may share this store's database or Redis (their sessions would be refused by each other).
   */
  warnings: string[];
  google: GoogleSettings | undefined;
  adminEmails: string[];
  stripe: StripeSettings | undefined;
  /** How long a card order's stock is held for its payment (PAYMENT_HOLD_MINUTES, ms). */
  paymentHoldMs: number;
  /** How long after delivery a customer may ask to return units (RETURN_DAYS, days). */
  returnDays: number;
  /** Outgoing mail: SMTP_URL (absent: messages stay in the outbox and their text goes to the log) and MAIL_FROM. */
  mail: MailSettings;
  seed: boolean;
  redisUrl: string | undefined;
  /** Every Redis key starts with this, so several stores (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Failed sign-in and sign-up attempts per e-mail (successful ones are handed back). */
  authRateLimit: RateLimitSettings;
  /** Failed sign-in and sign-up attempts per client address, across all e-mails. */
  authAddressRateLimit: RateLimitSettings;
  /**
   * Failed sign-ins to one account across all addresses before further attempts at it are slowed
   * down (one at a time, a second apart) and its owner gets one e-mail per window; never refused.
   */
  authAccountRateLimit: RateLimitSettings;
  /** How long one instance remembers a resolved session (ms); 0 turns the cache off. */
  sessionCacheMs: number;
  /** How long one instance remembers a page of the public tool and review lists (ms); 0: off. */
  listCacheMs: number;
  /** Every API request, per client address. */
  apiRateLimit: RateLimitSettings;
  /**
   * Which proxies in front of the store to believe about the client's address (X-Forwarded-For):
   * false (none, the default), true (all), a number of hops, or a list of addresses/CIDRs.
   * Rate limits count per client address, so behind a proxy this must be set.
   */
  trustProxy: boolean | number | string;
  logLevel: string;
  /** `pretty` (development) or `json` (anything else), from LOG_FORMAT. */
  logFormat: "json" | "pretty";
  /** Built SPA (index.html + assets). */
  webDir: string;
  migrationsDir: string;
}

export class ConfigError extends Error {}

/** A service URL without its password, for messages. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = "***";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "(unparseable URL)";
  }
}

/** The package root, found from this file whether it runs from src/ or a bundle in dist/. */
export function findAppRoot(start = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "drizzle"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

type Env = Record<string, string | undefined>;

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The store's own origin. On a loopback address every spelling of it (localhost, 127.0.0.1,
 * [::1]) on the same port is the same server, so a browser opened on any of them may post.
 */
export function loopbackAliases(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  const port = url.port ? `:${url.port}` : "";
  return [url.origin, ...LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${port}`)].filter((o, i, all) => all.indexOf(o) === i);
}

/** An unset or blank variable is absent; anything else is read trimmed. */
const optional = (raw: unknown) => (typeof raw === "string" && raw.trim() !== "" ? raw.trim() : undefined);

/** Each variable's rule; a failure's message follows the variable's name ("PORT must be …"). */
const intVar = (fallback: number, min: number, max: number) =>
  z.preprocess(optional, z.string().optional()).transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (Number.isInteger(value) && value >= min && value <= max) return value;
    ctx.addIssue({ code: "custom", message: `must be a whole number from ${min} to ${max} (got "${raw}")` });
    return z.NEVER;
  });

const urlVar = (protocols: string[]) =>
  z.preprocess(optional, z.string().optional()).transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: `must be a URL (got "${raw}")` });
      return z.NEVER;
    }
    if (!protocols.includes(parsed.protocol)) {
      ctx.addIssue({ code: "custom", message: `must start with ${protocols.map((p) => `${p}//`).join(" or ")} (got "${raw}")` });
      return z.NEVER;
    }
    return raw.replace(/\/+$/, "");
  });

const boolVar = (fallback: boolean) =>
  z.preprocess(optional, z.string().optional()).transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    if (["true", "1", "yes"].includes(raw.toLowerCase())) return true;
    if (["false", "0", "no"].includes(raw.toLowerCase())) return false;
    ctx.addIssue({ code: "custom", message: `must be true or false (got "${raw}")` });
    return z.NEVER;
  });

const textVar = z.preprocess(optional, z.string().optional());

/** Minutes, fractions allowed (a test holds a card order's stock for a few seconds). */
const minutesVar = (fallback: number, min: number, max: number) =>
  z.preprocess(optional, z.string().optional()).transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (Number.isFinite(value) && value >= min && value <= max) return value;
    ctx.addIssue({ code: "custom", message: `must be a number of minutes from ${min} to ${max} (got "${raw}")` });
    return z.NEVER;
  });

const trustProxyVar = textVar.transform((raw, ctx): boolean | number | string => {
  if (raw === undefined || raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((e) => e.trim());
  if (entries.some((e) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(e))) {
    ctx.addIssue({ code: "custom", message: `must be true, false, a number of hops or a comma-separated list of addresses (got "${raw}")` });
    return z.NEVER;
  }
  return entries.join(",");
});

const adminEmailsVar = textVar.transform((raw, ctx) => {
  const emails = (raw ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const bad = emails.find((email) => !/^[^@\s]+@[^@\s]+$/.test(email));
  if (bad !== undefined) {
    ctx.addIssue({ code: "custom", message: `has an entry that is not an e-mail: "${bad}"` });
    return z.NEVER;
  }
  return emails;
});

const originsVar = textVar.transform((raw, ctx) => {
  const origins = (raw ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin.replace(/\/+$/, "")) {
      ctx.addIssue({ code: "custom", message: `must be a comma-separated list of origins such as http://localhost:5173 (got "${origin}")` });
      return z.NEVER;
    }
  }
  return origins.map((o) => o.replace(/\/+$/, ""));
});

/** The environment, variable by variable: one schema, one place to read what each one means. */
const envSchema = z
  .object({
    NODE_ENV: textVar.transform((v) => v ?? "development"),
    PORT: intVar(3000, 1, 65535),
    HOST: textVar.transform((v) => v ?? "127.0.0.1"),
    PUBLIC_URL: urlVar(["http:", "https:"]),
    DATA_DIR: textVar,
    UPLOAD_DIR: textVar,
    DATABASE_URL: urlVar(["postgres:", "postgresql:"]),
    REDIS_URL: urlVar(["redis:", "rediss:"]),
    REDIS_KEY_PREFIX: textVar.transform((v) => v ?? "toolyard:"),
    AUTH_SECRET: textVar.refine((v) => v === undefined || v.length >= 32, "must be at least 32 characters long"),
    GOOGLE_CLIENT_ID: textVar,
    GOOGLE_CLIENT_SECRET: textVar,
    GOOGLE_DISCOVERY_URL: urlVar(["http:", "https:"]).transform((v) => v ?? "https://accounts.google.com/.well-known/openid-configuration"),
    ADMIN_EMAILS: adminEmailsVar,
    SMTP_URL: urlVar(["smtp:", "smtps:"]),
    MAIL_FROM: textVar.transform((v) => v ?? "Toolyard <shop@localhost>"),
    MAIL_POLL_MS: intVar(1000, 50, 3_600_000),
    MAIL_MAX_ATTEMPTS: intVar(8, 1, 100),
    MAIL_TIMEOUT_SECONDS: intVar(10, 1, 300),
    SEED: boolVar(true),
    STRIPE_SECRET_KEY: textVar,
    STRIPE_WEBHOOK_SECRET: textVar,
    STRIPE_API_URL: urlVar(["http:", "https:"]),
    PAYMENT_HOLD_MINUTES: minutesVar(30, 0.01, 7 * 24 * 60),
    RETURN_DAYS: intVar(RETURN_DAYS, 0, 3650),
    AUTH_RATE_LIMIT_MAX: intVar(5, 0, 1_000_000),
    AUTH_RATE_LIMIT_ADDRESS_MAX: intVar(30, 0, 1_000_000),
    AUTH_RATE_LIMIT_ACCOUNT_MAX: intVar(10, 0, 1_000_000),
    AUTH_RATE_LIMIT_WINDOW_SECONDS: intVar(60, 1, 86_400),
    SESSION_CACHE_SECONDS: intVar(10, 0, 300),
    LIST_CACHE_SECONDS: intVar(2, 0, 300),
    RATE_LIMIT_MAX: intVar(20_000, 0, 10_000_000),
    RATE_LIMIT_WINDOW_SECONDS: intVar(60, 1, 86_400),
    TRUST_PROXY: trustProxyVar,
    /** Origins besides the store's own that may post with cookies; `npm run dev` sets Vite's. */
    DEV_ORIGINS: originsVar,
    LOG_LEVEL: textVar,
    LOG_FORMAT: textVar.pipe(z.enum(["json", "pretty"], { error: (issue) => `must be json or pretty (got "${String(issue.input)}")` }).optional()),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
      const missing = env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_SECRET" : "GOOGLE_CLIENT_ID";
      const present = env.GOOGLE_CLIENT_ID ? "GOOGLE_CLIENT_ID" : "GOOGLE_CLIENT_SECRET";
      ctx.addIssue({ code: "custom", path: [missing], message: `is required when ${present} is set` });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      const missing = env.STRIPE_SECRET_KEY ? "STRIPE_WEBHOOK_SECRET" : "STRIPE_SECRET_KEY";
      const present = env.STRIPE_SECRET_KEY ? "STRIPE_SECRET_KEY" : "STRIPE_WEBHOOK_SECRET";
      ctx.addIssue({ code: "custom", path: [missing], message: `is required when ${present} is set (card payments need both)` });
    }
    if (!env.AUTH_SECRET && env.NODE_ENV === "production") {
      ctx.addIssue({ code: "custom", path: ["AUTH_SECRET"], message: "is required when NODE_ENV=production" });
    }
  });

/** "PORT must be …": the variable's name, then what is wrong with it. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".")} ${issue.message}` : "the configuration is not valid";
}

export function loadConfig(env: Env = process.env, root = findAppRoot()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(firstProblem(parsed.error));
  const e = parsed.data;
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  const rawDataDir = e.DATA_DIR ?? "data";
  // "memory://" keeps PGlite in memory (tests); anything else is a folder below the app.
  const dataDir = rawDataDir === "memory://" ? rawDataDir : path.resolve(root, rawDataDir);
  const authSecret = e.AUTH_SECRET ?? readOrCreateSecret(dataDir);
  // With the database in memory there is no data folder: photos go to a folder of this process.
  const uploadDir = e.UPLOAD_DIR
    ? path.resolve(root, e.UPLOAD_DIR)
    : dataDir === "memory://"
      ? path.join(tmpdir(), `toolyard-uploads-${process.pid}`)
      : path.join(dataDir, "uploads");
  const authWindowMs = e.AUTH_RATE_LIMIT_WINDOW_SECONDS * 1000;
  const warnings: string[] = [];
  if (!e.AUTH_SECRET && (e.REDIS_URL || e.DATABASE_URL)) {
    warnings.push(
      `AUTH_SECRET is not set: sessions are signed with the secret generated in ${path.join(dataDir, "auth-secret")}. ` +
        `Every instance sharing this ${e.REDIS_URL ? "Redis" : "database"} must be started with the same AUTH_SECRET, or each refuses the others' sessions.`,
    );
  }

  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    trustedOrigins: [...new Set([...loopbackAliases(publicUrl), ...e.DEV_ORIGINS])],
    dataDir,
    uploadDir,
    databaseUrl: e.DATABASE_URL,
    authSecret,
    warnings,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, discoveryUrl: e.GOOGLE_DISCOVERY_URL }
        : undefined,
    adminEmails: e.ADMIN_EMAILS,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL } : undefined,
    paymentHoldMs: Math.round(e.PAYMENT_HOLD_MINUTES * 60_000),
    returnDays: e.RETURN_DAYS,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, pollMs: e.MAIL_POLL_MS, maxAttempts: e.MAIL_MAX_ATTEMPTS, timeoutMs: e.MAIL_TIMEOUT_SECONDS * 1000 },
    seed: e.SEED,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    authRateLimit: { max: e.AUTH_RATE_LIMIT_MAX, windowMs: authWindowMs },
    authAddressRateLimit: { max: e.AUTH_RATE_LIMIT_ADDRESS_MAX, windowMs: authWindowMs },
    authAccountRateLimit: { max: e.AUTH_RATE_LIMIT_ACCOUNT_MAX, windowMs: authWindowMs },
    sessionCacheMs: e.SESSION_CACHE_SECONDS * 1000,
    listCacheMs: e.LIST_CACHE_SECONDS * 1000,
    apiRateLimit: { max: e.RATE_LIMIT_MAX, windowMs: e.RATE_LIMIT_WINDOW_SECONDS * 1000 },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    // Readable lines while developing; one JSON object per line for log collectors in production.
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === "development" ? "pretty" : "json"),
    webDir: path.join(root, "dist", "web"),
    migrationsDir: path.join(root, "drizzle"),
  };
}
