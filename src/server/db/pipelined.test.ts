/**
 * The pipelined transaction (client.ts, PipelinedTx) on both drivers: statements sent without
 * waiting run in order inside one transaction; a COMMIT sent behind a failing statement commits
 * nothing; work that throws rolls back; the connection is fit for the next transaction.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, drivers, pgliteImage, realMigrations } from "../test-support";
import { openDatabase, type Database } from "./client";

describe.each(drivers())("pipelined transactions on %s", (driver) => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-pipelined-"));
  const kept = async () => ((await database.db.execute(sql`select n from pipeline_probe order by n`)) as unknown as { rows: { n: number }[] }).rows.map((r) => r.n);

  beforeAll(async () => {
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    drop = pg?.drop;
    database = await openDatabase({
      databaseUrl: pg?.url,
      dataDir: pg ? dataDir : "memory://",
      migrationsDir: realMigrations,
      ...(pg ? {} : { memoryImage: await pgliteImage(realMigrations) }),
    });
    await database.db.execute(sql`create table pipeline_probe (n integer primary key)`);
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs statements sent without waiting in order, and commits them", async () => {
    const answers = await database.pipelined(async (t) => {
      const first = t.send<{ n: number }>(sql`insert into pipeline_probe values (1) returning n`);
      // Sees the first insert: it was sent before, in the same transaction.
      const second = t.send<{ n: number }>(sql`insert into pipeline_probe select max(n) + 1 from pipeline_probe returning n`);
      const [a, b] = await Promise.all([first, second, t.commit()]);
      return [a[0]?.n, b[0]?.n];
    });
    expect(answers).toEqual([1, 2]);
    expect(await kept()).toEqual([1, 2]);
  });

  it("commits nothing when a statement ahead of the COMMIT fails, and says why", async () => {
    await expect(
      database.pipelined(async (t) => {
        const fine = t.send(sql`insert into pipeline_probe values (10)`);
        const clash = t.send(sql`insert into pipeline_probe values (1)`);
        await Promise.all([fine, clash, t.commit()]);
      }),
    ).rejects.toThrow();
    expect(await kept()).toEqual([1, 2]);
  });

  it("rolls back when the work throws before its COMMIT, and the connection serves the next transaction", async () => {
    await expect(
      database.pipelined(async (t) => {
        await t.send(sql`insert into pipeline_probe values (20)`);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await kept()).toEqual([1, 2]);
    // Work that never calls commit() is committed when it returns; drizzle's `tx` is the same transaction.
    await database.pipelined(async (t) => {
      await t.send(sql`insert into pipeline_probe values (30)`);
      await t.tx.execute(sql`insert into pipeline_probe values (31)`);
    });
    expect(await kept()).toEqual([1, 2, 30, 31]);
  });
});
