/**
 * The database (PGlite, or Postgres by DATABASE_URL), migrated on open, as `app.store`; and
 * `app.dependenciesDown()`, which tells an outage (answered 503) from a bug (500).
 */
import { sql } from "drizzle-orm";
import fp from "fastify-plugin";
import { openDatabase, type Database } from "../db/client";
import { starterImageFile, unpackStarterImage } from "../db/starter-image";

declare module "fastify" {
  interface FastifyInstance {
    store: Database;
    /** Is the database, or Redis when there is one, unreachable right now? */
    dependenciesDown: () => Promise<boolean>;
  }
}

async function answers(database: Database, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = database.db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface DatabasePluginOptions {
  /** See `DatabaseOptions.memoryImage` (tests). */
  memoryImage?: Blob;
}

export default fp<DatabasePluginOptions>(
  async (app, { memoryImage }) => {
    const { databaseUrl, dataDir, migrationsDir } = app.config;
    const database = await openDatabase({ databaseUrl, dataDir, migrationsDir, memoryImage, fillNewFolder: (dir) => unpackStarterImage(starterImageFile(migrationsDir), dir) });
    app.decorate("store", database);
    app.decorate("dependenciesDown", async () => {
      if (app.redis && app.redis.status !== "ready") return true;
      return !(await answers(database, 2000));
    });
    app.addHook("onClose", async () => {
      await database.close();
    });
  },
  { name: "toolyard-database", dependencies: ["toolyard-redis"] },
);
