import { sql } from "drizzle-orm";
import type { Db, Tx } from "./client";
import { promotions, reviews, shippingMethods, stockMovements, taxRates, tools } from "./schema";
import { seedCatalogue } from "./seed-catalogue";
import { SEED_PROMOTION, SEED_REVIEWS, SEED_SHIPPING_METHODS, SEED_TAX_RATES, SEED_TOOLS, seedToolReviews } from "./seed-data";

export interface SeedOptions {
  /**
   * The demo's delivery methods, New York's tax rates and the sample code (true: what `npm start`
   * seeds). The API tests' stores leave them out and set up the money each test is about.
   */
  money?: boolean;
}

export interface Seeded {
  tools: number;
  reviews: number;
  shippingMethods: number;
  taxRates: number;
  promotions: number;
}

const NOTHING: Seeded = { tools: 0, reviews: 0, shippingMethods: 0, taxRates: 0, promotions: 0 };

/** Fills an empty store with the demo; a store that has tools is left alone, whatever else it has. */
export async function seedIfEmpty(db: Db, options: SeedOptions = {}): Promise<Seeded> {
  return db.transaction(async (tx) => {
    // Two instances starting together must not both seed.
    await tx.execute(sql`select pg_advisory_xact_lock(727275)`);
    if ((await tx.$count(tools)) > 0) return NOTHING;
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
      .returning({ id: tools.id, stock: tools.availableQuantity, category: tools.category });
    // Brands, sub-categories, specifications, photos and the products' other variants (issue 50).
    const idsBySlug = new Map(seeded.map((tool, i) => [SEED_TOOLS[i]?.slug ?? "", tool.id]));
    const variants = await seedCatalogue(tx, idsBySlug, new Date(now));
    // Each tool's stock starts the ledger.
    await tx.insert(stockMovements).values([...seeded, ...variants].map((t) => ({ toolId: t.id, delta: t.stock, reason: "initial" as const })));
    await tx.insert(reviews).values(
      SEED_REVIEWS.map((review, i) => ({ ...review, createdAt: new Date(now - (SEED_REVIEWS.length - i) * 60_000) })),
    );
    // A handful of reviews of each tool (issue 42), a day apart; the demo's authors have no orders, so none is a verified purchase.
    const inCategory = new Map<string, number>();
    const toolReviews = seeded.flatMap((tool, i) => {
      const k = inCategory.get(tool.category) ?? 0;
      inCategory.set(tool.category, k + 1);
      return seedToolReviews(SEED_TOOLS[i] as (typeof SEED_TOOLS)[number], k).map((r, j) => ({
        toolId: tool.id,
        name: r.name,
        rating: r.rating,
        title: r.title,
        description: r.body,
        createdAt: new Date(now - (j + 1) * 86_400_000 - i * 60_000),
      }));
    });
    // A variant's reviews are its demo tool's kind: a handful each too.
    const variantReviews = variants.flatMap((variant, i) => {
      const like = SEED_TOOLS.find((tool) => tool.slug === variant.like) as (typeof SEED_TOOLS)[number];
      return seedToolReviews(like, i + 1).map((r, j) => ({
        toolId: variant.id,
        name: r.name,
        rating: r.rating,
        title: r.title,
        description: r.body,
        createdAt: new Date(now - (j + 2) * 86_400_000 - i * 60_000),
      }));
    });
    await tx.insert(reviews).values([...toolReviews, ...variantReviews]);
    const money = options.money === false ? { shippingMethods: 0, taxRates: 0, promotions: 0 } : await seedMoney(tx);
    return { tools: SEED_TOOLS.length + variants.length, reviews: SEED_REVIEWS.length + toolReviews.length + variantReviews.length, ...money };
  });
}

/**
 * Delivery, tax and a code, each only where the owner has set none up yet: a store may have
 * been configured before its first tool was added.
 */
async function seedMoney(tx: Tx): Promise<Pick<Seeded, "shippingMethods" | "taxRates" | "promotions">> {
  const methods = (await tx.$count(shippingMethods)) > 0 ? [] : await tx.insert(shippingMethods).values(SEED_SHIPPING_METHODS).returning({ id: shippingMethods.id });
  const rates = (await tx.$count(taxRates)) > 0 ? [] : await tx.insert(taxRates).values(SEED_TAX_RATES).returning({ id: taxRates.id });
  const codes = await tx.insert(promotions).values(SEED_PROMOTION).onConflictDoNothing({ target: promotions.code }).returning({ id: promotions.id });
  return { shippingMethods: methods.length, taxRates: rates.length, promotions: codes.length };
}
