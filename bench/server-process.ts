/**
 * The store under benchmark, in its own process so the load generator does not share
 * its thread. Started by bench/support.ts; reports its URL over IPC and stops on SIGTERM.
 */
import type { AddressInfo } from "node:net";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { prepareStore } from "../src/server/start-up";

// BENCH_SQL_COUNT=1: counts the statements the store sends to Postgres, printed at exit.
const sqlCounts = new Map<string, number>();
if (process.env.BENCH_SQL_COUNT) {
  const pg = (await import("pg")).default;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : ((first as { text?: string; name?: string } | undefined)?.text ?? "?");
    const key = text.replace(/\s+/g, " ").slice(0, 90);
    sqlCounts.set(key, (sqlCounts.get(key) ?? 0) + 1);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

const config = loadConfig({
  NODE_ENV: "production",
  AUTH_SECRET: "bench-secret-bench-secret-bench-secret-01",
  LOG_LEVEL: "silent",
  RATE_LIMIT_MAX: "0",
  AUTH_RATE_LIMIT_MAX: "0",
  AUTH_RATE_LIMIT_ADDRESS_MAX: "0",
  PUBLIC_URL: "http://127.0.0.1:3999",
  DATA_DIR: "memory://",
  ...(JSON.parse(process.env.BENCH_ENV ?? "{}") as Record<string, string>),
});
const app = await buildApp(config);
await prepareStore(app);
await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.send?.({ url: `http://127.0.0.1:${port}`, driver: app.store.driver });
process.on("SIGTERM", () => {
  void app.close().then(() => {
    if (sqlCounts.size > 0) for (const [text, n] of [...sqlCounts].sort((a, b) => b[1] - a[1])) console.error(`${String(n).padStart(8)}  ${text}`);
    process.exit(0);
  });
});
