/**
 * Migrations keep every order: a database with orders in the first shape (one tool per
 * order) is migrated to orders with lines and history, on both drivers.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createPostgresDatabase, drivers, firstMigrations, pgliteImage, realMigrations } from "../test-support";
import { migratedPgliteImage, openDatabase } from "./client";
import { unpackStarterImage } from "./starter-image";
import { orderEvents, orderLines, orders } from "./schema";

/** A line from before issue 31 (migration 0009): no discount, shipping or tax, its total its subtotal. */
const noExtras = (totalCents: number) => ({ discountCents: 0, shippingCents: 0, taxCents: 0, totalCents });


describe.each(drivers())("migrating orders to lines and history on %s", (driver) => {
  it("gives every existing order its line and its history, losing none", async () => {
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-migrate-data-"));
    const oldMigrations = firstMigrations(1);
    try {
      const options = { databaseUrl: pg?.url, dataDir };
      const old = await openDatabase({ ...options, migrationsDir: oldMigrations });
      await old.db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('u1', 'Old', 'old@example.com', false, now(), now())`);
      await old.db.execute(sql`insert into tools (id, name, category, image, price_cents, available_quantity, minimum_quantity, description)
        values ('t1', 'Hammer', 'hand-tools', '/h.svg', 1250, 7, 1, 'Old hammer')`);
      await old.db.execute(sql`insert into orders (id, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, status, created_at)
        values ('o1', 'u1', 't1', 'Hammer', 2, 1250, 2500, 'pending', now() - interval '2 days'),
               ('o2', 'u1', 't1', 'Hammer', 1, 1250, 1250, 'pending', now() - interval '1 day')`);
      await old.db.execute(sql`update orders set status = 'cancelled', cancelled_at = now() where id = 'o2'`);
      await old.close();

      const migrated = await openDatabase({ ...options, migrationsDir: realMigrations });
      try {
        const { db } = migrated;
        expect(await db.$count(orders)).toBe(2);
        const lines = await db.select().from(orderLines).orderBy(orderLines.orderId);
        expect(lines).toEqual([
          { orderId: "o1", position: 0, toolId: "t1", toolName: "Hammer", quantity: 2, unitPriceCents: 1250, lineTotalCents: 2500, ...noExtras(2500) },
          { orderId: "o2", position: 0, toolId: "t1", toolName: "Hammer", quantity: 1, unitPriceCents: 1250, lineTotalCents: 1250, ...noExtras(1250) },
        ]);
        const events = await db.select().from(orderEvents).orderBy(orderEvents.id);
        expect(events.map((e) => [e.orderId, e.status, e.actorRole, e.actorId])).toEqual([
          ["o1", "pending", "customer", "u1"],
          ["o2", "pending", "customer", "u1"],
          ["o2", "cancelled", "customer", "u1"],
        ]);
        const [first] = await db.select().from(orders).where(sql`${orders.id} = 'o1'`);
        expect(first).toMatchObject({ status: "pending", paymentMethod: "cash_on_delivery", note: "" });
      } finally {
        await migrated.close();
      }
    } finally {
      rmSync(oldMigrations, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    }
  }, 120_000); // two file-backed PGlite starts, each with initdb: slow on a loaded machine
});

describe("the starter image (the test harness starts every in-memory PGlite from it)", () => {
  it("holds every migration, so a database started from it has nothing left to apply", async () => {
    const journal = JSON.parse(readFileSync(path.join(realMigrations, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const statements: string[] = [];
    const database = await openDatabase({
      databaseUrl: undefined,
      dataDir: "memory://",
      migrationsDir: realMigrations,
      memoryImage: await pgliteImage(realMigrations),
      logQuery: (query) => statements.push(query),
    });
    try {
      const applied = (await database.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)) as unknown as { rows: { count: number }[] };
      expect(applied.rows[0]?.count).toBe(journal.entries.length);
      // The migrator records each migration it applies; from the image it applies none.
      expect(statements.some((query) => query.includes("select"))).toBe(true);
      expect(statements.filter((query) => /insert into "drizzle"\."__drizzle_migrations"/i.test(query))).toEqual([]);
      expect(await database.db.$count(orders)).toBe(0);
    } finally {
      await database.close();
    }
  });
});

describe("a new PGlite folder started from the starter image", () => {
  it("unpacks the image once, applies only the migrations it lacks, and is its own database afterwards", async () => {
    const journal = JSON.parse(readFileSync(path.join(realMigrations, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    // An image made before the last migrations were written: the store must still end up current.
    const olderMigrations = firstMigrations(3);
    const work = mkdtempSync(path.join(tmpdir(), "toolyard-starter-"));
    const imageFile = path.join(work, "image.tar");
    const dataDir = path.join(work, "data");
    try {
      writeFileSync(imageFile, Buffer.from(await (await migratedPgliteImage(olderMigrations)).arrayBuffer()));
      const unpacked: boolean[] = [];
      const statements: string[] = [];
      const open = () =>
        openDatabase({
          databaseUrl: undefined,
          dataDir,
          migrationsDir: realMigrations,
          fillNewFolder: (dir) => unpacked.push(unpackStarterImage(imageFile, dir)),
          logQuery: (query) => statements.push(query),
        });
      const applied = () => statements.filter((query) => /insert into "drizzle"\."__drizzle_migrations"/i.test(query)).length;
      const ledger = async (database: Awaited<ReturnType<typeof open>>) =>
        ((await database.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)) as unknown as { rows: { count: number }[] }).rows[0]?.count;

      const first = await open();
      try {
        expect(unpacked).toEqual([true]);
        expect(applied()).toBe(journal.entries.length - 3);
        expect(await ledger(first)).toBe(journal.entries.length);
        await first.db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('u1', 'Kept', 'kept@example.com', false, now(), now())`);
      } finally {
        await first.close();
      }
      // Unpacked beside the folder and renamed into place: nothing else is left there.
      expect(readdirSync(work).sort()).toEqual(["data", "image.tar"]);

      statements.length = 0;
      const again = await open();
      try {
        expect(unpacked).toEqual([true]);
        expect(applied()).toBe(0);
        expect(await ledger(again)).toBe(journal.entries.length);
        const kept = (await again.db.execute(sql`select name from "user" where id = 'u1'`)) as unknown as { rows: { name: string }[] };
        expect(kept.rows).toEqual([{ name: "Kept" }]);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(olderMigrations, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000); // an in-memory PGlite for the image and two file-backed starts: slow on a loaded machine

  it("writes nothing when there is no image or the folder already holds something", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "toolyard-starter-"));
    try {
      expect(unpackStarterImage(path.join(work, "missing.tar"), path.join(work, "data"))).toBe(false);
      expect(readdirSync(work)).toEqual([]);

      const imageFile = path.join(work, "image.tar");
      writeFileSync(imageFile, Buffer.from(await (await pgliteImage(realMigrations)).arrayBuffer()));
      const dataDir = path.join(work, "data");
      mkdirSync(dataDir);
      writeFileSync(path.join(dataDir, "notes.txt"), "mine");
      expect(unpackStarterImage(imageFile, dataDir)).toBe(false);
      expect(readdirSync(dataDir)).toEqual(["notes.txt"]);
      expect(readdirSync(work).sort()).toEqual(["data", "image.tar"]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
