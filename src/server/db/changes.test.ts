import { describe, expect, it } from "vitest";
import { startTestApp } from "../test-support";
import { announceChange, onChange } from "./changes";

describe("data-change announcements", () => {
  it("reach the listeners of that table on that database only", async () => {
    const a = await startTestApp("pglite", { SEED: "false" });
    const b = await startTestApp("pglite", { SEED: "false" });
    try {
      const heard: string[] = [];
      onChange(a.app.store.db, "tools", () => heard.push("a:tools"));
      onChange(a.app.store.db, "reviews", () => heard.push("a:reviews"));
      onChange(b.app.store.db, "tools", () => heard.push("b:tools"));
      announceChange(a.app.store.db, "tools");
      expect(heard).toEqual(["a:tools"]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("make the store's list cache forget a page after any write to its table", async () => {
    const t = await startTestApp("pglite", { LIST_CACHE_SECONDS: "60" });
    try {
      await t.app.lists.tools.get("page", async () => ({ items: [], total: 0, exact: true }));
      await t.app.lists.reviews.get("page", async () => ({ items: [], total: 0, exact: true }));
      announceChange(t.app.store.db, "tools");
      expect(t.app.lists.tools.size).toBe(0);
      expect(t.app.lists.reviews.size).toBe(1);
    } finally {
      await t.close();
    }
  });
});
