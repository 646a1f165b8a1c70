/**
 * Vitest's global setup for the server tests: with DATABASE_URL set, one Postgres database with
 * every migration applied, which `startTestApp` copies (`create database … template …`) rather
 * than migrating a new database for every store it starts (2–3 s each, over a hundred stores
 * a run). Dropped at the end of the run; templates left by a run that was killed (their process
 * is gone) are dropped at the start of the next.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { findAppRoot } from "../../src/server/config";
import { openDatabase } from "../../src/server/db/client";

/** Where `createPostgresDatabase({ migrated: true })` (src/server/test-support.ts) finds the template's name. */
export const PG_TEMPLATE_ENV = "TOOLYARD_PG_TEMPLATE";
const PREFIX = "toolyard_tpl_";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but is someone else's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A connection to the DATABASE_URL server's `postgres` database, for creating and dropping databases. */
export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${PREFIX}%`]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(PREFIX.length).split("_")[0]);
      if (!alive(pid)) await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
  const name = `${PREFIX}${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://", migrationsDir: path.join(findAppRoot(), "drizzle"), poolSize: 2 });
  // (Two connections: the migration lock holds one.) No connection may stay open on a template while it is copied.
  await database.close();
  // The workers start after this and inherit the environment.
  process.env[PG_TEMPLATE_ENV] = name;
  return async () => {
    await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
  };
}
