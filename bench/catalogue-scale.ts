/**
 * `npm run bench:scale:catalogue`: issue 51's figures at a merchant's size, on Postgres
 * (DATABASE_URL; a database of its own, dropped at the end). `npm run bench:scale` is the lists'
 * bench of decision 0013 (it fills a million orders too); this one fills the catalogue instead.
 *
 * It fills, by SQL alone (generate_series), SCALE_TOOLS (100,000) tools under a three-level category
 * tree (the four roots, 20 sub-categories, 80 below them), 200 brands, 30 specifications (15 text
 * and 5 yes/no choices, 10 numbers; 24 filterable), a third of the tools in products of three
 * variants; prints the plans Postgres chose for the facets' own SQL (EXPLAIN ANALYZE); then runs the
 * store (bundled as `npm start` runs it, list cache off) and times REQUESTS requests, CONCURRENCY at a
 * time, of the list and the facets for a category page, a search and a two-filter query (brand +
 * spec), p50 and p95 against issue 51's targets; then the export of every tool and an import of
 * the exported file with every price and stock changed (every row updated), with the server's peak
 * resident memory while each runs.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:scale:catalogue
 *   (SCALE_TOOLS, REQUESTS, CONCURRENCY; SCALE_IMPORT=0 skips the export and import;
 *   BENCH_CPU_PROF=<folder> profiles the server, BENCH_SERVER=tsx runs it from the sources)
 *
 * SCALE_ONLY=list times only the list's pages (every everyday page: none, a root, a sub-category,
 * each sort, page 2 by cursor, and brand + spec), no plans, no import. SCALE_DATABASE=<name> keeps
 * the filled database under that name (filled when it has no tools yet, never dropped), so runs
 * after the first skip the fill. BASELINE=<folder>: another source tree (an older build, with its
 * node_modules) is bundled and started on the same database beside this one, and each request is
 * timed on both in ROUNDS alternating rounds (old, new, old, new…), so a loaded machine weighs on both alike:
 *
 *   DATABASE_URL=… SCALE_DATABASE=toolyard_catalogue_scale SCALE_ONLY=list BASELINE=../wt-base REQUESTS=200 npm run bench:scale:catalogue
 */
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { toolListQuerySchema } from "../src/contract/schemas";
import { toolFacets } from "../src/server/catalog/facets";
import { specQueryOf } from "../src/server/catalog/service";
import { openDatabase, type Db } from "../src/server/db/client";
import { createPostgresDatabase } from "../src/server/test-support";
import { BENCH_ORIGIN, signUpForToken, startBenchServer } from "./support";

if (!process.env.DATABASE_URL) {
  console.error("bench:scale:catalogue needs DATABASE_URL (a Postgres server; a fresh database is created and dropped).");
  process.exit(2);
}

const TOOLS = Number(process.env.SCALE_TOOLS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1);
const LIST_ONLY = process.env.SCALE_ONLY === "list";
const IMPORT = process.env.SCALE_IMPORT !== "0" && !LIST_ONLY;
const KEPT_DATABASE = process.env.SCALE_DATABASE;
const BASELINE = process.env.BASELINE ? path.resolve(process.env.BASELINE) : undefined;
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const ADMIN = "scale-admin@toolyard.example";
const migrationsDir = path.join(import.meta.dirname, "..", "drizzle");

const ROOTS = ["hand-tools", "chainsaws", "lawn-mowers", "power-tools"];
const BRANDS = 200;
/** The 30 specifications: [key, kind, how many values a choice has]. */
const SPECS: { key: string; kind: "text" | "boolean" | "number"; values: number; filterable: boolean }[] = [
  ...Array.from({ length: 15 }, (_, i) => ({ key: `choice_${i + 1}`, kind: "text" as const, values: 3 + (i % 10), filterable: i < 12 })),
  ...Array.from({ length: 5 }, (_, i) => ({ key: `flag_${i + 1}`, kind: "boolean" as const, values: 2, filterable: i < 4 })),
  ...Array.from({ length: 10 }, (_, i) => ({ key: `number_${i + 1}`, kind: "number" as const, values: 0, filterable: i < 8 })),
];
const PRIMES = [7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101, 103, 107, 109, 113, 127, 131, 137];

