/**
 * GET /api/tool under load (autocannon, loopback only, bounded to DURATION seconds each),
 * twice: as shipped (the list cache on) and with every request going to the database
 * (LIST_CACHE_SECONDS=0), so both the everyday figure and the worst case are on record.
 * Usage: npm run bench:api   (PGlite; set DATABASE_URL to bench Postgres)
 */
import autocannon from "autocannon";
import { ms, startBenchServer } from "./support";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);

for (const [label, env] of [
  ["list cache on (default)", {}],
  ["list cache off (LIST_CACHE_SECONDS=0)", { LIST_CACHE_SECONDS: "0" }],
] as const) {
  const server = await startBenchServer(env);
  try {
    // Warm up the JIT and the connection pool.
    await autocannon({ url: `${server.url}/api/tool`, connections: 10, duration: 2 });
    const result = await autocannon({ url: `${server.url}/api/tool`, connections: CONNECTIONS, duration: DURATION });
    console.log(`GET /api/tool on ${server.driver}, ${label}, ${CONNECTIONS} connections, ${DURATION} s`);
    console.log(`  requests/s: ${result.requests.average.toFixed(0)}  p50: ${ms(result.latency.p50)}  p99: ${ms(result.latency.p99)}`);
    console.log(`  2xx: ${result["2xx"]}  non-2xx: ${result.non2xx}  errors: ${result.errors}  timeouts: ${result.timeouts}`);
    if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
  } finally {
    await server.close();
  }
}
