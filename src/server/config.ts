/**
 * Environment → typed configuration. Every variable is optional for a local run;
 * a bad value stops the start with one line that names the variable.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  publicUrl: string;
  /** Extra origins allowed to call the API with cookies (the Vite dev server). */
  trustedOrigins: string[];
  dataDir: string;
  /** Absent: embedded PGlite under dataDir (or in memory when dataDir is "memory://"). */
  databaseUrl: string | undefined;
  authSecret: string;
  google: GoogleSettings | undefined;
  adminEmails: string[];
  seed: boolean;
  redisUrl: string | undefined;
  /** Every Redis key starts with this, so several stores (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** Failed sign-in and sign-up attempts per e-mail (successful ones are handed back). */
  authRateLimit: RateLimitSettings;
  /** Failed sign-in and sign-up attempts per client address, across all e-mails. */
  authAddressRateLimit: RateLimitSettings;
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

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === "") return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(" or ")} (got "${raw}")`);
  }
  return raw.replace(/\/+$/, "");
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["true", "1", "yes"].includes(raw)) return true;
  if (["false", "0", "no"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${env[name]}")`);
}

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

function trustProxy(env: Env): boolean | number | string {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === "" || raw.toLowerCase() === "false") return false;
  if (raw.toLowerCase() === "true") return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((e) => e.trim());
  if (entries.some((e) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(e))) {
    throw new ConfigError(`TRUST_PROXY must be true, false, a number of hops or a comma-separated list of addresses (got "${raw}")`);
  }
  return entries.join(",");
}

export function loadConfig(env: Env = process.env, root = findAppRoot()): Config {
  const nodeEnv = env.NODE_ENV?.trim() || "development";
  const port = int(env, "PORT", 3000, 1, 65535);
  const host = env.HOST?.trim() || "127.0.0.1";
  const publicUrl = url(env, "PUBLIC_URL", `http://localhost:${port}`, ["http:", "https:"]) as string;
  const dataDir = path.resolve(root, env.DATA_DIR?.trim() || "data");
  const databaseUrl = url(env, "DATABASE_URL", undefined, ["postgres:", "postgresql:"]);
  const redisUrl = url(env, "REDIS_URL", undefined, ["redis:", "rediss:"]);

  let authSecret = env.AUTH_SECRET?.trim();
  if (authSecret !== undefined && authSecret !== "" && authSecret.length < 32) {
    throw new ConfigError("AUTH_SECRET must be at least 32 characters long");
  }
  if (!authSecret) {
    if (nodeEnv === "production") throw new ConfigError("AUTH_SECRET is required when NODE_ENV=production");
    authSecret = readOrCreateSecret(dataDir);
  }

  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  if (Boolean(clientId) !== Boolean(clientSecret)) {
    throw new ConfigError(
      clientId ? "GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set" : "GOOGLE_CLIENT_ID is required when GOOGLE_CLIENT_SECRET is set",
    );
  }
  const discoveryUrl = url(
    env,
    "GOOGLE_DISCOVERY_URL",
    "https://accounts.google.com/.well-known/openid-configuration",
    ["http:", "https:"],
  ) as string;
  const google = clientId && clientSecret ? { clientId, clientSecret, discoveryUrl } : undefined;

  const adminEmails = (env.ADMIN_EMAILS ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const email of adminEmails) {
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new ConfigError(`ADMIN_EMAILS has an entry that is not an e-mail: "${email}"`);
  }

  const devOrigins = nodeEnv === "production" ? [] : ["http://localhost:5173", "http://127.0.0.1:5173"];
  const authWindowMs = int(env, "AUTH_RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86_400) * 1000;

  return {
    nodeEnv,
    port,
    host,
    publicUrl,
    trustedOrigins: [...new Set([...loopbackAliases(publicUrl), ...devOrigins])],
    dataDir,
    databaseUrl,
    authSecret,
    google,
    adminEmails,
    seed: bool(env, "SEED", true),
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || "toolyard:",
    authRateLimit: { max: int(env, "AUTH_RATE_LIMIT_MAX", 5, 0, 1_000_000), windowMs: authWindowMs },
    authAddressRateLimit: { max: int(env, "AUTH_RATE_LIMIT_ADDRESS_MAX", 30, 0, 1_000_000), windowMs: authWindowMs },
    sessionCacheMs: int(env, "SESSION_CACHE_SECONDS", 10, 0, 300) * 1000,
    listCacheMs: int(env, "LIST_CACHE_SECONDS", 2, 0, 300) * 1000,
    apiRateLimit: {
      max: int(env, "RATE_LIMIT_MAX", 20_000, 0, 10_000_000),
      windowMs: int(env, "RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86_400) * 1000,
    },
    trustProxy: trustProxy(env),
    logLevel: env.LOG_LEVEL?.trim() || (nodeEnv === "test" ? "silent" : "info"),
    webDir: path.join(root, "dist", "web"),
    migrationsDir: path.join(root, "drizzle"),
  };
}