/** The catalogue, by SQL alone. A tool `i` of a product (the first third) shares its product's category. */
async function fill(db: Db, log: (line: string) => void) {
  const step = async (label: string, run: () => Promise<unknown>) => {
    const started = performance.now();
    await run();
    log(`  ${label}: ${Math.round(performance.now() - started)} ms`);
  };
  await step("categories", async () => {
    await db.execute(sql`
      insert into categories (id, slug, name, parent_id, position)
      select 'sc-' || r.slug || '-' || c, 'sc-' || r.slug || '-' || c, 'Sub ' || r.slug || ' ' || c, r.slug, c
      from unnest(${sql.raw(`array[${ROOTS.map((r) => `'${r}'`).join(",")}]`)}) as r(slug), generate_series(1, 5) as c`);
    await db.execute(sql`
      insert into categories (id, slug, name, parent_id, position)
      select p.id || '-' || g, p.id || '-' || g, p.name || '.' || g, p.id, g
      from categories p, generate_series(1, 4) as g where p.id like 'sc-%'`);
  });
  await step("brands", () =>
    db.execute(sql`insert into brands (id, slug, name) select 'sc-brand-' || b, 'brand-' || b, 'Brand ' || lpad(b::text, 3, '0') from generate_series(1, ${BRANDS}::int) as b`),
  );
  await step("specifications", () =>
    db.execute(sql`
      insert into spec_definitions (key, name, unit, kind, filterable, position)
      select d->>'key', initcap(replace(d->>'key', '_', ' ')), case when d->>'kind' = 'number' then 'mm' end, d->>'kind', (d->>'filterable')::boolean, n
      from jsonb_array_elements(${JSON.stringify(SPECS)}::jsonb) with ordinality as s(d, n)`),
  );
  const products = Math.floor(TOOLS / 9);
  await step("products", () =>
    db.execute(sql`
      insert into products (id, name, options)
      select 'sc-product-' || p, 'Scale product ' || p, '[{"name":"Size","values":["S","M","L"]}]'::jsonb
      from generate_series(1, ${products}::int) as p`),
  );
  // A tool's "group": its product, or itself. Each spec is present on about two thirds of the tools.
  const specArgs = SPECS.map((s, k) => {
    const p = PRIMES[k] as number;
    const present = `(g * ${p} + ${k}) % 3 <> 0`;
    const value =
      s.kind === "number" ? `((i * ${p}) % 2000) / 10.0` : s.kind === "boolean" ? `(i * ${p}) % 2 = 0` : `'Value ' || ((g * ${p} + i % 2) % ${s.values})`;
    return `'${s.key}', case when ${present} then to_jsonb(${value}) end`;
  }).join(", ");
  await step("tools", () =>
    db.execute(
      sql.raw(`
      insert into tools (id, name, category_id, category, brand_id, sku, specs, product_id, option_values, image, price_cents, available_quantity, minimum_quantity, description, created_at)
      select 'sc-tool-' || i,
             (array['Claw Hammer','Chainsaw','Lawn Mower','Cordless Drill','Hand Saw','Spanner Set','Hedge Trimmer','Angle Grinder','Leaf Blower','Chisel Set'])[1 + g % 10]
               || ' ' || (array['Pro','Classic','Compact','Heavy Duty','Lite'])[1 + (g / 10) % 5] || ' ' || i,
             'sc-' || root || '-' || (1 + (g / 4) % 5) || '-' || (1 + (g / 20) % 4),
             root::tool_category,
             'sc-brand-' || (1 + (g * 7) % ${BRANDS}),
             'SC-' || lpad(i::text, 7, '0'),
             jsonb_strip_nulls(jsonb_build_object(${specArgs})),
             case when i <= ${products * 3} then 'sc-product-' || (1 + (i - 1) / 3) end,
             case when i <= ${products * 3} then jsonb_build_object('Size', (array['S','M','L'])[1 + (i - 1) % 3]) else '{}'::jsonb end,
             '/images/tools/hammer.svg',
             500 + (i * 7919) % 200000,
             100,
             1,
             'Built for the workshop and the garden. Batch ' || (i % 997) || '.',
             now() - make_interval(mins => ${TOOLS} - i)
      from (select i, case when i <= ${products * 3} then 1 + (i - 1) / 3 else i end as g from generate_series(1, ${TOOLS}) as i) as s,
           lateral (select (array['hand-tools','chainsaws','lawn-mowers','power-tools'])[1 + g % 4] as root) as r`),
    ),
  );
  await step("stock ledger", () => db.execute(sql`insert into stock_movements (tool_id, delta, reason) select id, available_quantity, 'initial' from tools where id like 'sc-tool-%'`));
  await step("analyze", () => db.execute(sql`analyze`));
}

