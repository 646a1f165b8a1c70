/**
 * The server-rendered pages under load beside the JSON API, in one run on one server: the
 * home page and a tool page as a browser asks for them (brotli), and GET /api/tool. Each is
 * measured with the page cache on (as shipped) and with it off (LIST_CACHE_SECONDS=0: every
 * request renders the page and reads the database). CPU per request is the server process's
 * own CPU time over the requests served: steadier than req/s on a machine shared with others.
 * Usage: npm run build && npm run bench:pages   (PGlite; set DATABASE_URL to bench Postgres)
 */
import autocannon from "autocannon";
import { ms, startBenchServer } from "./support";

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 20);
const HEADERS = { "accept-encoding": "br, gzip", accept: "text/html,application/json" };

for (const [label, env] of [
  ["page and list caches on (default)", {}],
  ["caches off (LIST_CACHE_SECONDS=0)", { LIST_CACHE_SECONDS: "0" }],
] as const) {
  const server = await startBenchServer(env);
  try {
    const tools = (await (await fetch(`${server.url}/api/tool?limit=1`)).json()) as { _id: string }[];
    const page = await fetch(`${server.url}/`, { headers: HEADERS });
    if (!(await page.text()).includes("Our Tools")) throw new Error("the home page is not server-rendered: run `npm run build` first");
    const targets = [
      ["GET / (home, rendered)", "/"],
      ["GET /tools/:id (tool page, rendered)", `/tools/${tools[0]?._id}`],
      ["GET /api/tool (JSON)", "/api/tool"],
    ] as const;
    console.log(`${server.driver}, ${label}, ${CONNECTIONS} connections, ${DURATION} s each`);
    for (const [name, path] of targets) {
      const url = `${server.url}${path}`;
      // Warm up the JIT (and the caches, when on).
      await autocannon({ url, headers: HEADERS, connections: 5, duration: 2 });
      const cpuBefore = server.cpuSeconds();
      const result = await autocannon({ url, headers: HEADERS, connections: CONNECTIONS, duration: DURATION });
      const cpu = server.cpuSeconds() - cpuBefore;
      const served = result.requests.total;
      console.log(
        `  ${name.padEnd(38)} req/s ${result.requests.average.toFixed(0).padStart(6)}  p50 ${ms(result.latency.p50).padStart(9)}  p99 ${ms(result.latency.p99).padStart(9)}  CPU/request ${served ? ((cpu / served) * 1000).toFixed(2) : "-"} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
      );
      if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1;
    }
  } finally {
    await server.close();
  }
}
