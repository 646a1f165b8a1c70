import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../test-support";
import { announceChange, onChange } from "./changes";

describe("data-change announcements", () => {
  // Started in the hooks (their own timeout): two PGlite stores starting inside the test's 30 s ran
  // over it on a busy machine.
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    [a, b] = await Promise.all([startTestApp("pglite", { SEED: "false" }), startTestApp("pglite", { SEED: "false", LIST_CACHE_SECONDS: "60" })]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("reach the listeners of that table on that database only", () => {
    const heard: string[] = [];
    onChange(a.app.store.db, "tools", () => heard.push("a:tools"));
    onChange(a.app.store.db, "reviews", () => heard.push("a:reviews"));
    onChange(b.app.store.db, "tools", () => heard.push("b:tools"));
    announceChange(a.app.store.db, "tools");
    expect(heard).toEqual(["a:tools"]);
  });

  it("make the store's list cache forget a page after any write to its table", async () => {
    await b.app.lists.tools.get("page", async () => ({ items: [], total: 0, exact: true }));
    await b.app.lists.reviews.get("page", async () => ({ items: [], total: 0, exact: true }));
    announceChange(b.app.store.db, "tools");
    expect(b.app.lists.tools.size).toBe(0);
    expect(b.app.lists.reviews.size).toBe(1);
  });
});
