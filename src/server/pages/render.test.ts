import type { Facets } from "../../contract/catalogue-io";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { HOME_TOOLS_COUNT } from "../../contract/storefront";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDollars } from "../../contract/money";
import type { Review, Tool } from "../../contract/schemas";
import { buildApp } from "../app";
import { createTool, retireTool, updateTool } from "../catalog/service";
import { announceChange } from "../db/changes";
import { eq } from "drizzle-orm";
import { products, reviews as reviewsTable } from "../db/schema";
import { loadConfig } from "../config";
import { prepareStore } from "../start-up";
import { createPostgresDatabase, drivers, harnessOptions } from "../test-support";
import { ENTRY_ON_LOAD_CSP_SOURCE, ENTRY_ON_LOAD_SCRIPT, ENTRY_TEMPLATE_ID } from "./deferred-entry";

/**
 * The public pages as a crawler or a browser without JavaScript gets them: plain HTTP, the
 * built index.html as the template (here the source one), rendered on the server with data.
 */
const BASE = "https://shop.example";

/** The HTML entities React and the head writer use, back to text. */
const decode = (html: string) => html.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
/** What the page shows, roughly as a reader sees it (tags stripped, entities decoded). */
const visibleText = (html: string) => decode(html.replace(/<script[\s\S]*?<\/script>/g, " ").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");
const titleOf = (html: string) => decode(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? "");
const metaOf = (html: string, attr: "name" | "property", key: string) => decode(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(html)?.[1] ?? "");
const canonicalOf = (html: string) => decode(/<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? "");
/** A listed tool as a new tool's input: its own SKU and catalogue fields stay with it. */
const inputOf = (tool: Tool) => ({
  name: tool.name,
  image: tool.image,
  price: tool.price,
  availableQuantity: tool.availableQuantity,
  minimumQuantity: tool.minimumQuantity,
  description: tool.description,
  category: tool.category,
});
const rootOf = (html: string) => /<div id="root">([\s\S]*?)<\/div><script id="toolyard-state"/.exec(html)?.[1] ?? "";

describe.each(drivers())("server-rendered public pages on %s", (driver) => {
  let app: FastifyInstance;
  let webDir: string;
  let drop: (() => Promise<void>) | undefined;
  let tools: Tool[];
  let reviews: Review[];

  const get = async (url: string) => {
    const res = await app.inject({ url });
    return { status: res.statusCode, html: res.body, type: String(res.headers["content-type"]) };
  };

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "toolyard-ssr-"));
    writeFileSync(path.join(webDir, "index.html"), readFileSync(path.join(import.meta.dirname, "../../web/index.html"), "utf8"));
    const pg = driver === "postgres" ? await createPostgresDatabase({ migrated: true }) : undefined;
    drop = pg?.drop;
    const config = loadConfig({
      NODE_ENV: "test",
      AUTH_SECRET: "s".repeat(40),
      DATA_DIR: "memory://",
      SEED: "true",
      PUBLIC_URL: BASE,
      LIST_CACHE_SECONDS: "60",
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    });
    app = await buildApp({ ...config, webDir }, await harnessOptions(config));
    await prepareStore(app);
    tools = (await app.inject({ url: "/api/tool?limit=100" })).json<Tool[]>();
    reviews = (await app.inject({ url: "/api/review?limit=12" })).json<Review[]>();
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("renders the home page with its tools, reviews and the spec's texts in the HTML", async () => {
    const { status, html } = await get("/");
    expect(status).toBe(200);
    const text = visibleText(rootOf(html));
    for (const words of ["Welcome Best Tools", "Hand Tools", "Lawn Mowers", "Power Tools", "Chainsaws", "Our Tools", "Reviews Here", "Special Looks", "Request For Quote", "Contact US", "72", "535+", "273+", "433+", "Book Now"]) {
      expect(text, words).toContain(words);
    }
    expect(tools.length).toBeGreaterThan(0);
    expect(reviews.length).toBeGreaterThan(0);
    for (const tool of tools.slice(0, 4)) {
      expect(text).toContain(tool.name);
      expect(text).toContain(formatDollars(tool.price));
      expect(html).toContain(`href="/purchase/${tool._id}"`);
    }
    // Each card names its brand and, for a product, its options, as the catalogue's cards do (issue 50).
    const onHome = tools.slice(0, HOME_TOOLS_COUNT);
    expect(html.match(/data-testid="tool-brand"/g)).toHaveLength(onHome.filter((tool) => tool.brand).length);
    expect(onHome.some((tool) => tool.brand)).toBe(true);
    for (const tool of onHome) if (tool.brand) expect(text).toContain(tool.brand.name);
    expect(html.match(/data-testid="tool-variants"/g) ?? []).toHaveLength(onHome.filter((tool) => tool.variantCount > 1).length);
    for (const review of reviews.slice(0, 3)) expect(text).toContain(review.name);
    expect(titleOf(html)).toBe("Toolyard — tools for the workshop, garden and woodland");
    expect(canonicalOf(html)).toBe(`${BASE}/`);
  });

  it("renders the catalogue from its query, as the API lists it", async () => {
    const all = await get("/tools");
    expect(all.status).toBe(200);
    expect(visibleText(rootOf(all.html))).toContain("All Tools");
    for (const tool of tools.slice(0, 12)) expect(visibleText(rootOf(all.html))).toContain(tool.name);

    const chainsaws = await get("/tools?category=chainsaws&utm_source=x");
    const api = (await app.inject({ url: "/api/tool?category=chainsaws" })).json<Tool[]>();
    expect(api.length).toBeGreaterThan(0);
    const text = visibleText(rootOf(chainsaws.html));
    for (const tool of api) expect(text).toContain(tool.name);
    for (const tool of tools.filter((t) => t.category !== "chainsaws")) expect(text).not.toContain(tool.name);
    expect(titleOf(chainsaws.html)).toBe("Chainsaws · Toolyard");
    // Tracking parameters are not part of the page's address.
    expect(canonicalOf(chainsaws.html)).toBe(`${BASE}/tools?category=chainsaws`);

    const searched = await get(`/tools?q=${encodeURIComponent(api[0]?.name ?? "")}`);
    expect(visibleText(rootOf(searched.html))).toContain(api[0]?.name);
  });

  it("renders a tool's page with everything a shopper needs, its related tools, and Product JSON-LD that matches the API", async () => {
    const tool = tools[0] as Tool;
    const { status, html } = await get(`/tools/${tool._id}`);
    expect(status).toBe(200);
    const text = visibleText(rootOf(html));
    for (const words of [tool.name, formatDollars(tool.price), "Minimum order quantity", String(tool.minimumQuantity), tool.description, "Book Now", "Add to Cart", "Related tools"]) {
      expect(text, words).toContain(words);
    }
    expect(text).toMatch(/In stock|Only \d+ left|Out of stock/);
    expect(html).toContain(`href="/purchase/${tool._id}"`);
    expect(html).toContain(`href="/tools?category=${tool.category}"`);
    const related = tools.filter((t) => t.category === tool.category && t._id !== tool._id);
    if (related[0]) expect(text).toContain(related[0].name);

    expect(titleOf(html)).toBe(`${tool.name} · Toolyard`);
    expect(metaOf(html, "name", "description")).toBe(tool.description.slice(0, 160));
    expect(canonicalOf(html)).toBe(`${BASE}/tools/${tool._id}`);
    expect(metaOf(html, "property", "og:title")).toBe(`${tool.name} · Toolyard`);
    expect(metaOf(html, "property", "og:image")).toBe(`${BASE}${tool.image}`);
    expect(metaOf(html, "name", "twitter:card")).toBe("summary_large_image");

    const fromApi = (await app.inject({ url: `/api/tool/${tool._id}` })).json<Tool>();
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "null") as Record<string, unknown> & { offers: Record<string, unknown> };
    expect(ld).toMatchObject({ "@context": "https://schema.org", "@type": "Product", name: fromApi.name, description: fromApi.description, image: `${BASE}${fromApi.image}`, sku: fromApi.sku });
    expect(ld.offers).toMatchObject({ "@type": "Offer", priceCurrency: "USD", url: `${BASE}/tools/${fromApi._id}` });
    expect(Number(ld.offers.price)).toBe(fromApi.price);
    const expected = fromApi.availableQuantity < Math.max(1, fromApi.minimumQuantity) ? "OutOfStock" : fromApi.availableQuantity <= 10 ? "LimitedAvailability" : "InStock";
    expect(ld.offers.availability).toBe(`https://schema.org/${expected}`);
  });

  it("renders a tool's reviews with the page: average, count, stars, newest first, paged and sorted by its address; HTML in a review stays text, in the JSON-LD too", async () => {
    const tool = tools[1] as Tool;
    const evil = `<script>alert("x")</script><b>bold</b>`;
    // Three more of the demo's kind (older), so there are two pages; then the newest, with HTML in it.
    await app.store.db.insert(reviewsTable).values(
      [4, 5, 4].map((rating, i) => ({ toolId: tool._id, name: `Reader ${i}`, rating, description: "Fine tool.", createdAt: new Date(Date.now() - (10 + i) * 86_400_000) })),
    );
    await app.store.db.insert(reviewsTable).values({ toolId: tool._id, name: "Mallory <i>", rating: 1, title: "<img src=x onerror=alert(1)>", description: evil });
    announceChange(app.store.db, "tools");
    const fromApi = (await app.inject({ url: `/api/tool/${tool._id}` })).json<Tool>();
    expect(fromApi.rating.count).toBeGreaterThanOrEqual(4);
    const { html } = await get(`/tools/${tool._id}`);
    const root = rootOf(html);
    const text = visibleText(root);
    expect(text).toContain(`${fromApi.rating.average.toFixed(1)} out of 5 from ${fromApi.rating.count} reviews`);
    expect(text).toContain("Customer reviews");
    expect(text).toContain("1 star");
    // Newest first: the one just written, its words as text.
    expect(text).toContain(evil);
    expect(root).not.toContain("<script>alert");
    expect(root).not.toContain("<b>bold</b>");
    expect(root).not.toContain("<img src=x");
    // The sort is a GET form, the pager links (five a page).
    expect(root).toMatch(new RegExp(`<form[^>]*action="/tools/${tool._id}#reviews" method="get"`));
    expect(root).toContain('name="reviewSort"');
    expect(root).toContain(`href="/tools/${tool._id}?reviewPage=2#reviews"`);
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "null") as Record<string, unknown> & { review: { reviewBody: string }[] };
    expect(ld.aggregateRating).toEqual({ "@type": "AggregateRating", ratingValue: fromApi.rating.average, reviewCount: fromApi.rating.count, bestRating: 5, worstRating: 1 });
    expect(ld.review[0]?.reviewBody).toBe(evil);
    expect(html).not.toContain("</script><b>");

    // Highest rated first, from the address alone: the 1-star review is not on its first page.
    const sorted = visibleText(rootOf((await get(`/tools/${tool._id}?reviewSort=rating-asc`)).html));
    expect(sorted).toContain(evil);
    const best = visibleText(rootOf((await get(`/tools/${tool._id}?reviewSort=rating-desc&reviewPage=1`)).html));
    expect(best).not.toContain(evil);
  });

  it("gives every public page its own title, description, canonical, OpenGraph and Twitter tags", async () => {
    const titles = new Set<string>();
    for (const [url, heading] of [
      ["/", "Welcome Best Tools"],
      ["/tools", "All Tools"],
      [`/tools/${tools[1]?._id}`, tools[1]?.name],
      ["/about", "About Us"],
      ["/blogs", "Blogs"],
      ["/legal", "Terms"],
    ] as const) {
      const { status, html } = await get(url);
      expect(status, url).toBe(200);
      expect(visibleText(rootOf(html)), url).toContain(heading);
      titles.add(titleOf(html));
      expect(metaOf(html, "name", "description"), url).not.toBe("");
      expect(canonicalOf(html), url).toBe(`${BASE}${url}`);
      expect(metaOf(html, "property", "og:url"), url).toBe(`${BASE}${url}`);
      expect(metaOf(html, "property", "og:title"), url).toBe(titleOf(html));
      expect(metaOf(html, "name", "twitter:title"), url).toBe(titleOf(html));
      expect(html.match(/<title>/g), url).toHaveLength(1);
      // No inline code, and every part of the page in place as sent (nothing streamed in later).
      expect(html, url).not.toMatch(/<script>|<script (?!(id="toolyard-state" )?type="(application\/(ld\+)?json|module)")|<template(?! id="toolyard-preloads")/);
    }
    expect(titles.size).toBe(6);
  });

  it("answers an unknown path, an unknown tool and an archived tool with a 404 status and the 404 page", async () => {
    const retired = await createTool(app.store.db, { ...inputOf(tools[0] as Tool), name: "Retired Rake" });
    await retireTool(app.store.db, retired._id);
    for (const url of ["/no-such-page", "/tools/no-such-tool", `/tools/${retired._id}`, "/tools/a/b"]) {
      const { status, html, type } = await get(url);
      expect(status, url).toBe(404);
      expect(type, url).toMatch(/text\/html/);
      expect(visibleText(rootOf(html)), url).toContain("Page not found");
      expect(titleOf(html), url).toBe("Page not found · Toolyard");
      expect(metaOf(html, "name", "robots"), url).toBe("noindex");
    }
    expect(visibleText(rootOf((await get("/tools/no-such-tool")).html))).toContain("We could not find this tool.");
  });

  it("leaves signed-in pages to the browser", async () => {
    for (const url of ["/dashboard", "/purchase/x", "/checkout", "/admin"]) {
      const { status, html } = await get(url);
      expect(status, url).toBe(200);
      expect(html, url).toContain('<div id="root"></div>');
    }
  });

  it("keeps a page for a while and renders it again when a tool changes", async () => {
    const tool = tools[2] as Tool;
    const before = await get(`/tools/${tool._id}`);
    expect(before.html).toContain(formatDollars(tool.price));
    await updateTool(app.store.db, tool._id, { price: tool.price + 1 });
    const after = await get(`/tools/${tool._id}`);
    expect(visibleText(rootOf(after.html))).toContain(formatDollars(tool.price + 1));
    const home = await get("/");
    expect(visibleText(rootOf(home.html))).toContain(formatDollars(tool.price + 1));
  });

  it("hands the page's data to the browser in a script tag nothing can break out of", async () => {
    const nasty = await createTool(app.store.db, { ...inputOf(tools[0] as Tool), name: "Saw </script><script>alert(1)</script>", description: "<!-- \u2028 -->" });
    const { html } = await get(`/tools/${nasty._id}`);
    expect(html).not.toContain("<script>alert(1)");
    const state = /<script id="toolyard-state" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    // TanStack Query's dehydrated state.
    const parsed = JSON.parse(state) as { queries: { queryKey: unknown[]; state: { data: unknown } }[] };
    const one = parsed.queries.find(({ queryKey }) => queryKey[1] === "one");
    expect(one?.state.data).toMatchObject({ _id: nasty._id, name: nasty.name });
    const ld = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect((JSON.parse(ld) as { name: string }).name).toBe(nasty.name);
  });

  it("renders the catalogue's brand and specification filters and a sub-category exactly as the API lists them, with the tree in its menu", async () => {
    for (const query of ["brand=timberwolf&spec.bar_length=12..18", "brand=voltline&brand=greenacre", "spec.power_source=Petrol", "category=petrol-chainsaws"]) {
      const api = (await app.inject({ url: `/api/tool?${query}&limit=12` })).json<Tool[]>();
      expect(api.length, query).toBeGreaterThan(0);
      const { status, html } = await get(`/tools?${query}`);
      expect(status).toBe(200);
      const names = [...rootOf(html).matchAll(/<h2 class="card-title[^"]*"><a [^>]*>([^<]*)<\/a><\/h2>/g)].map((m) => decode(m[1] ?? ""));
      expect(names, query).toEqual(api.map((t) => t.name));
    }
    const { html } = await get("/tools?category=petrol-chainsaws");
    expect(decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(rootOf(html))?.[1] ?? "")).toBe("Petrol Chainsaws");
    expect(html).toMatch(/<option value="petrol-chainsaws" selected="">(&nbsp;|\u00a0)+Petrol Chainsaws<\/option>/);
    expect(html).toContain('name="brand" value="timberwolf"');
    // A category or specification that is gone (an old link): no tool matches, said as such.
    for (const query of ["category=no-such-category", "spec.no_such_key=1"]) {
      const gone = await get(`/tools?${query}`);
      expect(gone.status).toBe(200);
      expect(visibleText(rootOf(gone.html))).toContain("No tools match your search.");
    }
  });

  it("renders the filters' counts with the page, as GET /api/tool/facets answers them for its query (issue 51)", async () => {
    for (const query of ["", "brand=timberwolf", "category=chainsaws&spec.power_source=Petrol"]) {
      const facets = (await app.inject({ url: `/api/tool/facets${query ? `?${query}` : ""}` })).json<Facets>();
      const text = visibleText(rootOf((await get(`/tools${query ? `?${query}` : ""}`)).html));
      expect(facets.brands.length, query).toBeGreaterThan(0);
      // Each brand with its count in its label; a checked brand's siblings keep theirs.
      for (const brand of facets.brands) expect(text, query).toContain(`${brand.name} (${brand.count})`);
      for (const spec of facets.specs) for (const value of spec.values ?? []) expect(text, `${query} ${spec.key}`).toContain(`${String(value.value)} (${value.count})`);
    }
  });

  it("writes a product's JSON-LD as a ProductGroup of its tools, its words never markup", async () => {
    const all = (await app.inject({ url: "/api/tool?variants=all&limit=100" })).json<Tool[]>();
    const tool = all.find((t) => t.product && t.variants.length > 1);
    if (!tool?.product) throw new Error("the demo has no product of several tools");
    const name = `Saw </script><script>alert(1)</script> & "co"`;
    await app.store.db.update(products).set({ name }).where(eq(products.id, tool.product._id));
    const { html } = await get(`/tools/${tool._id}`);
    expect(html).not.toContain("<script>alert(1)");
    const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "") as {
      "@type": string;
      name: string;
      variesBy: string[];
      hasVariant: { sku: string; url: string; offers: { url: string } }[];
    };
    expect(ld["@type"]).toBe("ProductGroup");
    expect(ld.name).toBe(name);
    expect(ld.variesBy).toEqual(tool.product.options.map((o) => o.name));
    expect(ld.hasVariant.map((v) => v.sku).sort()).toEqual(tool.variants.map((v) => v.sku).sort());
    for (const variant of ld.hasVariant) {
      expect(variant.url.startsWith(`${BASE}/tools/`)).toBe(true);
      expect(variant.offers.url).toBe(variant.url);
    }
  });

  it("writes a name with $ signs as it is (they are not replacement patterns)", async () => {
    const name = "Saw $' and $& and $` and $$ deal";
    const dollars = await createTool(app.store.db, { ...inputOf(tools[0] as Tool), name });
    const { html } = await get(`/tools/${dollars._id}`);
    expect(titleOf(html)).toBe(`${name} · Toolyard`);
    expect(decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(rootOf(html))?.[1] ?? "")).toBe(name);
    expect(html.split("<!doctype html>").length - 1).toBe(1);
    expect(html.split('<div id="root">').length - 1).toBe(1);
  });

  it("sends the page compressed to a browser that takes it so", async () => {
    const plain = await app.inject({ url: "/about", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toContain("About Us");
    const res = await app.inject({ url: "/about", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
    // A client without brotli (the same cached page, compressed the other way when first asked so).
    const gzipped = await app.inject({ url: "/about", headers: { "accept-encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
  });

  it("lists every active tool in the sitemap and points robots.txt at it", async () => {
    const sitemap = (await app.inject({ url: "/sitemap.xml" })).body;
    const listed = [...sitemap.matchAll(/<loc>[^<]*\/tools\/([^<]+)<\/loc><lastmod>[^<]+<\/lastmod>/g)].map((m) => m[1]);
    // Every tool has its own page, a product's variants too (DESIGN "Catalogue"): the list of every tool is `variants=all` since issue 50.
    const active = (await app.inject({ url: "/api/tool?limit=100&variants=all" })).json<Tool[]>().map((t) => t._id);
    expect(new Set(listed)).toEqual(new Set(active));
    const robots = (await app.inject({ url: "/robots.txt" })).body;
    expect(robots).toContain(`Sitemap: ${BASE}/sitemap.xml`);
    for (const prefix of ["/dashboard", "/admin", "/api"]) expect(robots).toContain(`Disallow: ${prefix}`);
  });
});

/**
 * With a built template (the app's entry script and its module preloads in the head, as Vite
 * writes them), a server-rendered page holds Vite's tags as built in an inert template until the
 * load event and the first paint, when its one inline script (the CSP's hash) adds them. The
 * chunks that take it over (the app's, which the entry imports, and the route's own) are module
 * preloads inside another inert template, which the entry activates. Its head carries the rules
 * its HTML uses (beasties); the whole sheet, a CSS chunk of its own that the app asks for, is
 * linked in a <noscript> at the end of the body. A page the browser renders (signed-in) keeps
 * index.html as built.
 */
describe("the app's code and stylesheet on a server-rendered page", () => {
  let app: FastifyInstance;
  let webDir: string;
  const built = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="x" />
    <title>Toolyard</title>
    <script type="module" crossorigin fetchpriority="low" src="/assets/index-E1.js"></script>
    <link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/preload-helper-P1.js">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
  // Tailwind and daisyUI register custom properties with `@property` inside `@layer base`.
  const sheet = "@layer base{@property --radialprogress{syntax:\"<percentage>\";inherits:true;initial-value:0%}html{color:#111}:where(:root),[data-theme=toolyard]{--border:1px}}.navbar{display:flex}.console-only{color:red}@media (min-width:48rem){.console-only{color:blue}}";
  const manifest = {
    // The entry imports the home page's first load or the app (decision 0025), React a chunk of its own.
    "index.html": { file: "assets/index-E1.js", isEntry: true, imports: ["_preload-helper-P1.js"], dynamicImports: ["_home-start-H1.js", "_app-A1.js"] },
    "_preload-helper-P1.js": { file: "assets/preload-helper-P1.js" },
    "_rolldown-runtime-R1.js": { file: "assets/rolldown-runtime-R1.js" },
    "_react-X1.js": { file: "assets/react-X1.js", name: "react", imports: ["_rolldown-runtime-R1.js"] },
    "_home-start-H1.js": { file: "assets/home-start-H1.js", name: "home-start", imports: ["_rolldown-runtime-R1.js", "_preload-helper-P1.js", "_react-X1.js"], dynamicImports: ["_app-A1.js"] },
    "_app-A1.js": { file: "assets/app-A1.js", name: "app", imports: ["_rolldown-runtime-R1.js", "_react-X1.js", "_home-start-H1.js", "_preload-helper-P1.js"] },
    // As Vite writes a chunk that only imports CSS (app/stylesheet.ts): its file is the sheet.
    "app/stylesheet.ts": { file: "assets/stylesheet-C1.css", src: "app/stylesheet.ts" },
    "_schemas-S1.js": { file: "assets/schemas-S1.js", imports: ["_app-A1.js"] },
    "features/catalog/routes/tools-page.tsx": { file: "assets/tools-page-T1.js", imports: ["_app-A1.js", "_schemas-S1.js", "index.html"] },
  };

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "toolyard-ssr-built-"));
    writeFileSync(path.join(webDir, "index.html"), built);
    mkdirSync(path.join(webDir, ".vite"));
    mkdirSync(path.join(webDir, "assets"));
    writeFileSync(path.join(webDir, ".vite", "manifest.json"), JSON.stringify(manifest));
    writeFileSync(path.join(webDir, "assets", "stylesheet-C1.css"), sheet);
    const config = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "s".repeat(40), DATA_DIR: "memory://", SEED: "true", PUBLIC_URL: BASE });
    app = await buildApp({ ...config, webDir }, await harnessOptions(config));
    await prepareStore(app);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin(?: fetchpriority="low")? href="([^"]+)">/g)].map((m) => m[1]);
  /** The app's chunks held for the entry, Vite's entry tags held for the load event, and what the browser follows as the page loads. */
  const split = (html: string) => {
    const held = /<template id="toolyard-preloads">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? "";
    const entry = /<template id="toolyard-entry">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? "";
    return { held: preloads(held), entry, loaded: preloads(html.replace(held, "").replace(entry, "")) };
  };

  it("holds Vite's entry tags, as built, for the load event, and the app's and the route's chunks for the entry, each once", async () => {
    for (const url of ["/", "/tools"]) {
      const html = (await app.inject({ url })).body;
      const { entry, loaded } = split(html);
      expect(entry, url).toBe('<script type="module" crossorigin fetchpriority="low" src="/assets/index-E1.js"></script><link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/preload-helper-P1.js">');
      // Nothing loads with the page: the entry waits for the load event and the first paint, the
      // rest for the entry.
      expect(loaded, url).toEqual([]);
      expect(html.replace(entry, ""), url).not.toContain("index-E1.js");
      // One inline script, the one the CSP allows by its hash, right after the template it empties.
      expect(html.match(/<script>/g), url).toHaveLength(1);
      expect(html, url).toContain(`<template id="${ENTRY_TEMPLATE_ID}">${entry}</template><script>${ENTRY_ON_LOAD_SCRIPT}</script>\n  </body>`);
      expect((await app.inject({ url })).headers["content-security-policy"], url).toContain(`script-src 'self' ${ENTRY_ON_LOAD_CSP_SOURCE};`);
    }
    // The home page: its first load and what it imports, never the app's chunk (decision 0025).
    expect(split((await app.inject({ url: "/" })).body).held).toEqual(["/assets/home-start-H1.js", "/assets/rolldown-runtime-R1.js", "/assets/react-X1.js"]);
    // The route's chunk and what it imports, less what the template loads already.
    expect(split((await app.inject({ url: "/tools" })).body).held).toEqual([
      "/assets/app-A1.js",
      "/assets/rolldown-runtime-R1.js",
      "/assets/react-X1.js",
      "/assets/home-start-H1.js",
      "/assets/tools-page-T1.js",
      "/assets/schemas-S1.js",
    ]);
  });

  it("writes the rules the page uses into its head, and links the whole sheet for a browser without JavaScript only", async () => {
    const home = (await app.inject({ url: "/" })).body;
    const head = home.slice(0, home.indexOf("</head>"));
    const style = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1] ?? "";
    expect(style).toContain(".navbar{display:flex}");
    // daisyUI's theme (its --border and sizes), though beasties cannot match `:where(:root)`.
    expect(style).toContain(":where(:root){--border:1px}");
    // Nothing between a block and the next rule: a ";" there would drop that rule (the theme) in the browser.
    expect(style).toContain("initial-value:0%}");
    expect(style).not.toContain("};");
    expect(style).not.toContain("console-only");
    // The app asks for the whole sheet once it has taken the page over, or without JavaScript from here.
    expect(home).not.toMatch(/<link rel="stylesheet"[^>]*>(?!<\/noscript>)/);
    const body = home.slice(home.indexOf("<body"));
    expect(body).toMatch(/<noscript><link rel="stylesheet" href="\/assets\/stylesheet-C1.css"><\/noscript>\s*<template id="toolyard-entry">/);
  });

  it("leaves a page the browser renders with the app's entry and its preloads, as built (the app brings the stylesheet)", async () => {
    const html = (await app.inject({ url: "/dashboard" })).body;
    expect(html).toBe(built);
    expect(html).toContain('<script type="module" crossorigin fetchpriority="low" src="/assets/index-E1.js"></script>');
    expect(html).toContain('<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/preload-helper-P1.js">');
    expect(html).not.toContain("stylesheet");
    expect(html).not.toContain("<style>");
    expect(html).not.toContain("tools-page-T1");
    expect(html).not.toContain("toolyard-preloads");
  });
});
