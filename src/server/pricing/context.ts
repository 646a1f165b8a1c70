/**
 * What `price` needs from the database, in ONE call (pricing_context, migration 0011): the
 * store's address, the tax rates that can apply to the places asked about, the store's and the
 * customers' profile addresses (migration 0026: by country, region and postal prefix), the active delivery methods, the tools' weights and categories, and the customers'
 * profile addresses and tax exemptions, and the tools' list prices (migration 0012) and price
 * tiers (migration 0014). Checkout and the order desk read it inside their
 * transaction, after the tools are locked, so a rate or method changed since the page was shown
 * is the one the order gets; a cart's answers read it once for a whole batch of carts.
 *
 * Promotions are read apart (`loadPromotions`): a checkout that uses a code locks its row until
 * commit, so N racing checkouts of a code limited to K uses give exactly K orders.
 */
import { sql } from "drizzle-orm";
import type { Category } from "../../contract/constants";
import type { TierCents } from "../../contract/price-tiers";
import type { AccountRole, AccountTerms } from "../../contract/trade";
import type { Db, Tx } from "../db/client";
import type { MethodRow, PlaceCents, PromotionRow, RateRow } from "./price";

export interface PricingContext {
  rates: RateRow[];
  methods: MethodRow[];
  store: PlaceCents & { legalName: string; address: string; city: string; taxId: string };
  /** The tools asked about: list price (the unit price before tiers), weight and category. */
  tools: Map<string, ContextTool>;
  /** Tax-exempt customers and their certificates. */
  exempt: Map<string, string>;
  /** The customers' profile addresses (those that have a profile). */
  places: Map<string, PlaceCents>;
  /** The customers who belong to a trade account (migration 0017): its prices, rules and exemptions. */
  members: Map<string, MemberTerms>;
}

/** A member's trade account as the placement and the input builder read it (DESIGN "Trade accounts"). */
export interface MemberTerms {
  accountId: string;
  role: AccountRole;
  orderLimitCents: number | null;
  monthlyLimitCents: number | null;
  terms: AccountTerms;
  poRequired: boolean;
  discountBasisPoints: number;
  /** The account's certificates: exempt in that region through `expiresOn` (YYYY-MM-DD). */
  exemptions: { country: string; region: string; certificate: string; expiresOn: string }[];
}

export interface ContextTool {
  /** The list price: the unit price below the first tier. */
  priceCents: number;
  /** Volume prices (migration 0014), ascending. */
  priceTiers: TierCents[];
  weightGrams: number;
  category: Category;
}

