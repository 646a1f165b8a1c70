/**
 * `npm run bench:scale`: the store's lists at a merchant's size (docs/decisions/0013).
 *
 * For each driver (Postgres when DATABASE_URL is set, and PGlite unless SCALE_DRIVERS says
 * otherwise) it fills a fresh database (bench/scale-fixture.ts; sizes from SCALE_TOOLS,
 * SCALE_USERS, SCALE_REVIEWS, SCALE_ORDERS), prints the plan Postgres chose for each list's
 * own SQL (as the app sends it), then runs the store on it with the list cache off and times
 * REQUESTS requests per list at CONCURRENCY (a list such as "1,4" runs each): p50, p95, p99 and
 * the server's CPU per request.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale
 *   SCALE_DRIVERS=pglite SCALE_TOOLS=10000 … npm run bench:scale
 */
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { reviewListQuerySchema, toolListQuerySchema } from "../src/contract/schemas";
import { listTools, suggestTools } from "../src/server/catalog/service";
import { openDatabase, type Database } from "../src/server/db/client";
import { encodeCursor } from "../src/server/db/paging";
import { listReviews } from "../src/server/reviews/service";
import { createPostgresDatabase } from "../src/server/test-support";
import { fillScale, sizeFromEnv } from "./scale-fixture";
import { BENCH_ORIGIN, signUpForToken, startBenchServer } from "./support";

const REQUESTS = Number(process.env.REQUESTS ?? 400);
/** How many requests at a time; a list ("1,4") runs the timings once for each. */
const CONCURRENCIES = (process.env.CONCURRENCY ?? "4").split(",").map(Number);
const size = sizeFromEnv();
const drivers = (process.env.SCALE_DRIVERS ?? (process.env.DATABASE_URL ? "pg,pglite" : "pglite")).split(",");
const migrationsDir = path.join(import.meta.dirname, "..", "drizzle");

interface Target {
  label: string;
  path: string;
  /** The app's own SQL for it, for EXPLAIN (the customer's orders are timed only). */
  explain?: (db: Database["db"]) => Promise<unknown>;
}

/** The deep keys: the cursor a client following `next` holds around page 5,000 / a deep review page. */
async function deepCursors(db: Database["db"]) {
  const keyAt = async (table: "tools" | "reviews", where: string, offset: number) => {
    const result = (await db.execute(
      sql.raw(`select created_at::text as created, id from ${table} where ${where} order by created_at ${table === "reviews" ? "desc" : "asc"}, id offset ${offset} limit 1`),
    )) as unknown as { rows: { created: string; id: string }[] };
    const row = result.rows[0];
    return row ? encodeCursor([row.created, row.id]) : undefined;
  };
  return {
    tools: await keyAt("tools", "active", Math.min(size.tools - 20, 5_000 * 12)),
    reviews: await keyAt("reviews", "not hidden", Math.floor(size.reviews * 0.75)),
  };
}

function targets(cursors: { tools?: string | undefined; reviews?: string | undefined }): Target[] {
  const tools = (query: Record<string, string>) => (db: Database["db"]) => listTools(db, toolListQuerySchema.parse(query));
  return [
    { label: "tools page 1", path: "/api/tool", explain: tools({}) },
    { label: "tools page 1, newest", path: "/api/tool?sort=newest", explain: tools({ sort: "newest" }) },
    { label: "category page 1", path: "/api/tool?category=chainsaws", explain: tools({ category: "chainsaws" }) },
    { label: "category by price", path: "/api/tool?category=lawn-mowers&sort=price-asc", explain: tools({ category: "lawn-mowers", sort: "price-asc" }) },
    { label: "price range", path: "/api/tool?minPrice=100&maxPrice=120", explain: tools({ minPrice: "100", maxPrice: "120" }) },
    { label: "search 'drill' (broad)", path: "/api/tool?q=drill", explain: tools({ q: "drill" }) },
    { label: "search 'hedge trimmer 4216'", path: "/api/tool?q=hedge%20trimmer%204216", explain: tools({ q: "hedge trimmer 4216" }) },
    { label: "search, no match", path: "/api/tool?q=xylophone", explain: tools({ q: "xylophone" }) },
    { label: "search typo 'chainsw'", path: "/api/tool?q=chainsw", explain: tools({ q: "chainsw" }) },
    { label: "suggest 'hedg'", path: "/api/tool/suggest?q=hedg", explain: (db) => suggestTools(db, "hedg") },
    { label: "tools page 400", path: "/api/tool?page=400", explain: tools({ page: "400" }) },
    ...(cursors.tools ? [{ label: "tools ~page 5,000 (cursor)", path: `/api/tool?cursor=${cursors.tools}`, explain: tools({ cursor: cursors.tools }) }] : []),
    { label: "reviews page 1", path: "/api/review", explain: (db) => listReviews(db, reviewListQuerySchema.parse({})) },
    ...(cursors.reviews
      ? [{ label: "reviews deep (cursor)", path: `/api/review?cursor=${cursors.reviews}`, explain: (db: Database["db"]) => listReviews(db, reviewListQuerySchema.parse({ cursor: cursors.reviews })) }]
      : []),
    { label: "a customer's orders (50)", path: "/api/order" },
  ];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(...CONCURRENCIES) });
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

