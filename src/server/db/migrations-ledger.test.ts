/**
 * Migration 0002 starts the stock ledger on a database that already holds tools: each gets an
 * "initial" movement equal to its stock, so stock = sum(movements) holds from the first minute.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createPostgresDatabase, drivers, firstMigrations, realMigrations } from "../test-support";
import { openDatabase } from "./client";
import { stockMovements } from "./schema";


describe.each(drivers())("starting the stock ledger on %s", (driver) => {
  it("gives every existing tool an initial movement equal to its stock", async () => {
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-migrate-ledger-"));
    const oldMigrations = firstMigrations(2);
    try {
      const options = { databaseUrl: pg?.url, dataDir };
      const old = await openDatabase({ ...options, migrationsDir: oldMigrations });
      await old.db.execute(sql`insert into tools (id, name, category, image, price_cents, available_quantity, minimum_quantity, description)
        values ('t1', 'Hammer', 'hand-tools', '/h.svg', 1250, 7, 1, 'Old hammer'), ('t2', 'Saw', 'hand-tools', '/s.svg', 900, 0, 1, 'Sold out')`);
      await old.close();

      const migrated = await openDatabase({ ...options, migrationsDir: realMigrations });
      try {
        const rows = await migrated.db.select().from(stockMovements).orderBy(stockMovements.toolId);
        expect(rows.map((r) => [r.toolId, r.delta, r.reason])).toEqual([
          ["t1", 7, "initial"],
          ["t2", 0, "initial"],
        ]);
      } finally {
        await migrated.close();
      }
    } finally {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(oldMigrations, { recursive: true, force: true });
    }
  }, 120_000); // two file-backed PGlite starts, each with initdb: slow on a loaded machine
});
