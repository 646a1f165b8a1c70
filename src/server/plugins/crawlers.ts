/**
 * What search engines read first: `/robots.txt` (keep out of personal pages and the API; where
 * the sitemap is) and `/sitemap.xml` (every public page and every active tool, with `lastmod`).
 * Which pages are public or personal is the route table's (src/contract/routes.ts).
 *
 * A sitemap file holds at most 50,000 addresses (sitemaps.org). Up to that, `/sitemap.xml` is
 * the one urlset; above it, it is a sitemap index naming `/sitemap-1.xml` … `/sitemap-N.xml`,
 * each a urlset of at most 50,000: the public pages and the first tools, then the next tools in
 * the catalogue's key order (catalog/sitemap.ts). The index needs only the count of active tools;
 * a part reads only its own tools.
 */
import { once } from "node:events";
import { statSync } from "node:fs";
import path from "node:path";
import type { Transform } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import fp from "fastify-plugin";
import { PRIVATE_PREFIXES, SITEMAP_PATHS } from "../../contract/routes";
import { TEXT } from "../../contract/texts/site";
import { feedFingerprint, productFeed } from "../catalog/feed";
import { countActiveTools, SITEMAP_URL_LIMIT, sitemapTools, toolKeysEvery, type SitemapTool, type ToolKey } from "../catalog/sitemap";
import { onChange } from "../db/changes";
import { TtlCache } from "../http/ttl-cache";

const ONE_HOUR = "public, max-age=3600";
const XML = "application/xml; charset=utf-8";

export interface CrawlersOptions {
  /** Addresses per sitemap file: SITEMAP_URL_LIMIT (the protocol's 50,000) unless a test asks for fewer. */
  sitemapUrlLimit?: number | undefined;
}

/** The sitemap library is loaded (and, in the server's bundle, compiled) the first time a crawler asks. */
const loadSitemap = () => import("sitemap");

/** Items written to a sitemap stream between two turns of the event loop. */
const SLICE = 1_000;

/**
 * The XML `stream` (the library's SitemapStream or SitemapIndexStream) writes for `items`. The
 * library takes about 12 µs an address: a 50,000-address file is written in slices, letting the
 * event loop serve other requests between them, instead of holding it for most of a second.
 */
async function writeXml(stream: Transform, items: readonly object[], streamToPromise: (stream: Transform) => Promise<Buffer>): Promise<Buffer> {
  const writing = (async () => {
    for (let i = 0; i < items.length; i += 1) {
      if (stream.destroyed) return; // it failed: streamToPromise says why
      if (!stream.write(items[i])) await once(stream, "drain");
      if (i % SLICE === SLICE - 1) await nextTurn();
    }
    stream.end();
  })();
  // Both settle, so a failing stream never leaves a rejection unheard.
  const [xml] = await Promise.all([streamToPromise(stream), writing]);
  return xml;
}

/** A part's number as its address writes it: 1, 2, … (no sign, no leading zero); else null. */
const partNumber = (text: string): number | null => (/^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : null);

