/** Shared by the benchmarks: start the real app on a loopback port, on a throw-away database. */
import type { AddressInfo } from "node:net";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { createPostgresDatabase } from "../src/server/test-support";

export async function startBenchServer(env: Record<string, string> = {}) {
  const pgDb = process.env.DATABASE_URL ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: "production",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
    LOG_LEVEL: "silent",
    RATE_LIMIT_MAX: "0",
    AUTH_RATE_LIMIT_MAX: "0",
    PUBLIC_URL: "http://127.0.0.1:3999",
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  config.dataDir = "memory://";
  const app = await buildApp(config);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    driver: app.store.driver,
    close: async () => {
      await app.close();
      await pgDb?.drop();
    },
  };
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
