/**
 * The job runner (decision 0021) on both drivers: a job exists only if its transaction commits,
 * runs once across runners (instances), is retried with backoff, and a job that used its last
 * attempt is listed with its error until it is sent again; a sweep makes one job per period
 * however many instances tick.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { JobRunner } from "./runner";

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const ADMIN = "jobs-admin@toolyard.example";

describe.each(drivers())("the job runner on %s", (driver) => {
  let t: TestApp;
  const runners: JobRunner[] = [];
  /** A runner as another instance would have, on the same database. */
  const runner = () => {
    const r = new JobRunner(t.app.store.db, t.app.store.executeSql, t.app.log, { pollSeconds: 0.5 });
    runners.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN });
  });
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await t?.close();
  });

  it("runs a job sent in a transaction once it commits, once across two instances; a rolled-back one never", async () => {
    const seen: string[] = [];
    const [a, b] = [runner(), runner()];
    for (const r of [a, b]) r.define<{ n: string }>("test-once", { handle: async ({ n }) => void seen.push(n) });
    await a.start();
    await b.start();
    const { db } = t.app.store;
    await db.transaction(async (tx) => {
      await a.enqueue(tx, "test-once", { n: "committed" });
    });
    await db
      .transaction(async (tx) => {
        await a.enqueue(tx, "test-once", { n: "rolled back" });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    for (let i = 0; i < 5; i += 1) await b.enqueue(db, "test-once", { n: `plain ${i}` });
    await until(() => seen.length >= 6);
    // Both instances poll; give a second run of any job the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...seen].sort()).toEqual(["committed", "plain 0", "plain 1", "plain 2", "plain 3", "plain 4"]);
  });

  it("retries a failing job, then lists it with its error until it is sent again, and the retry runs", async () => {
    let attempts = 0;
    let healed = false;
    const ran: number[] = [];
    const r = runner();
    r.define<{ order: number }>("test-fails", {
      retryLimit: 1,
      retryDelaySeconds: 1,
      handle: async ({ order }) => {
        attempts += 1;
        if (!healed) throw new Error(`provider down for order ${order}`);
        ran.push(order);
      },
    });
    await r.start();
    await r.enqueue(t.app.store.db, "test-fails", { order: 7 });
    await until(async () => (await r.failures()).some((f) => f.queue === "test-fails"));
    expect(attempts).toBe(2);
    const [failure] = (await r.failures()).filter((f) => f.queue === "test-fails");
    expect(failure).toMatchObject({ queue: "test-fails", data: { order: 7 }, error: "provider down for order 7", attempts: 2, retriedAt: null });

    healed = true;
    expect(await r.retry(failure?.id ?? "")).toBe(true);
    expect(await r.retry(failure?.id ?? "")).toBe(false);
    await until(() => ran.length === 1);
    expect(ran).toEqual([7]);
    expect((await r.failures()).filter((f) => f.queue === "test-fails")).toEqual([]);
  });

  it("makes one job per period of a sweep however many instances tick", async () => {
    let runs = 0;
    const [a, b, c] = [runner(), runner(), runner()];
    for (const r of [a, b, c]) {
      r.define("test-sweep", { handle: async () => void (runs += 1) });
      r.every("test-sweep", 3000);
    }
    const started = Date.now();
    await Promise.all([a.start(), b.start(), c.start()]);
    await until(() => runs >= 1);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    for (const r of [a, b, c]) await r.stop();
    const periods = Math.ceil((Date.now() - started) / 3000);
    // Three instances ticked about `periods` times each: without the throttle that is 3 × periods jobs.
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(periods + 1);
  });

  it("lists a failed job in the console with its error; the owner's retry sends it again, once", async () => {
    let healed = false;
    const ran: string[] = [];
    const r = runner();
    r.define<{ to: string }>("test-console", {
      retryLimit: 0,
      handle: async ({ to }) => {
        if (!healed) throw new Error(`no answer for ${to}`);
        ran.push(to);
      },
    });
    await r.start();
    await r.enqueue(t.app.store.db, "test-console", { to: "warehouse" });
    const admin = new Client(t.app);
    await admin.signUp("Admin", ADMIN);
    const customer = new Client(t.app);
    await customer.signUp("Customer", uniqueEmail("jobs"));
    type Entry = { _id: string; queue: string; error: string; attempts: number };
    const listed = async () => ((await admin.get("/api/admin/jobs/failed")).json() as Entry[]).filter((e) => e.queue === "test-console");
    await until(async () => (await listed()).length === 1);
    const [entry] = await listed();
    expect(entry).toMatchObject({ queue: "test-console", error: "no answer for warehouse", attempts: 1 });
    expect((await customer.get("/api/admin/jobs/failed")).statusCode).toBe(403);
    expect((await customer.post(`/api/admin/jobs/failed/${entry?._id}/retry`, {})).statusCode).toBe(403);

    healed = true;
    expect((await admin.post(`/api/admin/jobs/failed/${entry?._id}/retry`, {})).statusCode).toBe(202);
    expect((await admin.post(`/api/admin/jobs/failed/${entry?._id}/retry`, {})).json()).toMatchObject({ error: "NOT_FOUND" });
    await until(() => ran.length === 1);
    expect(await listed()).toEqual([]);
    const audit = (await admin.get("/api/admin/audit")).json() as { action: string; entityId: string }[];
    expect(audit.some((a) => a.action === "job.retry" && a.entityId === entry?._id)).toBe(true);
  });

  it("runs the store's sweeps on the app's runner", async () => {
    expect(await t.app.jobs.queueNames()).toEqual(expect.arrayContaining(["invoice-reminder-sweep", "quote-expiry-sweep"]));
  });
});