export default fp<CrawlersOptions>(
  async (app, options) => {
    const limit = options.sitemapUrlLimit ?? SITEMAP_URL_LIMIT;
    const pageCount = SITEMAP_PATHS.length;
    if (!Number.isInteger(limit) || limit <= pageCount || limit > SITEMAP_URL_LIMIT) {
      throw new Error(`sitemapUrlLimit must be a whole number from ${pageCount + 1} to ${SITEMAP_URL_LIMIT}`);
    }
    const { db } = app.store;
    const base = app.config.publicUrl.replace(/\/$/, "");
    // The static pages change with a deploy: the built page's date is theirs.
    const builtAt = (() => {
      try {
        return statSync(path.join(app.config.webDir, "index.html")).mtime;
      } catch {
        return new Date();
      }
    })();
    const publicEntries = SITEMAP_PATHS.map((page) => ({ url: `${base}${page}`, lastmod: builtAt.toISOString() }));
    const toolEntry = (tool: SitemapTool) => ({ url: `${base}/tools/${encodeURIComponent(tool.id)}`, lastmod: tool.updatedAt.toISOString() });

    /**
     * The first file holds the public pages and the first tools; each part after it `limit` tools.
     * An address and its lastmod take some 110 bytes: 50,000 are about 5.5 MB, far below the 50 MB
     * a file may hold.
     */
    const firstPartTools = limit - pageCount;
    const firstFileEntries = async () => [...publicEntries, ...(await sitemapTools(db, undefined, firstPartTools)).map(toolEntry)];
    /** How many parts the index names for `toolCount` active tools; 0: one urlset, no index. */
    const partsFor = (toolCount: number) => (pageCount + toolCount <= limit ? 0 : Math.ceil((pageCount + toolCount) / limit));
    /**
     * Where each part but the last ends (the key of its last tool): what the next part reads
     * after. One pass over the index's keys finds them all; kept like the lists (LIST_CACHE_SECONDS)
     * and forgotten at any write to tools.
     */
    const partEnds = new TtlCache<ToolKey[]>(app.config.listCacheMs, 1);
    onChange(db, "tools", () => partEnds.clear());

    async function urlset(entries: { url: string; lastmod: string }[]): Promise<Buffer> {
      const { SitemapStream, streamToPromise } = await loadSitemap();
      return writeXml(new SitemapStream({ xmlns: { news: false, video: false, image: false, xhtml: false } }), entries, streamToPromise);
    }

    async function sitemapIndex(parts: number): Promise<Buffer> {
      const { SitemapIndexStream, streamToPromise } = await loadSitemap();
      const locs = Array.from({ length: parts }, (_, i) => ({ url: `${base}/sitemap-${i + 1}.xml` }));
      return writeXml(new SitemapIndexStream(), locs, streamToPromise);
    }

    app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) => {
      // `/sitemap.xml` is the index when the catalogue needs more than one file.
      // The product feed is RSS 2.0, which sitemaps.org accepts as a sitemap.
      const lines = ["User-agent: *", ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`), "", `Sitemap: ${base}/sitemap.xml`, `Sitemap: ${base}/feeds/products.xml`, ""];
      return reply.type("text/plain; charset=utf-8").header("cache-control", ONE_HOUR).send(lines.join("\n"));
    });

    app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
      const parts = partsFor(await countActiveTools(db));
      const body = parts > 0 ? await sitemapIndex(parts) : await urlset(await firstFileEntries());
      return reply.type(XML).header("cache-control", ONE_HOUR).send(body);
    });

    // The product feed (issue 51): streamed; revalidated by its fingerprint, so a change of the catalogue is seen at once.
    app.get("/feeds/products.xml", { schema: { hide: true } }, async (request, reply) => {
      const etag = await feedFingerprint(db);
      reply.header("etag", etag).header("cache-control", "public, max-age=0, must-revalidate");
      if (request.headers["if-none-match"] === etag) return reply.status(304).send();
      return reply.type("application/rss+xml; charset=utf-8").send(productFeed(db, base, TEXT.brand, TEXT.meta.description));
    });

    app.get<{ Params: { part: string } }>("/sitemap-:part.xml", { schema: { hide: true } }, async (request, reply) => {
      const part = partNumber(request.params.part);
      // Only the parts the index names exist (none while one file holds everything).
      if (part === null || part > partsFor(await countActiveTools(db))) return reply.callNotFound();
      let entries: { url: string; lastmod: string }[];
      if (part === 1) {
        entries = await firstFileEntries();
      } else {
        const ends = await partEnds.get("ends", () => toolKeysEvery(db, firstPartTools - 1, limit));
        const previousEnd = ends[part - 2];
        const rows = previousEnd ? await sitemapTools(db, previousEnd, limit) : [];
        // The kept count and the tools disagree (a write in between): no such part after all.
        if (rows.length === 0) return reply.callNotFound();
        entries = rows.map(toolEntry);
      }
      return reply.type(XML).header("cache-control", ONE_HOUR).send(await urlset(entries));
    });
  },
  { name: "toolyard-crawlers", dependencies: ["toolyard-database"] },
);
