import { describe, expect, it } from "vitest";
import { ListCache } from "./list-cache";

const deferred = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("ListCache", () => {
  it("serves a page from memory until its TTL ends", async () => {
    let now = 0;
    let loads = 0;
    const cache = new ListCache<number>(1000, 10, () => now);
    const load = async () => ++loads;
    expect(await cache.get("p1", load)).toBe(1);
    expect(await cache.get("p1", load)).toBe(1);
    expect(await cache.get("p2", load)).toBe(2);
    now = 999;
    expect(await cache.get("p1", load)).toBe(1);
    now = 1000;
    expect(await cache.get("p1", load)).toBe(3);
  });

  it("forgets every page on invalidate", async () => {
    let loads = 0;
    const cache = new ListCache<number>(60_000);
    const load = async () => ++loads;
    await cache.get("a", load);
    await cache.get("b", load);
    cache.invalidate();
    expect(cache.size).toBe(0);
    expect(await cache.get("a", load)).toBe(3);
  });

  it("shares one load between concurrent misses", async () => {
    let loads = 0;
    const gate = deferred<undefined>();
    const cache = new ListCache<number>(60_000);
    const load = async () => {
      loads += 1;
      await gate.promise;
      return loads;
    };
    const all = Promise.all([cache.get("k", load), cache.get("k", load), cache.get("k", load)]);
    gate.resolve(undefined);
    expect(await all).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it("does not keep a page that was loading when a write invalidated it", async () => {
    let version = 1;
    const gate = deferred<undefined>();
    const cache = new ListCache<number>(60_000);
    const slowLoad = async () => {
      const seen = version;
      await gate.promise;
      return seen;
    };
    const before = cache.get("k", slowLoad);
    version = 2;
    cache.invalidate();
    // A request after the write does not join the load that started before it.
    const after = cache.get("k", async () => version);
    gate.resolve(undefined);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await cache.get("k", async () => -1)).toBe(2);
  });

  it("does not remember a failed load", async () => {
    const cache = new ListCache<number>(60_000);
    await expect(cache.get("k", () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("k", async () => 7)).toBe(7);
  });

  it("is off with a TTL of 0, and bounded in size", async () => {
    let loads = 0;
    const off = new ListCache<number>(0);
    await off.get("k", async () => ++loads);
    await off.get("k", async () => ++loads);
    expect(loads).toBe(2);
    const small = new ListCache<number>(60_000, 2);
    for (const key of ["a", "b", "c"]) await small.get(key, async () => 1);
    expect(small.size).toBe(2);
  });
});
