/**
 * Short-lived copies of the public reads (LIST_CACHE_SECONDS), as `app.lists`. They forget
 * what they hold when the data behind them changes (db/changes.ts), whoever wrote it.
 */
import fp from "fastify-plugin";
import type { Facets } from "../../contract/catalogue-io";
import type { Review, Suggestion, Tool } from "../../contract/schemas";
import { onChange } from "../db/changes";
import type { Page } from "../db/paging";
import { TtlCache } from "../http/ttl-cache";

export interface ListCaches {
  tools: TtlCache<Page<Tool>>;
  /** One tool by id; null remembers that there is none (or it is archived). */
  tool: TtlCache<Tool | null>;
  suggestions: TtlCache<Suggestion[]>;
  /** The list's facets, by the list's key (toolListKey without its page). */
  facets: TtlCache<Facets>;
  reviews: TtlCache<Page<Review>>;
}

declare module "fastify" {
  interface FastifyInstance {
    lists: ListCaches;
  }
}

export default fp(
  async (app) => {
    const ttl = app.config.listCacheMs;
    const lists: ListCaches = {
      tools: new TtlCache(ttl),
      tool: new TtlCache(ttl, 2000),
      suggestions: new TtlCache(ttl, 2000),
      facets: new TtlCache(ttl),
      reviews: new TtlCache(ttl),
    };
    onChange(app.store.db, "tools", () => {
      lists.tools.clear();
      lists.tool.clear();
      lists.suggestions.clear();
      lists.facets.clear();
    });
    onChange(app.store.db, "reviews", () => lists.reviews.clear());
    app.decorate("lists", lists);
  },
  { name: "toolyard-caches", dependencies: ["toolyard-database"] },
);
