import { describe, expect, it } from "vitest";
import { Batches, isForeignKeyViolation, type Settled } from "./batches";

/** A serve that records each batch and answers each job with itself doubled. */
function recorder() {
  const batches: number[][] = [];
  const serve = async (jobs: number[]): Promise<Settled<number>[]> => {
    batches.push(jobs);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return jobs.map((j) => ({ ok: j * 2 }));
  };
  return { batches, serve };
}

describe("Batches", () => {
  it("serves a lone job at once and the jobs that arrive meanwhile together, each with its own answer", async () => {
    const { batches, serve } = recorder();
    const desk = new Batches(serve, { maxBatch: 10 });
    const answers = await Promise.all([1, 2, 3, 4].map((j) => desk.submit(j)));
    expect(answers).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(await desk.submit(5)).toBe(10);
    expect(batches.at(-1)).toEqual([5]);
  });

  it("keeps a batch within maxBatch", async () => {
    const { batches, serve } = recorder();
    const desk = new Batches(serve, { maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5, 6].map((j) => desk.submit(j)));
    expect(batches).toEqual([[1], [2, 3], [4, 5], [6]]);
  });

  it("puts at most one job of a key in a batch; the others follow in their order", async () => {
    const { batches, serve } = recorder();
    const desk = new Batches(serve, { maxBatch: 10, distinctBy: (j: number) => String(j % 2) });
    await Promise.all([1, 3, 5, 2, 7, 4].map((j) => desk.submit(j)));
    expect(batches).toEqual([[1], [3, 2], [5, 4], [7]]);
  });

  it("rejects every job of a failed batch, or serves each alone when the error may be one job's fault", async () => {
    const failing = (bad: number) => async (jobs: number[]): Promise<Settled<number>[]> => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (jobs.includes(bad)) throw Object.assign(new Error("insert violates foreign key"), { code: "23503" });
      return jobs.map((j) => ({ ok: j }));
    };
    const all = new Batches(failing(3), { maxBatch: 10 });
    expect((await Promise.allSettled([1, 2, 3, 4].map((j) => all.submit(j)))).map((r) => r.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected"]);
    const alone = new Batches(failing(3), { maxBatch: 10, aloneWhen: isForeignKeyViolation });
    expect((await Promise.allSettled([1, 2, 3, 4].map((j) => alone.submit(j)))).map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
  });

  it("passes on a job's own error", async () => {
    const desk = new Batches(async (jobs: number[]): Promise<Settled<number>[]> => jobs.map((j) => (j < 0 ? { error: new Error(`bad ${j}`) } : { ok: j })), { maxBatch: 10 });
    await expect(desk.submit(-1)).rejects.toThrow("bad -1");
    expect(await desk.submit(1)).toBe(1);
  });
});

describe("isForeignKeyViolation", () => {
  it("finds Postgres's 23503 in the error or its causes", () => {
    expect(isForeignKeyViolation({ code: "23503" })).toBe(true);
    expect(isForeignKeyViolation(new Error("wrapped", { cause: { code: "23503" } }))).toBe(true);
    expect(isForeignKeyViolation({ code: "23505" })).toBe(false);
    expect(isForeignKeyViolation(null)).toBe(false);
  });
});
