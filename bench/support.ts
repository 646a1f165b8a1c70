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
