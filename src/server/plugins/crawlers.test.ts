import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql, type SQLWrapper } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRIVATE_PREFIXES, SITEMAP_PATHS } from "../../contract/routes";
import { buildApp } from "../app";
import { createTool, retireTool } from "../catalog/service";
import { sitemapTools, toolKeysEvery, toolKeysEveryQuery } from "../catalog/sitemap";
import { loadConfig } from "../config";
import { tools } from "../db/schema";
import { prepareStore } from "../start-up";
import { createPostgresDatabase, drivers, harnessOptions, type Driver } from "../test-support";

const TOOL = {
  name: "Sitemap Hammer",
  image: "/images/tools/claw-hammer.svg",
  price: 10,
  availableQuantity: 5,
  minimumQuantity: 1,
  description: "A hammer for the crawler tests.",
  category: "hand-tools" as const,
};

const BASE = "https://shop.example";
const PUBLIC_LOCS = [`${BASE}/`, `${BASE}/tools`, `${BASE}/about`, `${BASE}/blogs`, `${BASE}/legal`];

/** An app on an empty store (no seed) of `driver`, its web folder a bare index.html. */
async function startCrawlerApp(driver: Driver, sitemapUrlLimit?: number): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const webDir = mkdtempSync(path.join(tmpdir(), "toolyard-web-"));
  writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Toolyard</title><div id=root></div>");
  const pg = driver === "postgres" ? await createPostgresDatabase({ migrated: true }) : undefined;
  const config = loadConfig({
    NODE_ENV: "test",
    AUTH_SECRET: "s".repeat(40),
    DATA_DIR: "memory://",
    SEED: "false",
    PUBLIC_URL: BASE,
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  const app = await buildApp({ ...config, webDir }, { ...(await harnessOptions(config)), ...(sitemapUrlLimit ? { sitemapUrlLimit } : {}) });
  await prepareStore(app);
  return {
    app,
    close: async () => {
      await app.close();
      await pg?.drop();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
}

/** The `<loc>`s of a urlset, each with its `<lastmod>`. */
const urlLocs = (xml: string) => [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/g)].map((m) => m[1] as string);
/** The `<loc>`s of a sitemap index. */
const indexLocs = (xml: string) => [...xml.matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => m[1] as string);
const toolIds = (locs: string[]) => locs.filter((loc) => loc.startsWith(`${BASE}/tools/`)).map((loc) => decodeURIComponent(loc.slice(`${BASE}/tools/`.length)));

describe.each(drivers())("pages, 404s and crawler files on %s", (driver) => {
  let app: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  let active: string;
  let retired: string;

  beforeAll(async () => {
    ({ app, close } = await startCrawlerApp(driver));
    active = (await createTool(app.store.db, TOOL))._id;
    retired = (await createTool(app.store.db, { ...TOOL, name: "Retired Hammer" }))._id;
    await retireTool(app.store.db, retired);
  });
  afterAll(async () => {
    await close?.();
  });

  it("serves the app's pages with 200, and a path no page has with 404 (the app shows its 404 page)", async () => {
    for (const url of ["/", "/tools?category=chainsaws", "/about", "/cart", "/dashboard/orders/any", `/tools/${active}`]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
    }
    for (const url of ["/no-such-page", "/tools/a/b", "/dashboard/nothing", `/tools/${retired}`, "/tools/no-such-tool"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('<div id=root>');
    }
  });

  it("robots.txt keeps crawlers out of personal pages and the API and names the sitemap", async () => {
    const res = await app.inject({ url: "/robots.txt" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/text\/plain/);
    for (const prefix of ["/dashboard", "/admin", "/api"]) expect(res.body).toContain(`Disallow: ${prefix}\n`);
    // Exactly the route table's private pages and the API.
    expect([...res.body.matchAll(/^Disallow: (.+)$/gm)].map((m) => m[1])).toEqual(PRIVATE_PREFIXES);
    expect(res.body).toContain("Sitemap: https://shop.example/sitemap.xml");
  });

  it("sitemap.xml lists every public page and every active tool with lastmod, and no retired one", async () => {
    const res = await app.inject({ url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/xml/);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      "https://shop.example/",
      "https://shop.example/tools",
      "https://shop.example/about",
      "https://shop.example/blogs",
      "https://shop.example/legal",
      `https://shop.example/tools/${active}`,
    ]);
    // Exactly the route table's sitemap pages, then the tools.
    expect(locs.slice(0, -1)).toEqual(SITEMAP_PATHS.map((page) => `${BASE}${page}`));
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(res.body).not.toContain("<sitemapindex");
  });

  it("has no sitemap parts while one file holds everything", async () => {
    for (const url of ["/sitemap-1.xml", "/sitemap-2.xml"]) expect((await app.inject({ url })).statusCode, url).toBe(404);
  });
});

describe.each(drivers())("a sitemap index above the per-file limit (10 addresses a file here) on %s", (driver) => {
  const LIMIT = 10;
  let app: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  let active: string[];
  const retired: string[] = [];

  const get = (url: string) => app.inject({ url });
  /** Every part the index names: its number, its locs. */
  async function readParts(): Promise<{ url: string; locs: string[] }[]> {
    const index = await get("/sitemap.xml");
    expect(index.statusCode).toBe(200);
    const parts = [];
    for (const loc of indexLocs(index.body)) {
      const url = loc.slice(BASE.length);
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/^application\/xml/);
      expect(res.body, url).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      parts.push({ url, locs: urlLocs(res.body) });
    }
    return parts;
  }

  beforeAll(async () => {
    ({ app, close } = await startCrawlerApp(driver, LIMIT));
    active = [];
    // 22 active tools and 3 archived among them: 5 pages + 22 tools = 27 addresses, 3 files.
    for (let i = 0; i < 25; i += 1) {
      const id = (await createTool(app.store.db, { ...TOOL, name: `Sitemap Tool ${i}` }))._id;
      if (i % 8 === 3) {
        await retireTool(app.store.db, id);
        retired.push(id);
      } else {
        active.push(id);
      }
    }
  });
  afterAll(async () => {
    await close?.();
  });

  it("serves /sitemap.xml as an index of absolute part addresses, with the sitemap's type and caching", async () => {
    const res = await get("/sitemap.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/xml/);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    expect(res.body).not.toContain("<urlset");
    expect(indexLocs(res.body)).toEqual([`${BASE}/sitemap-1.xml`, `${BASE}/sitemap-2.xml`, `${BASE}/sitemap-3.xml`]);
    expect((await get("/robots.txt")).body).toContain(`Sitemap: ${BASE}/sitemap.xml\n`);
  });

  it("splits the public pages and every active tool over the parts, each once, none over the limit, no archived one", async () => {
    const parts = await readParts();
    expect(parts.map((part) => part.locs.length)).toEqual([10, 10, 7]);
    expect(parts[0]?.locs.slice(0, PUBLIC_LOCS.length)).toEqual(PUBLIC_LOCS);
    const listed = parts.flatMap((part) => toolIds(part.locs));
    expect(listed).toEqual(active);
    for (const id of retired) expect(listed).not.toContain(id);
    const part = await get("/sitemap-2.xml");
    expect(part.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("answers a part the index does not name with 404", async () => {
    for (const url of ["/sitemap-0.xml", "/sitemap-4.xml", "/sitemap-999.xml", "/sitemap-x.xml", "/sitemap-01.xml", "/sitemap--1.xml", "/sitemap-1.5.xml", "/sitemap-99999999999999999999.xml"]) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it("follows the catalogue: a tool archived or added moves the parts' ends at once", async () => {
    await readParts(); // the parts' ends are kept now
    await retireTool(app.store.db, active[2] as string);
    const added = (await createTool(app.store.db, { ...TOOL, name: "Sitemap Tool late" }))._id;
    active = [...active.filter((_, i) => i !== 2), added];
    const parts = await readParts();
    expect(parts.map((part) => part.locs.length)).toEqual([10, 10, 7]);
    expect(parts.flatMap((part) => toolIds(part.locs))).toEqual(active);

    // Down to one file: the index becomes the urlset again, and the parts are gone.
    for (const id of active.slice(LIMIT - PUBLIC_LOCS.length)) await retireTool(app.store.db, id);
    const single = await get("/sitemap.xml");
    expect(single.body).toContain("<urlset");
    expect(toolIds(urlLocs(single.body))).toEqual(active.slice(0, LIMIT - PUBLIC_LOCS.length));
    expect((await get("/sitemap-1.xml")).statusCode).toBe(404);
  });
});

describe.each(drivers())("the sitemap at the protocol's size (50,000 addresses a file) on %s", (driver) => {
  const TOOLS = 50_150;
  let app: FastifyInstance;
  let close: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ app, close } = await startCrawlerApp(driver));
    // 50,100 active tools and 50 archived ones (every 1,000th), ten at a time sharing a
    // created_at, so the parts' ends fall inside runs that only the id orders. Their names and
    // descriptions have no words: the search indexes (GIN) were three quarters of the fill's time.
    await app.store.db.execute(sql`
      insert into tools (id, name, category, image, price_cents, available_quantity, description, active, created_at)
      select 'bulk-' || i, '-', 'hand-tools', '/images/tools/hammer.svg', 1000, 5, '-', i % 1000 <> 0,
             now() - make_interval(secs => (${TOOLS}::int - i) / 10)
      from generate_series(1, ${TOOLS}::int) as i`);
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it("serves an index of two parts that list every active tool once, the first with exactly 50,000 addresses", async () => {
    const index = await app.inject({ url: "/sitemap.xml" });
    expect(index.statusCode).toBe(200);
    expect(indexLocs(index.body)).toEqual([`${BASE}/sitemap-1.xml`, `${BASE}/sitemap-2.xml`]);

    const first = await app.inject({ url: "/sitemap-1.xml" });
    const second = await app.inject({ url: "/sitemap-2.xml" });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(first.body.split("<url>").length - 1).toBe(50_000);
    expect(Buffer.byteLength(first.body)).toBeLessThan(50 * 1024 * 1024);
    const firstLocs = urlLocs(first.body);
    expect(firstLocs).toHaveLength(50_000);
    expect(firstLocs.slice(0, PUBLIC_LOCS.length)).toEqual(PUBLIC_LOCS);
    const listed = [...toolIds(firstLocs), ...toolIds(urlLocs(second.body))];
    expect(listed).toHaveLength(50_100);
    expect(new Set(listed).size).toBe(50_100);
    const activeIds = (await app.store.db.select({ id: tools.id }).from(tools).where(eq(tools.active, true))).map((row) => row.id);
    expect(activeIds).toHaveLength(50_100);
    expect(new Set(listed)).toEqual(new Set(activeIds));
    expect((await app.inject({ url: "/sitemap-3.xml" })).statusCode).toBe(404);
  }, 120_000);

  it("reads a part after the last one's end from an index of the key order: no OFFSET, no sort, no scan of the table", async () => {
    const { db } = app.store;
    await db.execute(sql`analyze tools`); // what autovacuum gives a store's database
    const plan = async (query: SQLWrapper) => ((await db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row).join(" ")).join("\n");
    const firstPartTools = 50_000 - PUBLIC_LOCS.length;
    const [end] = await toolKeysEvery(db, firstPartTools - 1, 50_000);
    expect(end).toBeDefined();
    for (const query of [sitemapTools(db, undefined, firstPartTools), sitemapTools(db, end, 50_000), toolKeysEveryQuery(db, firstPartTools - 1, 50_000)]) {
      const text = await plan(query);
      // The active tools' index, or (for a short deep part, when the planner prefers it) all tools' by the same key.
      expect(text).toMatch(/Index (Only )?Scan using tools_(active_)?created_idx/);
      expect(text).not.toMatch(/Seq Scan|Sort Key: tools|Offset/);
    }
  }, 60_000);
});