interface Target {
  label: string;
  path: string;
  /** p95 issue 51 asks for, in ms. */
  target: number;
  /** Timed with SCALE_ONLY=list. */
  list?: boolean;
  /** The path is this page's next page: its `X-Next-Cursor` is added as `cursor` when the run starts. */
  nextOf?: boolean;
}

const TARGETS: Target[] = [
  { label: "list: category page (root)", path: "/api/tool?category=power-tools", target: 10, list: true },
  { label: "list: sub-category page", path: "/api/tool?category=sc-power-tools-2", target: 10, list: true },
  ...(LIST_ONLY
    ? [
        { label: "list: no filter", path: "/api/tool", target: 10, list: true },
        { label: "list: root, page 2 by cursor", path: "/api/tool?category=chainsaws", target: 10, list: true, nextOf: true },
        { label: "list: no filter, newest", path: "/api/tool?sort=newest", target: 10, list: true },
        { label: "list: root by price", path: "/api/tool?category=chainsaws&sort=price-asc", target: 10, list: true },
        { label: "list: root by price, highest first", path: "/api/tool?category=lawn-mowers&sort=price-desc", target: 10, list: true },
        { label: "list: root, best rated", path: "/api/tool?category=hand-tools&sort=rating", target: 10, list: true },
        { label: "list: sub-category by price, page 2 by cursor", path: "/api/tool?category=sc-chainsaws-3&sort=price-asc", target: 10, list: true, nextOf: true },
      ]
    : []),
  { label: "facets: category page (root)", path: "/api/tool/facets?category=power-tools", target: 20 },
  { label: "facets: sub-category page", path: "/api/tool/facets?category=sc-power-tools-2", target: 20 },
  { label: "facets: search 'drill'", path: "/api/tool/facets?q=drill", target: 20 },
  { label: "facets: search 'hedge trimmer pro'", path: "/api/tool/facets?q=hedge%20trimmer%20pro", target: 20 },
  { label: "facets: brand + spec", path: "/api/tool/facets?category=power-tools&brand=brand-8&spec.choice_1=Value%201", target: 20 },
  { label: "list: brand + spec", path: "/api/tool?category=power-tools&brand=brand-8&spec.choice_1=Value%201", target: 10, list: true },
].filter((t) => !LIST_ONLY || t.list);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

async function warm(url: string) {
  let warmed = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (warmed++ < 20 * CONCURRENCY) await get(url);
  }));
}

/** `requests` timed requests of `url`, CONCURRENCY at a time, added to `into`. */
async function timeInto(url: string, requests: number, into: { latencies: number[]; failures: number }) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < requests) {
        const t0 = performance.now();
        if ((await get(url)) !== 200) into.failures += 1;
        into.latencies.push(performance.now() - t0);
      }
    }),
  );
}

function percentiles({ latencies, failures }: { latencies: number[]; failures: number }) {
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), failures };
}

