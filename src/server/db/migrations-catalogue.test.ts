/**
 * The catalogue's migration (0036, issue 50) carries a store of the previous release forward with
 * nothing lost: its tools (tiers, stock, ratings), orders and their lines, reviews and stock
 * alerts are all there, each tool filed under its old category as a root of the tree, with a
 * SKU made from its id (the same SKUs every time) and its image as its one photo. Both drivers.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getTool, listTools } from "../catalog/service";
import { createPostgresDatabase, drivers, firstMigrations, realMigrations } from "../test-support";
import { openDatabase } from "./client";
import { categories, orderLines, orders, reviews, stockAlerts, tools } from "./schema";

/** The migrations of the release before the catalogue: 0000 to 0035. */
const BEFORE_CATALOGUE = 36;
const skuOf = (id: string) => `TY-${createHash("md5").update(id).digest("hex").slice(0, 12).toUpperCase()}`;

describe.each(drivers())("migrating a store to the catalogue on %s", (driver) => {
  it("keeps every tool, order, review, alert and tier, and files each tool under its category's root", async () => {
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    const dataDir = mkdtempSync(path.join(tmpdir(), "toolyard-migrate-catalogue-"));
    const oldMigrations = firstMigrations(BEFORE_CATALOGUE);
    try {
      const options = { databaseUrl: pg?.url, dataDir };
      const old = await openDatabase({ ...options, migrationsDir: oldMigrations });
      const applied = (await old.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)) as unknown as { rows: { count: number }[] };
      expect(applied.rows[0]?.count).toBe(BEFORE_CATALOGUE);
      await old.db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('u1', 'Old', 'old@example.com', true, now(), now())`);
      await old.db.execute(sql`insert into tools (id, name, category, image, price_cents, available_quantity, minimum_quantity, description, price_tiers)
        values ('t1', 'Hammer', 'hand-tools', '/images/tools/claw-hammer.svg', 1250, 7, 1, 'Old hammer', '[{"minQuantity": 10, "priceCents": 1100}]'),
               ('t2', 'Saw', 'chainsaws', '/images/tools/chainsaw.svg', 19900, 0, 1, 'Sold out', '[]')`);
      await old.db.execute(sql`insert into orders (id, user_id, tool_id, tool_name, quantity, unit_price_cents, total_cents, status)
        values ('o1', 'u1', 't1', 'Hammer', 2, 1250, 2500, 'pending')`);
      await old.db.execute(sql`insert into order_lines (order_id, position, tool_id, tool_name, quantity, unit_price_cents, line_total_cents, total_cents)
        values ('o1', 0, 't1', 'Hammer', 2, 1250, 2500, 2500)`);
      await old.db.execute(sql`insert into reviews (id, user_id, name, rating, description, tool_id, title) values ('r1', 'u1', 'Old', 4, 'Solid.', 't1', 'Good')`);
      await old.db.execute(sql`insert into stock_alerts (id, tool_id, email, user_id, status, confirmed_at) values ('a1', 't2', 'old@example.com', 'u1', 'waiting', now())`);
      await old.close();

      const migrated = await openDatabase({ ...options, migrationsDir: realMigrations });
      try {
        const { db } = migrated;
        const rows = await db.select().from(tools).orderBy(tools.id);
        expect(rows.map((r) => [r.id, r.category, r.categoryId, r.sku, r.images, r.brandId, r.productId, r.specs])).toEqual([
          ["t1", "hand-tools", "hand-tools", skuOf("t1"), ["/images/tools/claw-hammer.svg"], null, null, {}],
          ["t2", "chainsaws", "chainsaws", skuOf("t2"), ["/images/tools/chainsaw.svg"], null, null, {}],
        ]);
        expect(rows[0]).toMatchObject({ priceCents: 1250, availableQuantity: 7, priceTiers: [{ minQuantity: 10, priceCents: 1100 }], ratingCount: 1, ratingSum: 4 });
        expect((await db.select({ slug: categories.slug, parentId: categories.parentId }).from(categories).orderBy(categories.position)).map((c) => c.slug)).toEqual([
          "hand-tools",
          "lawn-mowers",
          "power-tools",
          "chainsaws",
        ]);
        expect(await db.select({ id: orders.id, toolId: orders.toolId, totalCents: orders.totalCents, status: orders.status }).from(orders)).toEqual([
          { id: "o1", toolId: "t1", totalCents: 2500, status: "pending" },
        ]);
        expect((await db.select().from(orderLines)).map((l) => [l.orderId, l.toolId, l.quantity, l.lineTotalCents])).toEqual([["o1", "t1", 2, 2500]]);
        expect((await db.select().from(reviews).where(eq(reviews.id, "r1"))).map((r) => [r.toolId, r.rating, r.title])).toEqual([["t1", 4, "Good"]]);
        expect((await db.select().from(stockAlerts)).map((a) => [a.id, a.toolId, a.status])).toEqual([["a1", "t2", "waiting"]]);

        // Read back as the shop reads them.
        const hammer = await getTool(db, "t1");
        expect(hammer).toMatchObject({
          _id: "t1",
          category: "hand-tools",
          categoryPath: [{ slug: "hand-tools", name: "Hand Tools" }],
          sku: skuOf("t1"),
          gtin: null,
          brand: null,
          image: "/images/tools/claw-hammer.svg",
          images: ["/images/tools/claw-hammer.svg"],
          specs: [],
          product: null,
          optionValues: {},
          variants: [],
          priceTiers: [{ minQuantity: 10, price: 11 }],
          rating: { average: 4, count: 1 },
        });
        const saws = await listTools(db, { category: "chainsaws", page: 1, limit: 12 });
        expect(saws.items.map((t) => t._id)).toEqual(["t2"]);

        // A tool added after the migration gets a SKU of its own and its root from its category.
        await db.execute(sql`insert into tools (id, name, category, image, price_cents, available_quantity, description) values ('t3', 'Rake', 'lawn-mowers', '/r.svg', 900, 1, 'New')`);
        const [rake] = await db.select().from(tools).where(eq(tools.id, "t3"));
        expect(rake).toMatchObject({ categoryId: "lawn-mowers", category: "lawn-mowers" });
        expect(rake?.sku).toMatch(/^TY-[0-9A-F]{12}$/);
      } finally {
        await migrated.close();
      }
    } finally {
      rmSync(oldMigrations, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
      await pg?.drop();
    }
  }, 180_000);
});
