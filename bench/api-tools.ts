/**
 * The catalogue API under load (autocannon, loopback only, DURATION seconds each) beside a
 * static file the same process serves (@fastify/static, from the built web app), in one run:
 * GET /api/tool and GET /api/tool/:id, as shipped (caches on) and with every request going to
 * the database (LIST_CACHE_SECONDS=0), each as requests/s and as a share of the static file's.
 * Issue 13 aims at >= 0.5x for the list and the single tool.
 * Usage: npm run build:web && npm run bench:api   (PGlite; set DATABASE_URL to bench Postgres)
 */
import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { ms, startBenchServer } from "./support";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const STATIC_FILE = "/images/logo.svg";
if (!existsSync(path.join(import.meta.dirname, "..", "dist", "web", STATIC_FILE))) {
  console.error(`No dist/web${STATIC_FILE}: run \`npm run build:web\` first (the static file is the yardstick).`);
  process.exit(1);
}

async function measure(url: string, label: string): Promise<number> {
  await autocannon({ url, connections: 10, duration: 2 }); // JIT, pools, caches
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  console.log(
    `  ${label.padEnd(34)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${ms(result.latency.p50)}  p99 ${ms(result.latency.p99)}` +
      `  non-2xx ${result.non2xx}  errors ${result.errors}`,
  );
  if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
  return result.requests.average;
}

for (const [label, env] of [
  ["caches on (default)", {}],
  ["caches off (LIST_CACHE_SECONDS=0)", { LIST_CACHE_SECONDS: "0" }],
] as const) {
  const server = await startBenchServer(env);
  try {
    const [first] = (await (await fetch(`${server.url}/api/tool?limit=1`)).json()) as { _id: string }[];
    if (!first) throw new Error("the catalogue is empty");
    console.log(`${server.driver}, ${label}, ${CONNECTIONS} connections, ${DURATION} s each`);
    const staticRate = await measure(`${server.url}${STATIC_FILE}`, `static ${STATIC_FILE}`);
    const list = await measure(`${server.url}/api/tool`, "GET /api/tool");
    const one = await measure(`${server.url}/api/tool/${first._id}`, "GET /api/tool/:id");
    console.log(`  list ${(list / staticRate).toFixed(2)}x the static file, one tool ${(one / staticRate).toFixed(2)}x`);
  } finally {
    await server.close();
  }
}