async function time(url: string) {
  await warm(url);
  const timed = { latencies: [], failures: 0 };
  await timeInto(url, REQUESTS, timed);
  return percentiles(timed);
}

/** A list page's next page: the path with the cursor its answer gives. */
async function nextPageOf(serverUrl: string, pathname: string): Promise<string> {
  const res = await fetch(`${serverUrl}${pathname}`);
  const cursor = res.headers.get("x-next-cursor");
  await res.text();
  if (!cursor) throw new Error(`no next page for ${pathname}`);
  return `${pathname}${pathname.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
}

/** The old build and this one timed on the same request in alternating rounds. */
async function compare(oldUrl: string, newUrl: string, pathname: string) {
  await warm(`${oldUrl}${pathname}`);
  await warm(`${newUrl}${pathname}`);
  const before = { latencies: [], failures: 0 };
  const after = { latencies: [], failures: 0 };
  const perRound = Math.ceil(REQUESTS / ROUNDS);
  for (let round = 0; round < ROUNDS; round++) {
    await timeInto(`${oldUrl}${pathname}`, perRound, before);
    await timeInto(`${newUrl}${pathname}`, perRound, after);
  }
  return { before: percentiles(before), after: percentiles(after) };
}

/** The totals and rows of both builds' answers, which must be the same. */
async function sameAnswers(oldUrl: string, newUrl: string, pathname: string): Promise<string | undefined> {
  const [a, b] = await Promise.all([fetch(`${oldUrl}${pathname}`), fetch(`${newUrl}${pathname}`)]);
  const [ta, tb] = [await a.text(), await b.text()];
  const head = (r: Response) => [r.status, r.headers.get("x-total-count"), r.headers.get("x-total-count-exact"), r.headers.get("x-next-cursor")].join(" ");
  if (head(a) !== head(b)) return `headers differ: ${head(a)} / ${head(b)}`;
  if (ta !== tb) return "bodies differ";
  return undefined;
}

/** The server's resident memory (kB) sampled every 50 ms while `run` runs: the peak. */
async function peakRss<T>(pid: number | undefined, run: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {
      // no /proc: no figure
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  try {
    const result = await run();
    sample();
    return { result, peakMb: peak / 1024 };
  } finally {
    clearInterval(timer);
  }
}

/** A database kept under SCALE_DATABASE's name (created when missing), or a throw-away one. */
async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!KEPT_DATABASE) return createPostgresDatabase();
  if (!/^[a-z_][a-z0-9_]*$/.test(KEPT_DATABASE)) throw new Error("SCALE_DATABASE: a plain lower-case name");
  const pg = (await import("pg")).default;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query("select 1 from pg_database where datname = $1", [KEPT_DATABASE]);
    if (rows.length === 0) await admin.query(`create database ${KEPT_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${KEPT_DATABASE}`;
  return { url: url.toString(), drop: async () => undefined };
}

const pgDb = await benchDatabase();
try {
  const statements: { query: string; params: unknown[] }[] = [];
  const database = await openDatabase({ databaseUrl: pgDb.url, dataDir: "memory://", migrationsDir, logQuery: (query, params) => statements.push({ query, params }) });
  try {
    const [filled] = (await database.db.execute(sql`select exists (select 1 from tools where id like 'sc-tool-%') as filled`) as unknown as { rows: { filled: boolean }[] }).rows;
    if (filled?.filled) console.log(`\n== the catalogue of ${KEPT_DATABASE} as it was filled before`);
    else {
      console.log(`\n== filling ${TOOLS} tools, ${SPECS.length} specifications, ${BRANDS} brands`);
      const started = performance.now();
      await fill(database.db, console.log);
      console.log(`  filled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }

    if (!LIST_ONLY) console.log(`\n== plans of the facets' own SQL (EXPLAIN ANALYZE), slowest statements first`);
    for (const target of TARGETS.filter((t) => t.path.startsWith("/api/tool/facets"))) {
      const url = target.path;
      const query = { ...toolListQuerySchema.parse(Object.fromEntries(groupParams(url))), spec: specQueryOf(url) };
      statements.length = 0;
      await toolFacets(database.db, query);
      const timed: { took: number; text: string; plan: string[] }[] = [];
      for (const { query: text, params } of statements.splice(0)) {
        const inline = text.replace(/\$(\d+)/g, (_, n: string) => {
          const value = params[Number(n) - 1];
          return typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
        });
        const result = (await database.db.execute(sql.raw(`explain (analyze, costs off, summary on) ${inline}`))) as unknown as { rows: Record<string, string>[] };
        const lines = result.rows.map((row) => Object.values(row)[0] as string);
        const took = Number(/Execution Time: ([\d.]+)/.exec(lines.find((l) => l.startsWith("Execution Time")) ?? "")?.[1] ?? 0);
        timed.push({ took, text: text.replace(/\s+/g, " ").slice(0, 110), plan: lines });
      }
      timed.sort((a, b) => b.took - a.took);
      const sum = timed.reduce((s, t) => s + t.took, 0);
      console.log(`  ${target.label}: ${timed.length} statements, ${sum.toFixed(1)} ms in all`);
      for (const t of timed.slice(0, 3)) console.log(`    ${t.took.toFixed(1).padStart(7)} ms  ${t.text}`);
      if (process.env.SCALE_PLANS) for (const line of timed[0]?.plan ?? []) console.log(`        ${line}`);
    }
  } finally {
    await database.close();
  }

  const serverEnv = { DATABASE_URL: pgDb.url, LIST_CACHE_SECONDS: "0", SEED: "false", ADMIN_EMAILS: ADMIN };
  // The old build first: it migrates nothing the new one has not.
  const baseline = BASELINE ? await startBenchServer(serverEnv, { root: BASELINE }) : undefined;
  const server = await startBenchServer(serverEnv);
  try {
    if (baseline) {
      console.log(`\n== ${REQUESTS} requests each, ${CONCURRENCY} at a time, list cache off, in ${ROUNDS} rounds alternating the old build (${BASELINE}) and this one`);
      console.log(`  ${"request".padEnd(46)} ${"old p50".padStart(9)} ${"old p95".padStart(9)} ${"new p50".padStart(9)} ${"new p95".padStart(9)}  target p95`);
      for (const target of TARGETS) {
        const pathname = target.nextOf ? await nextPageOf(server.url, target.path) : target.path;
        const differs = await sameAnswers(baseline.url, server.url, pathname);
        const { before, after } = await compare(baseline.url, server.url, pathname);
        const f = (n: number) => `${n.toFixed(1)}ms`.padStart(9);
        console.log(
          `  ${target.label.padEnd(46)} ${f(before.p50)} ${f(before.p95)} ${f(after.p50)} ${f(after.p95)}  ≤ ${target.target} ms ${after.p95 <= target.target ? "met" : "NOT MET"}${differs ? `  ANSWERS DIFFER: ${differs}` : ""}${before.failures + after.failures ? "  FAILED" : ""}`,
        );
        if (differs || before.failures + after.failures) process.exitCode = 1;
      }
    }
    if (!baseline) console.log(`\n== ${REQUESTS} requests each, ${CONCURRENCY} at a time, list cache off (server ${process.env.BENCH_SERVER === "tsx" ? "under tsx" : "bundled"})`);
    if (!baseline) console.log(`  ${"request".padEnd(38)} ${"p50".padStart(8)} ${"p95".padStart(8)}  target p95`);
    for (const target of baseline ? [] : TARGETS) {
      const r = await time(`${server.url}${target.nextOf ? await nextPageOf(server.url, target.path) : target.path}`);
      const met = r.p95 <= target.target;
      console.log(`  ${target.label.padEnd(38)} ${r.p50.toFixed(1).padStart(6)}ms ${r.p95.toFixed(1).padStart(6)}ms  ≤ ${target.target} ms ${met ? "met" : "NOT MET"}${r.failures ? `  ${r.failures} FAILED` : ""}`);
      if (r.failures) process.exitCode = 1;
    }

    if (IMPORT) {
      const token = await signUpForToken(server.url, ADMIN);
      const auth = { authorization: `Bearer ${token}`, origin: BENCH_ORIGIN };
      console.log(`\n== the catalogue as a spreadsheet (server's resident memory before: ${rssMb(server.pid).toFixed(0)} MB)`);
      const exported = await peakRss(server.pid, async () => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}/api/admin/catalogue.csv`, { headers: auth });
        if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
        const text = await res.text();
        return { text, seconds: (performance.now() - t0) / 1000 };
      });
      const rows = exported.result.text.split("\n").filter((line) => line.startsWith("SC-")).length;
      console.log(
        `  export GET /api/admin/catalogue.csv: ${rows} tools, ${(exported.result.text.length / 1e6).toFixed(1)} MB in ${exported.result.seconds.toFixed(1)} s (≤ 10 s ${exported.result.seconds <= 10 ? "met" : "NOT MET"}); server peak RSS ${exported.peakMb.toFixed(0)} MB`,
      );

      // Every row changed: price up a cent and stock 1 more (the export's price and stock columns).
      const [header = "", ...lines] = exported.result.text.split("\n");
      const columns = header.split(",");
      const priceAt = columns.indexOf("price");
      const stockAt = columns.indexOf("stock");
      const edited = [
        header,
        ...lines.map((line) => {
          if (!line.startsWith("SC-") || line.includes('"')) return line;
          const cells = line.split(",");
          cells[priceAt] = (Number(cells[priceAt]) + 0.01).toFixed(2);
          cells[stockAt] = String(Number(cells[stockAt]) + 1);
          return cells.join(",");
        }),
      ].join("\n");
      const imported = await peakRss(server.pid, async () => {
        const t0 = performance.now();
        const form = new FormData();
        form.append("file", new Blob([edited], { type: "text/csv" }), "scale.csv");
        const res = await fetch(`${server.url}/api/admin/catalogue/imports?dryRun=false`, { method: "POST", headers: auth, body: form });
        if (res.status !== 202) throw new Error(`import: ${res.status} ${await res.text()}`);
        const { _id } = (await res.json()) as { _id: string };
        for (;;) {
          await new Promise((r) => setTimeout(r, 250));
          const job = (await (await fetch(`${server.url}/api/admin/catalogue/imports/${_id}`, { headers: auth })).json()) as Record<string, unknown>;
          if (job.status === "done" || job.status === "failed") return { job, seconds: (performance.now() - t0) / 1000 };
        }
      });
      const { job, seconds } = imported.result;
      console.log(
        `  import of ${String(job.rows)} rows (${(edited.length / 1e6).toFixed(1)} MB, every price and stock changed): ${String(job.status)}, created ${String(job.created)}, updated ${String(job.updated)}, unchanged ${String(job.unchanged)} in ${seconds.toFixed(1)} s (≤ 60 s ${seconds <= 60 && job.status === "done" ? "met" : "NOT MET"}); server peak RSS ${imported.peakMb.toFixed(0)} MB`,
      );
      if (job.status !== "done") {
        console.log(`  errors: ${JSON.stringify(job.errors).slice(0, 500)}`);
        process.exitCode = 1;
      }
    }
  } finally {
    await server.close();
    await baseline?.close();
  }
} finally {
  await pgDb.drop();
  agent.destroy();
}

function rssMb(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** A path's query as the route's schema reads it (a repeated name as an array). */
function groupParams(url: string): [string, string | string[]][] {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of new URLSearchParams(url.slice(url.indexOf("?") + 1))) if (!name.startsWith("spec.")) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  return [...grouped].map(([name, values]) => [name, values.length === 1 ? (values[0] as string) : values]);
}
