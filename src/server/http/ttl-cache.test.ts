import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

const deferred = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("TtlCache as the public lists use it", () => {
  it("serves a page from memory until its TTL ends", async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => now);
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
    const cache = new TtlCache<number>(60_000);
    const load = async () => ++loads;
    await cache.get("a", load);
    await cache.get("b", load);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.get("a", load)).toBe(3);
  });

  it("shares one load between concurrent misses", async () => {
    let loads = 0;
    const gate = deferred<undefined>();
    const cache = new TtlCache<number>(60_000);
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
    const cache = new TtlCache<number>(60_000);
    const slowLoad = async () => {
      const seen = version;
      await gate.promise;
      return seen;
    };
    const before = cache.get("k", slowLoad);
    version = 2;
    cache.clear();
    // A request after the write does not join the load that started before it.
    const after = cache.get("k", async () => version);
    gate.resolve(undefined);
    expect(await before).toBe(1);
    expect(await after).toBe(2);
    expect(await cache.get("k", async () => -1)).toBe(2);
  });

  it("does not remember a failed load", async () => {
    const cache = new TtlCache<number>(60_000);
    await expect(cache.get("k", () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    expect(await cache.get("k", async () => 7)).toBe(7);
  });

  it("is off with a TTL of 0, and bounded in size", async () => {
    let loads = 0;
    const off = new TtlCache<number>(0);
    await off.get("k", async () => ++loads);
    await off.get("k", async () => ++loads);
    expect(loads).toBe(2);
    const small = new TtlCache<number>(60_000, 2);
    for (const key of ["a", "b", "c"]) await small.get(key, async () => 1);
    expect(small.size).toBe(2);
  });
});

describe("TtlCache as the session cache uses it", () => {
  it("forgets entries after the TTL and never outlives the session", () => {
    let now = 0;
    const cache = new TtlCache<string>(10_000, 100, () => now);
    cache.set("a", "ada", 60_000);
    cache.set("b", "bob", 3_000);
    now = 2_999;
    expect(cache.peek("a")).toBe("ada");
    expect(cache.peek("b")).toBe("bob");
    now = 3_000;
    expect(cache.peek("b")).toBeUndefined();
    now = 10_000;
    expect(cache.peek("a")).toBeUndefined();
  });

  it("is bounded, and off with a TTL of 0", () => {
    const cache = new TtlCache<number>(10_000, 2);
    cache.set("a", 1, Infinity);
    cache.set("b", 2, Infinity);
    cache.set("c", 3, Infinity);
    expect(cache.size).toBe(2);
    expect(cache.peek("a")).toBeUndefined();
    const off = new TtlCache<number>(0);
    off.set("a", 1, Infinity);
    expect(off.peek("a")).toBeUndefined();
  });
});
