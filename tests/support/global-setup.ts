/**
 * Starts what the browser tests drive: the local OpenID provider and the real store,
 * built and started with `npm start` on a fresh database (PGlite in a temp folder, or
 * a fresh Postgres database when DATABASE_URL is set). Returns the teardown.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPostgresDatabase } from "../../src/server/test-support";
import { ADMIN_EMAIL, APP_PORT, APP_URL, OIDC_PORT } from "./env";
import { OIDC_CLIENT, startOidcProvider } from "./oidc";

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the store exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the store did not answer ${url}/api/health within ${timeoutMs} ms`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const oidc = await startOidcProvider(OIDC_PORT, APP_URL);
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-e2e-"));
  const pgDb = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  const root = path.resolve(import.meta.dirname, "../..");

  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      PORT: String(APP_PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: APP_URL,
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? "",
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_DISCOVERY_URL: `${oidc.issuer}/.well-known/openid-configuration`,
      ADMIN_EMAILS: ADMIN_EMAIL,
      // No rate-limit overrides: the browser tests run under the shop's default limits, so
      // they also show that many customers signing in from one address are not locked out.
    },
  });
  try {
    await waitForHealth(APP_URL, child, 240_000);
  } catch (error) {
    child.kill("SIGTERM");
    await oidc.close();
    throw error;
  }

  return async () => {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
    await oidc.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
