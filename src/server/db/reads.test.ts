import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers, startTestApp, type TestApp } from "../test-support";
import type { Db, Tx } from "./client";
import { readAll } from "./reads";

/** A real read that says when it starts and when its answer is back. */
function tracedRead(db: Db | Tx, name: string, trace: string[]) {
  return async () => {
    trace.push(`${name} sent`);
    const result = await db.execute(sql`select pg_sleep(0.02), ${name}::text as name`);
    trace.push(`${name} back`);
    return result;
  };
}

describe.each(drivers())("readAll (%s)", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(driver, { SEED: "false" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("on a transaction sends each read after the one before has answered, and answers in order", async () => {
    const trace: string[] = [];
    const answers = await t.app.store.db.transaction((tx) =>
      readAll(tx, [tracedRead(tx, "a", trace), tracedRead(tx, "b", trace), async () => "plain"] as const),
    );
    expect(trace).toEqual(["a sent", "a back", "b sent", "b back"]);
    expect(answers[2]).toBe("plain");
  });

  it("on the database sends them all at once (each on its own connection with node-postgres)", async () => {
    const trace: string[] = [];
    await readAll(t.app.store.db, [tracedRead(t.app.store.db, "a", trace), tracedRead(t.app.store.db, "b", trace)] as const);
    expect(trace.slice(0, 2)).toEqual(["a sent", "b sent"]);
  });

  it("a read that fails on a transaction stops the ones after it and fails the whole", async () => {
    const trace: string[] = [];
    await expect(
      t.app.store.db.transaction((tx) => readAll(tx, [() => tx.execute(sql`select 1 / 0`), tracedRead(tx, "b", trace)] as const)),
    ).rejects.toThrow();
    expect(trace).toEqual([]);
  });
});
