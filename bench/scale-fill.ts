/**
 * `npm run db:scale`: fills the store's database (DATABASE_URL, else PGlite under DATA_DIR,
 * default ./data) with a merchant-size catalogue: SCALE_TOOLS (100,000), SCALE_USERS (20,000),
 * SCALE_REVIEWS (200,000) and SCALE_ORDERS (1,000,000). Run it on a fresh database; a second
 * run adds nothing (every row has a fixed id). Then `npm start` serves it.
 */
import path from "node:path";
import { openDatabase } from "../src/server/db/client";
import { fillScale, sizeFromEnv } from "./scale-fixture";

const size = sizeFromEnv();
const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR ?? "./data";
console.log(`filling ${databaseUrl ? "Postgres (DATABASE_URL)" : `PGlite in ${dataDir}`}: ${JSON.stringify(size)}`);
const database = await openDatabase({ databaseUrl, dataDir, migrationsDir: path.join(import.meta.dirname, "..", "drizzle") });
try {
  const started = performance.now();
  await fillScale(database.db, size, console.log);
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
