import { sql } from "drizzle-orm";
import type { Db } from "./client";
import { reviews, stockMovements, tools } from "./schema";
import { SEED_REVIEWS, SEED_TOOLS } from "./seed-data";

/** Fills an empty store with the demo catalogue; a store that has tools is left alone. */
export async function seedIfEmpty(db: Db): Promise<{ tools: number; reviews: number }> {
  return db.transaction(async (tx) => {
    // Two instances starting together must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    if ((await tx.$count(tools)) > 0) return { tools: 0, reviews: 0 };
    const now = Date.now();
    const seeded = await tx
      .insert(tools)
      .values(
        SEED_TOOLS.map(({ slug, ...tool }, i) => ({
          ...tool,
          image: `/images/tools/${slug}.svg`,
          // Distinct timestamps keep "newest first" stable.
          createdAt: new Date(now - (SEED_TOOLS.length - i) * 60_000),
        })),
      )
      .returning({ id: tools.id, stock: tools.availableQuantity });
    // Each tool's stock starts the ledger.
    await tx.insert(stockMovements).values(seeded.map((t) => ({ toolId: t.id, delta: t.stock, reason: "initial" as const })));
    await tx.insert(reviews).values(
      SEED_REVIEWS.map((review, i) => ({ ...review, createdAt: new Date(now - (SEED_REVIEWS.length - i) * 60_000) })),
    );
    return { tools: SEED_TOOLS.length, reviews: SEED_REVIEWS.length };
  });
}
