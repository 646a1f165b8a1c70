/**
 * An import killed mid-way (issue 51): the BUILT store (`dist/server/main.js` as `npm start` runs
 * it) on Postgres is killed with SIGKILL while a 20,000-row import is writing; the catalogue is then
 * exactly the old one (nothing of the import's one transaction exists), after the restart too. The
 * import's job is still `active` in the job runner (pg-boss 10 cannot know its worker died), so the
 * import shows `running` and another import is refused (409 IMPORT_RUNNING) until pg-boss expires
 * the job (its default expiry, 15 minutes after it started) and runs it again (retryLimit 3); the
 * re-run starts over from the stored file and ends `done` with exactly the new catalogue. The test
 * stands in for the 15 minutes by moving the job's start back an hour, then runs pg-boss's
 * maintenance (its public `maintain()`, what the store runs every 120 s), which expires it.
 *
 * It needs the built store (`npm run build`) and DATABASE_URL, like src/server/built-store.test.ts:
 * skipped without them locally, a failure under CI=true.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import pg from "pg";
import PgBoss from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../tests/support/google-login";
import { HttpClient } from "../../tests/support/http-client";
import { CATALOGUE_IMPORT_QUEUE } from "./catalog/imports";
import { findAppRoot } from "./config";
import { createPostgresDatabase } from "./test-support";

const root = findAppRoot();
const CI = process.env.CI === "true";
const built = ["dist/web/index.html", "dist/server/main.js"].every((f) => existsSync(path.join(root, f)));
const ready = built && Boolean(process.env.DATABASE_URL);
if (!ready && !CI) console.warn("No built store in dist/ or no DATABASE_URL: skipping the killed import's test.");
const scratch = mkdtempSync(path.join(tmpdir(), "toolyard-kill-"));
const running = new Set<ChildProcess>();
const ADMIN = "kill-admin@toolyard.example";
const NEW_ROWS = 20_000;

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

async function startStore(env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? scratch, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://localhost:${port}`, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve(signal ?? code);
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await fetch(`${url}/api/health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the built store exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the built store did not answer /api/health:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, exited, output: () => output };
}

async function query<T>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The whole catalogue as one fingerprint: every tool's catalogue fields, and how many brands, products and stock movements there are. */
async function catalogue(databaseUrl: string) {
  const [row] = await query<{ tools: number; fingerprint: string; brands: number; products: number; movements: number }>(
    databaseUrl,
    `select (select count(*)::int from tools) as tools,
            (select md5(string_agg(concat_ws('|', sku, name, price_cents, available_quantity, brand_id, category_id, product_id, specs::text, active), E'\\n' order by sku)) from tools) as fingerprint,
            (select count(*)::int from brands) as brands,
            (select count(*)::int from products) as products,
            (select count(*)::int from stock_movements) as movements`,
  );
  return row;
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(value).slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!ready && !CI)("a catalogue import killed with SIGKILL (the built store on Postgres)", () => {
  it("leaves exactly the old catalogue, and the job runner runs the import again to exactly the new one", async () => {
    const db = await createPostgresDatabase();
    const env = { DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(scratch, "data-")), ADMIN_EMAILS: ADMIN, AUTH_SECRET: "kill-test-secret-kill-test-secret-012345", LOG_LEVEL: "warn" };
    let store = await startStore(env);
    try {
      const admin = new HttpClient(store.url);
      expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);

      // The file: every demo tool with a new price, and 20,000 new tools under 50 new brands.
      const exported = await admin.get("/api/admin/catalogue.csv");
      expect(exported.statusCode).toBe(200);
      const old = parse(exported.body, { columns: true }) as Record<string, string>[];
      expect(old.length).toBeGreaterThan(0);
      const rows = [
        ...old.map((t) => ({ sku: t.sku, name: t.name, brand: t.brand, category: t.category, price: (Number(t.price) + 1).toFixed(2), stock: t.stock, images: t.images })),
        ...Array.from({ length: NEW_ROWS }, (_, i) => ({
          sku: `KILL-${String(i).padStart(5, "0")}`,
          name: `Killed import tool ${i}`,
          brand: `kill-brand-${i % 50}`,
          category: "hand-tools",
          price: (5 + (i % 500)).toFixed(2),
          stock: String(1 + (i % 40)),
          images: "/images/tools/hammer.svg",
        })),
      ];
      const file = stringify(rows, { header: true, columns: ["sku", "name", "brand", "category", "price", "stock", "images"] });
      const before = await catalogue(db.url);

      const form = new FormData();
      form.append("file", new Blob([file], { type: "text/csv" }), "kill.csv");
      const started = await admin.request("POST", "/api/admin/catalogue/imports?dryRun=false", { body: form });
      expect(started.statusCode, started.body).toBe(202);
      const id = (started.json() as { _id: string })._id;

      // Every row read and checked: the job is writing its one transaction. Then SIGKILL.
      const status = () => admin.get(`/api/admin/catalogue/imports/${id}`).then((r) => r.json() as { status: string; processed: number; rows: number });
      await until("the import reading its last row", status, (s) => s.status === "running" && s.rows > 0 && s.processed === s.rows, 120_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await status()).status, "killed while running").toBe("running");
      store.child.kill("SIGKILL");
      expect(await store.exited).toBe("SIGKILL");

      expect(await catalogue(db.url), "right after the kill: the old catalogue").toEqual(before);

      // Stand in for pg-boss's 15-minute expiry (see the file's comment).
      const moved = await query(db.url, `update pgboss.job set started_on = started_on - interval '1 hour' where name = $1 and state = 'active' returning id`, [CATALOGUE_IMPORT_QUEUE]);
      expect(moved, "the import's job is still active: nobody told pg-boss its worker died").toHaveLength(1);

      store = await startStore(env);
      const again = new HttpClient(store.url);
      expect((await again.signIn(ADMIN)).statusCode).toBe(200);
      expect(await catalogue(db.url), "after the restart: the old catalogue").toEqual(before);
      const second = new FormData();
      second.append("file", new Blob([file], { type: "text/csv" }), "kill.csv");
      expect((await again.request("POST", "/api/admin/catalogue/imports?dryRun=false", { body: second })).statusCode, "another import waits for the killed one").toBe(409);

      // pg-boss's own maintenance, as the store runs it every 120 s, run now through its public API: it expires the moved job and queues its retry.
      const boss = new PgBoss({ connectionString: db.url, schedule: false, supervise: false, migrate: false });
      await boss.start();
      await boss.maintain();
      await boss.stop({ graceful: false, wait: true });
      const done = await until(
        "the import run again to its end",
        () => again.get(`/api/admin/catalogue/imports/${id}`).then((r) => r.json() as { status: string; created: number; updated: number; unchanged: number }),
        (s) => s.status === "done" || s.status === "failed",
        300_000,
      );
      expect(done).toMatchObject({ status: "done", created: NEW_ROWS, updated: old.length, unchanged: 0 });
      const after = await catalogue(db.url);
      expect(after?.tools).toBe((before?.tools ?? 0) + NEW_ROWS);
      expect(after?.brands).toBe((before?.brands ?? 0) + 50);
      // One movement per new tool (its first stock) and none for the old tools (stock unchanged): exactly one run's.
      expect(after?.movements).toBe((before?.movements ?? 0) + NEW_ROWS);
      const [{ n } = { n: -1 }] = await query<{ n: number }>(db.url, `select count(*)::int as n from tools where sku like 'KILL-%'`);
      expect(n).toBe(NEW_ROWS);
    } finally {
      store.child.kill("SIGTERM");
      await store.exited;
      await db.drop();
    }
  }, 600_000);
});
