/**
 * Shared by the benchmarks: the real app in its own process, on a throw-away database.
 * BENCH_CPU_PROF=<folder> writes the server's CPU profile there (open it in Chrome DevTools).
 */
import { fork } from "node:child_process";
import path from "node:path";
import { createPostgresDatabase } from "../src/server/test-support";

export async function startBenchServer(env: Record<string, string> = {}) {
  const pgDb = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  const child = fork(path.join(import.meta.dirname, "server-process.ts"), {
    execArgv: ["--import", "tsx", ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, BENCH_ENV: JSON.stringify({ ...(pgDb ? { DATABASE_URL: pgDb.url } : {}), ...env }) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = await new Promise<{ url: string; driver: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { url: string; driver: string }));
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...ready,
    databaseUrl: pgDb?.url,
    close: async () => {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
      await pgDb?.drop();
    },
  };
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;

export const BENCH_ORIGIN = "http://127.0.0.1:3999";
export const BENCH_PASSWORD = "Str0ng!pass";

/** Signs a new customer up on the bench server and returns a bearer token for them. */
export async function signUpForToken(serverUrl: string, email: string): Promise<string> {
  const res = await fetch(`${serverUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: BENCH_ORIGIN },
    body: JSON.stringify({ name: email.split("@")[0], email, password: BENCH_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const tokenRes = await fetch(`${serverUrl}/api/user/${encodeURIComponent(email)}`, {
    method: "PUT",
    headers: { "content-type": "application/json", origin: BENCH_ORIGIN, cookie },
    body: JSON.stringify({ email }),
  });
  return ((await tokenRes.json()) as { token: string }).token;
}
