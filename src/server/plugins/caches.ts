/**
 * Short-lived copies of the public lists (LIST_CACHE_SECONDS), as `app.lists`. They forget
 * what they hold when the data behind them changes (db/changes.ts), whoever wrote it.
 */
import fp from "fastify-plugin";
import type { Review, Tool } from "../../contract/schemas";
import { onChange } from "../db/changes";
import { TtlCache } from "../http/ttl-cache";

export interface ListCaches {
  tools: TtlCache<{ items: Tool[]; total: number }>;
  reviews: TtlCache<{ items: Review[]; total: number }>;
}

declare module "fastify" {
  interface FastifyInstance {
    lists: ListCaches;
  }
}

export default fp(
  async (app) => {
    const lists: ListCaches = { tools: new TtlCache(app.config.listCacheMs), reviews: new TtlCache(app.config.listCacheMs) };
    onChange(app.store.db, "tools", () => lists.tools.clear());
    onChange(app.store.db, "reviews", () => lists.reviews.clear());
    app.decorate("lists", lists);
  },
  { name: "toolyard-caches", dependencies: ["toolyard-database"] },
);
