import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache";

const deferred = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

/** A test's clock. Not 0: lru-cache reads an entry that started at 0 as one without a TTL. */
const START = 1_000_000;

describe("TtlCache as the public lists use it", () => {
  it("serves a page from memory until its TTL ends", async () => {
    let now = START;
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => now);
    const load = async () => ++loads;
    expect(await cache.get("p1", load)).toBe(1);
    expect(await cache.get("p1", load)).toBe(1);
    expect(await cache.get("p2", load)).toBe(2);
    now = START + 1000;
    expect(await cache.get("p1", load)).toBe(1);
    now = START + 1001;
    expect(await cache.get("p1", load)).toBe(3);
  });

  it("keeps null: a tool that does not exist is not asked for again", async () => {
    let loads = 0;
    const cache = new TtlCache<string | null>(60_000);
    const load = async () => {
      loads += 1;
      return null;
    };
    expect(await cache.get("missing", load)).toBeNull();
    expect(await cache.get("missing", load)).toBeNull();
    expect(loads).toBe(1);
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

  it("serves a value it is told not to keep to everyone waiting for it, once, and keeps nothing", async () => {
    let loads = 0;
    const gate = deferred<undefined>();
    const cache = new TtlCache<string>(60_000);
    const load = async () => {
      loads += 1;
      await gate.promise;
      return loads === 1 ? "failed" : "whole";
    };
    const keep = (value: string) => value !== "failed";
    const all = Promise.all([cache.get("k", load, keep), cache.get("k", load, keep)]);
    gate.resolve(undefined);
    expect(await all).toEqual(["failed", "failed"]);
    expect(loads).toBe(1);
    expect(cache.peek("k")).toBeUndefined();
    expect(await cache.get("k", load, keep)).toBe("whole");
    expect(cache.peek("k")).toBe("whole");
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
    expect(off.size).toBe(0);
    const small = new TtlCache<number>(60_000, 2);
    for (const key of ["a", "b", "c"]) await small.get(key, async () => 1);
    expect(small.size).toBe(2);
  });

  it("drops the page asked for least recently when full", async () => {
    const cache = new TtlCache<string>(60_000, 2);
    await cache.get("a", async () => "a");
    await cache.get("b", async () => "b");
    await cache.get("a", async () => "reloaded");
    await cache.get("c", async () => "c");
    expect(cache.peek("a")).toBe("a");
    expect(cache.peek("b")).toBeUndefined();
  });
});

describe("TtlCache as the session cache uses it", () => {
  it("forgets entries after the TTL and never outlives the session", () => {
    let now = START;
    const cache = new TtlCache<string>(10_000, 100, () => now);
    cache.set("a", "ada", START + 60_000);
    cache.set("b", "bob", START + 3_000);
    now = START + 3_000;
    expect(cache.peek("a")).toBe("ada");
    expect(cache.peek("b")).toBe("bob");
    now = START + 3_001;
    expect(cache.peek("b")).toBeUndefined();
    now = START + 10_000;
    expect(cache.peek("a")).toBe("ada");
    now = START + 10_001;
    expect(cache.peek("a")).toBeUndefined();
  });

  it("does not keep a session that has ended already", () => {
    let now = START;
    const cache = new TtlCache<string>(10_000, 100, () => now);
    cache.set("a", "ada", START);
    cache.set("b", "bob", START - 1);
    expect(cache.size).toBe(0);
    now = START + 20_000;
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
