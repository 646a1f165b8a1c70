import { describe, expect, it } from "vitest";
import { credentialOf, SessionCache } from "./session-cache";

describe("SessionCache", () => {
  it("forgets entries after the TTL and never outlives the session", () => {
    let now = 0;
    const cache = new SessionCache<string>(10_000, 100, () => now);
    cache.set("a", "ada", 60_000);
    cache.set("b", "bob", 3_000);
    now = 2_999;
    expect(cache.get("a")).toBe("ada");
    expect(cache.get("b")).toBe("bob");
    now = 3_000;
    expect(cache.get("b")).toBeUndefined();
    now = 10_000;
    expect(cache.get("a")).toBeUndefined();
  });

  it("is bounded, and off with a TTL of 0", () => {
    const cache = new SessionCache<number>(10_000, 2);
    cache.set("a", 1, Infinity);
    cache.set("b", 2, Infinity);
    cache.set("c", 3, Infinity);
    expect(cache.size).toBe(2);
    expect(cache.get("a")).toBeUndefined();
    const off = new SessionCache<number>(0);
    off.set("a", 1, Infinity);
    expect(off.get("a")).toBeUndefined();
  });
});

describe("credentialOf", () => {
  it("reads a bearer token or the session cookie", () => {
    expect(credentialOf({ authorization: "Bearer abc" })).toBe("b:abc");
    expect(credentialOf({ cookie: "x=1; better-auth.session_token=tok.sig; y=2" })).toBe("c:tok.sig");
    expect(credentialOf({ cookie: "__Secure-better-auth.session_token=s" })).toBe("c:s");
    expect(credentialOf({ cookie: "other=1" })).toBeUndefined();
    expect(credentialOf({})).toBeUndefined();
  });
});