async function time(url: string, headers: Record<string, string>, concurrency: number) {
  // Warmed at the same concurrency, so that every pool connection the run will use has planned
  // its statements once (a new Postgres backend's first plan costs ~10 ms: its catalogue cache).
  let warm = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (warm++ < 30 * concurrency) await get(url, headers);
  }));
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < REQUESTS) {
        const t0 = performance.now();
        const status = await get(url, headers);
        latencies.push(performance.now() - t0);
        if (status !== 200) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), rps: latencies.length / seconds, failures };
}

for (const driver of drivers) {
  const pgDb = driver === "pg" ? await createPostgresDatabase() : undefined;
  const dataDir = driver === "pg" ? "memory://" : mkdtempSync(path.join(tmpdir(), "toolyard-scale-"));
  try {
    const statements: { query: string; params: unknown[] }[] = [];
    const database = await openDatabase({
      databaseUrl: pgDb?.url,
      dataDir,
      migrationsDir,
      logQuery: (query, params) => statements.push({ query, params }),
    });
    let cursors: Awaited<ReturnType<typeof deepCursors>>;
    try {
      console.log(`\n== ${driver}: filling ${JSON.stringify(size)}`);
      const started = performance.now();
      await fillScale(database.db, size, console.log);
      console.log(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      cursors = await deepCursors(database.db);

      console.log(`\n== ${driver}: plans of the app's own SQL (EXPLAIN ANALYZE)`);
      for (const target of targets(cursors)) {
        if (!target.explain) continue;
        statements.length = 0;
        await target.explain(database.db);
        // Taken out first: the EXPLAINs below are logged too.
        for (const { query, params } of statements.splice(0)) {
          const inline = query.replace(/\$(\d+)/g, (_, n: string) => {
            const value = params[Number(n) - 1];
            return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
          });
          const result = (await database.db.execute(sql.raw(`explain (analyze, costs off, timing off, summary on) ${inline}`))) as unknown as {
            rows: Record<string, string>[];
          };
          const lines = result.rows.map((row) => Object.values(row)[0] as string);
          const scans = lines.filter((line) => /Scan|Sort|Limit/.test(line)).map((line) => line.trim().replace(/\s+\(actual.*$/, ""));
          const took = lines.find((line) => line.startsWith("Execution Time")) ?? "";
          const seq = scans.some((line) => line.includes("Seq Scan on tools") || line.includes("Seq Scan on reviews") || line.includes("Seq Scan on orders"));
          console.log(`  ${target.label}: ${took}${seq ? "  << SEQ SCAN" : ""}\n    ${scans.slice(0, 4).join("\n    ")}`);
        }
      }
    } finally {
      await database.close();
    }

    const server = await startBenchServer({ ...(pgDb ? { DATABASE_URL: pgDb.url } : { DATA_DIR: dataDir }), LIST_CACHE_SECONDS: "0", SEED: "false" });
    try {
      const token = await signUpForToken(server.url, `scale-bench-${Date.now()}@example.com`);
      const auth = { authorization: `Bearer ${token}`, origin: BENCH_ORIGIN };
      const [tool] = (await (await fetch(`${server.url}/api/tool?limit=1`)).json()) as { _id: string; minimumQuantity: number }[];
      for (let i = 0; i < 50; i++) {
        const res = await fetch(`${server.url}/api/order`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ toolId: tool?._id, quantity: tool?.minimumQuantity }),
        });
        if (res.status !== 201) throw new Error(`order failed: ${res.status} ${await res.text()}`);
      }
      for (const concurrency of CONCURRENCIES) {
        console.log(`\n== ${driver}: ${REQUESTS} requests each, ${concurrency} at a time, list cache off`);
        console.log(`  ${"list".padEnd(30)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)} ${"req/s".padStart(7)} ${"server CPU/req".padStart(15)}`);
        for (const target of targets(cursors)) {
          const cpuBefore = server.cpuSeconds();
          const r = await time(`${server.url}${target.path}`, target.path.startsWith("/api/order") ? auth : {}, concurrency);
          const cpu = ((server.cpuSeconds() - cpuBefore) / REQUESTS) * 1e6;
          console.log(
            `  ${target.label.padEnd(30)} ${r.p50.toFixed(1).padStart(6)}ms ${r.p95.toFixed(1).padStart(6)}ms ${r.p99.toFixed(1).padStart(6)}ms ${r.rps.toFixed(0).padStart(7)} ${cpu.toFixed(0).padStart(12)} µs${r.failures ? `  ${r.failures} FAILED` : ""}`,
          );
          if (r.failures) process.exitCode = 1;
        }
      }
    } finally {
      await server.close();
    }
  } finally {
    await pgDb?.drop();
    if (driver !== "pg") rmSync(dataDir, { recursive: true, force: true });
  }
}
agent.destroy();
