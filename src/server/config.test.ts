import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, findAppRoot, loadConfig } from "./config";

const base = { AUTH_SECRET: "x".repeat(40), DATA_DIR: "memory://" };

describe("loadConfig", () => {
  it("has working defaults for a local run", () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({ port: 3000, host: "127.0.0.1", publicUrl: "http://localhost:3000", seed: true, databaseUrl: undefined });
    expect(config.authRateLimit).toEqual({ max: 5, windowMs: 60_000 });
    expect(config.authAddressRateLimit).toEqual({ max: 30, windowMs: 60_000 });
    expect(config.apiRateLimit).toEqual({ max: 20_000, windowMs: 60_000 });
    expect(config.trustedOrigins).toEqual(
      expect.arrayContaining(["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000"]),
    );
  });

  it("reads TRUST_PROXY as off, all, a hop count or a list of addresses", () => {
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toBe("10.0.0.0/8,127.0.0.1");
  });

  it("trusts the development server's origins only when DEV_ORIGINS names them (npm run dev)", () => {
    expect(loadConfig(base).trustedOrigins).not.toContain("http://localhost:5173");
    const dev = loadConfig({ ...base, DEV_ORIGINS: "http://localhost:5173, http://127.0.0.1:5173" });
    expect(dev.trustedOrigins).toEqual(expect.arrayContaining(["http://localhost:5173", "http://127.0.0.1:5173"]));
    expect(() => loadConfig({ ...base, DEV_ORIGINS: "localhost:5173/x" })).toThrowError(/^DEV_ORIGINS /);
  });

  it("warns when instances could share a database or Redis but each would generate its own auth secret", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-secret-"));
    try {
      const generated = { DATA_DIR: dataDir };
      expect(loadConfig(generated).warnings).toEqual([]);
      for (const shared of [{ REDIS_URL: "redis://127.0.0.1:6379" }, { DATABASE_URL: "postgres://postgres@127.0.0.1:5432/x" }]) {
        const [warning, ...rest] = loadConfig({ ...generated, ...shared }).warnings;
        expect(rest).toEqual([]);
        expect(warning).toMatch(/^AUTH_SECRET is not set: .*must be started with the same AUTH_SECRET/);
        expect(loadConfig({ ...generated, ...shared, AUTH_SECRET: "s".repeat(40) }).warnings).toEqual([]);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("logs pretty lines in development and JSON elsewhere", () => {
    expect(loadConfig({ ...base, NODE_ENV: "development" }).logFormat).toBe("pretty");
    expect(loadConfig({ ...base, NODE_ENV: "production" }).logFormat).toBe("json");
    expect(loadConfig({ ...base, NODE_ENV: "development", LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(() => loadConfig({ ...base, LOG_FORMAT: "xml" })).toThrowError(/^LOG_FORMAT /);
  });

  it("trusts only the public origin when it is not a loopback address", () => {
    const config = loadConfig({ ...base, NODE_ENV: "production", PUBLIC_URL: "https://shop.example/" });
    expect(config.trustedOrigins).toEqual(["https://shop.example"]);
  });

  it.each([
    [{ PORT: "abc" }, /^PORT /],
    [{ PORT: "70000" }, /^PORT /],
    [{ PUBLIC_URL: "not a url" }, /^PUBLIC_URL /],
    [{ DATABASE_URL: "mysql://x" }, /^DATABASE_URL /],
    [{ REDIS_URL: "http://x" }, /^REDIS_URL /],
    [{ SEED: "maybe" }, /^SEED /],
    [{ GOOGLE_CLIENT_ID: "id" }, /^GOOGLE_CLIENT_SECRET /],
    [{ GOOGLE_CLIENT_SECRET: "s" }, /^GOOGLE_CLIENT_ID /],
    [{ ADMIN_EMAILS: "boss" }, /^ADMIN_EMAILS /],
    [{ AUTH_SECRET: "short" }, /^AUTH_SECRET /],
    [{ AUTH_SECRET: "", NODE_ENV: "production" }, /^AUTH_SECRET is required/],
    [{ AUTH_RATE_LIMIT_MAX: "-1" }, /^AUTH_RATE_LIMIT_MAX /],
    [{ AUTH_RATE_LIMIT_ADDRESS_MAX: "many" }, /^AUTH_RATE_LIMIT_ADDRESS_MAX /],
    [{ LIST_CACHE_SECONDS: "1.5" }, /^LIST_CACHE_SECONDS /],
    [{ TRUST_PROXY: "the load balancer" }, /^TRUST_PROXY /],
  ])("names the variable in one line: %o", (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrowError(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrowError(message);
  });

  it("turns on Google only with both id and secret, on Google's discovery document by default", () => {
    const config = loadConfig({ ...base, GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    expect(config.google).toEqual({
      clientId: "id",
      clientSecret: "secret",
      discoveryUrl: "https://accounts.google.com/.well-known/openid-configuration",
    });
  });
});

/** Runs the real server entry point as `npm start` does (from source, through tsx). */
function runServer(env: Record<string, string>) {
  const root = findAppRoot();
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "test", LOG_LEVEL: "info", DATABASE_URL: "", ...env },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += String(d)));
  child.stderr.on("data", (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe("the server process", () => {
  it("stops a bad configuration with one line naming the variable", async () => {
    const run = runServer({ PORT: "not-a-port" });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split("\n").filter((l) => !l.includes("ExperimentalWarning") && l.trim() !== "");
    expect(lines).toEqual(['Configuration error: PORT must be a whole number from 1 to 65535 (got "not-a-port")']);
  });

  it("serves, then closes the server and the database cleanly on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-main-"));
    try {
      const run = runServer({ PORT: "3977", DATA_DIR: dataDir, SEED: "false" });
      const deadline = Date.now() + 60_000;
      while (!run.output().includes("Toolyard is serving") && Date.now() < deadline && run.child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 100));
      }
      // The store's own output with every failure here: a start or a shutdown that went wrong says why in it.
      expect(run.output(), run.output()).toContain("Toolyard is serving");
      const health = await fetch("http://127.0.0.1:3977/api/health");
      expect(await health.json(), run.output()).toEqual({ status: "ok", db: "ok" });
      run.child.kill("SIGTERM");
      expect(await run.exited, run.output()).toBe(0);
      expect(run.output()).toContain("shutting down");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
