/**
 * Two drivers, one code path: PGlite (embedded, zero setup) by default and
 * node-postgres when DATABASE_URL is set. Both expose the same Drizzle API.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { ConfigError, redactUrl } from "../config";
import { schema } from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction: what `db.transaction` hands its callback. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** One SQL text with `$n` parameters, as a library that brings its own SQL sends it (the job runner's). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  db: Db;
  driver: "pglite" | "pg";
  /**
   * The driver's own client, for a library that speaks SQL text (pg-boss): parameterless text may
   * hold several statements (its locked maintenance blocks), which PGlite runs only through exec().
   */
  executeSql: ExecuteSql;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  /** PGlite data folder; "memory://" keeps the database in memory (tests). */
  dataDir: string;
  migrationsDir: string;
  /** Pool size for node-postgres. */
  poolSize?: number;
  /** Hears every statement Drizzle sends (bench/scale.ts explains them); none by default. */
  logQuery?: (query: string, params: unknown[]) => void;
  /**
   * A memory:// PGlite starts from this data directory (made by `migratedPgliteImage`) instead
   * of running initdb, which costs about 2 s; the migrations then find nothing to do. Tests only.
   */
  memoryImage?: Blob;
  /**
   * Fills a PGlite folder that holds no database yet before PGlite opens it (db/starter-image.ts
   * unpacks the migrated image there). When it does not, PGlite runs initdb and the migrator
   * every migration.
   */
  fillNewFolder?: (dir: string) => void;
}

const loggerOf = (options: DatabaseOptions) => (options.logQuery ? { logQuery: options.logQuery } : undefined);

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options, options.databaseUrl) : openPglite(options);
}

async function pgliteModules() {
  const { PGlite } = await import("@electric-sql/pglite");
  // pg_trgm: the catalogue's typo-tolerant name search (migration 0003), as on Postgres.
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  return { PGlite, extensions: { pg_trgm }, drizzle, migrate };
}

/**
 * PGlite starts Postgres with shared_buffers = 128MB, all of it resident from the start; a
 * one-box store's working set fits in far less, and the files stay in the OS page cache. 32MB
 * took the idle server from about 405 MB to 290 MB (bench/startup.mjs, decision 0013).
 */
const PGLITE_SHARED_BUFFERS = "32MB";

/** An in-memory PGlite with every migration applied, dumped as a data directory (`memoryImage`). */
export async function migratedPgliteImage(migrationsDir: string): Promise<Blob> {
  const { PGlite, extensions, drizzle, migrate } = await pgliteModules();
  const client = new PGlite({ extensions });
  try {
    await migrate(drizzle(client, { schema }), { migrationsFolder: migrationsDir });
    // Everything written goes to the data files first: a store started from the image then has
    // no write-ahead log to replay.
    await client.exec("checkpoint");
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  const { PGlite, extensions, drizzle, migrate } = await pgliteModules();
  const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  let client: InstanceType<typeof PGlite>;
  if (options.dataDir === "memory://") {
    client = new PGlite({ extensions, startParams, ...(options.memoryImage ? { loadDataDir: options.memoryImage } : {}) });
  } else {
    const dir = path.join(options.dataDir, "pglite");
    // PGlite needs the parent folder to exist.
    mkdirSync(path.dirname(dir), { recursive: true });
    if (!existsSync(path.join(dir, "PG_VERSION"))) options.fillNewFolder?.(dir);
    client = new PGlite(dir, { extensions, startParams });
  }
  const db = drizzle(client, { schema, logger: loggerOf(options) });
  await migrate(db, { migrationsFolder: options.migrationsDir });
  const executeSql: ExecuteSql = async (text, values) =>
    values && values.length > 0 ? client.query(text, values) : { rows: (await client.exec(text)).flatMap((r) => r.rows) };
  return { db: db as unknown as Db, driver: "pglite", executeSql, close: () => client.close() };
}

async function openPostgres(options: DatabaseOptions, databaseUrl: string): Promise<Database> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  // A database that does not answer fails the request (503) instead of hanging it.
  // No JIT: the store's statements are short, and compiling one whose estimated cost passes
  // jit_above_cost (a broad search at 100,000 tools) took longer than running it (bench/scale.ts:
  // 'drill' p50 11.7 -> 8.5 ms, a typo 19.4 -> 14.5 ms).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.poolSize ?? 20, connectionTimeoutMillis: 5000, options: "-c jit=off" });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const db = drizzle(pool, { schema, logger: loggerOf(options) });
  // Several instances may start together: one migrates at a time.
  const lock = await pool.connect().catch(async (error: unknown) => {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(`DATABASE_URL: cannot reach Postgres at ${redactUrl(databaseUrl)} (${reason})`);
  });
  try {
    await lock.query("select pg_advisory_lock(727274)");
    await migrate(db, { migrationsFolder: options.migrationsDir });
  } finally {
    await lock.query("select pg_advisory_unlock(727274)").catch(() => undefined);
    lock.release();
  }
  const executeSql: ExecuteSql = (text, values) => pool.query(text, values);
  return { db: db as unknown as Db, driver: "pg", executeSql, close: () => pool.end() };
}