interface Raw {
  rates: RateRow[];
  methods: MethodRow[];
  store: PricingContext["store"] | null;
  tools: ({ id: string } & ContextTool)[];
  profiles: { userId: string; country: string; region: string; postalCode: string; exempt: string | null }[];
  /** Absent from a database before migration 0017 (never in practice: migrations run first). */
  members?: (Omit<MemberTerms, "orderLimitCents" | "monthlyLimitCents"> & { userId: string; orderLimitCents: number | string | null; monthlyLimitCents: number | string | null })[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A place prices are asked for: its tax rates are read (migration 0026), not its whole country's. */
export type RatePlace = Pick<PlaceCents, "country" | "region" | "postalCode">;

/**
 * The places' JSON for pricing_context and the locks that call it (migration 0026): each
 * distinct place with a country once. The function reads the rates that can apply to them (and to
 * the store's address and the customers' profiles): their country's, region's and postal
 * prefixes', never a whole ZIP-level table.
 */
export function placesJson(places: RatePlace[]): string {
  const seen = new Map<string, RatePlace>();
  for (const p of places) if (p.country !== "") seen.set(`${p.country}|${p.region}|${p.postalCode}`, { country: p.country, region: p.region, postalCode: p.postalCode });
  return JSON.stringify([...seen.values()]);
}

/** One call of pricing_context (migration 0011): a plan Postgres keeps, one round trip. */
export async function loadPricingContext(db: Db | Tx, wanted: { places: RatePlace[]; toolIds: string[]; userIds: string[] }): Promise<PricingContext> {
  const countries = placesJson(wanted.places);
  const toolIds = JSON.stringify([...new Set(wanted.toolIds)]);
  const userIds = JSON.stringify([...new Set(wanted.userIds)]);
  const result = await db.execute(sql`select pricing_context(${countries}::jsonb, ${toolIds}::jsonb, ${userIds}::jsonb) as context`);
  const raw = rowsOf<{ context: unknown }>(result)[0]?.context;
  if (raw === undefined) throw new Error("pricing_context answered nothing");
  return pricingContextOf(raw);
}

/** pricing_context's answer (migration 0011), as it comes alone or inside checkout_lock_priced's. */
export function pricingContextOf(raw0: unknown): PricingContext {
  const raw = (typeof raw0 === "string" ? JSON.parse(raw0) : raw0) as Raw;
  if (!raw.store) throw new Error("store_settings has no row (migration 0009 inserts it)");
  return {
    rates: raw.rates,
    methods: raw.methods.map((m) => ({ ...m, freeOverCents: m.freeOverCents === null ? null : Number(m.freeOverCents) })),
    store: raw.store,
    tools: new Map(raw.tools.map((t) => [t.id, { priceCents: Number(t.priceCents), priceTiers: t.priceTiers ?? [], weightGrams: t.weightGrams, category: t.category }])),
    exempt: new Map(raw.profiles.flatMap((p) => (p.exempt ? [[p.userId, p.exempt] as [string, string]] : []))),
    places: new Map(raw.profiles.map((p) => [p.userId, { country: p.country, region: p.region, postalCode: p.postalCode }])),
    members: new Map(
      (raw.members ?? []).map(({ userId, ...m }) => [
        userId,
        { ...m, orderLimitCents: m.orderLimitCents === null ? null : Number(m.orderLimitCents), monthlyLimitCents: m.monthlyLimitCents === null ? null : Number(m.monthlyLimitCents) },
      ]),
    ),
  };
}

/** A promotion as `price` reads it, with its uses by each customer asked about. */
export interface LoadedPromotion extends Omit<PromotionRow, "customerRedemptions"> {
  byCustomer: Map<string, number>;
}

interface PromotionJson {
  id: string;
  code: string;
  kind: "percent" | "amount";
  value: number;
  minSubtotalCents: number | string;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  categories: Category[];
  active: boolean;
  redemptions: number;
  byCustomer: [string, number][];
}

/**
 * The promotions named by these codes (upper-case), with each customer's live uses. `lock`:
 * the rows are locked FOR UPDATE (in id order) until the transaction ends, so redemptions are
 * counted by one checkout at a time; an estimate reads without locking.
 */
export async function loadPromotions(db: Db | Tx, codes: string[], userIds: string[], lock: boolean): Promise<Map<string, LoadedPromotion>> {
  const wanted = [...new Set(codes)];
  if (wanted.length === 0) return new Map();
  const codesJson = JSON.stringify(wanted);
  const usersJson = JSON.stringify([...new Set(userIds)]);
  // promotions_for (migration 0011): one planned call; with `lock` the rows are locked FOR UPDATE first.
  const result = await db.execute(sql`select promotions_for(${codesJson}::jsonb, ${usersJson}::jsonb, ${lock}) as promotions`);
  const raw0 = rowsOf<{ promotions: PromotionJson[] | string }>(result)[0]?.promotions ?? [];
  const raw = typeof raw0 === "string" ? (JSON.parse(raw0) as PromotionJson[]) : raw0;
  return new Map(
    raw.map((p) => [
      p.code,
      {
        ...p,
        minSubtotalCents: Number(p.minSubtotalCents),
        startsAt: p.startsAt ? new Date(p.startsAt) : null,
        endsAt: p.endsAt ? new Date(p.endsAt) : null,
        byCustomer: new Map(p.byCustomer),
      },
    ]),
  );
}

/** The row `price` takes for one customer. */
export const promotionFor = (p: LoadedPromotion | undefined, userId: string): PromotionRow | undefined =>
  p ? { ...p, customerRedemptions: p.byCustomer.get(userId) ?? 0 } : undefined;
