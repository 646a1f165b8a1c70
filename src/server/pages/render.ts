/**
 * Public pages rendered on the server (src/web/entry-server.tsx) into the built index.html:
 * the page's own head (title, description, canonical, OpenGraph, Twitter, JSON-LD), its
 * HTML in #root, its data for the browser's hydration, the part of the stylesheet it uses, and
 * the app loader (./app-loader.ts) that asks for the app and its route's chunks once the page is
 * painted. The finished page is kept compressed for a short while (LIST_CACHE_SECONDS) and
 * forgotten when a tool or a review changes, like the lists.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { toolListQuerySchema } from "../../contract/schemas";
import { TEXT } from "../../contract/texts/site";
import { PAGE_STATE_ID, serializePageState } from "../../web/app/page-state";
import type * as ServerEntry from "../../web/entry-server";
import { getTool, listTools } from "../catalog/service";
import { onChange } from "../db/changes";
import { reviewListKey, toolListKey } from "../plugins/caches";
import { TtlCache } from "../http/ttl-cache";
import { listReviews } from "../reviews/service";
import { APP_LOADER_SCRIPT } from "./app-loader";
import { criticalCss } from "./critical-css";

export interface PageResponse {
  status: number;
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Each route's own chunk (src/web relative, as Vite's manifest names them), loaded with the
 * app so that hydrating its content does not wait for it. The chunks of what lies below the
 * first screen (the footer, the home page's lower sections) are not: the page asks for them
 * when it needs them, and their HTML is on screen already.
 */
const ROUTE_MODULES: Record<string, string[]> = {
  "/tools": ["features/catalog/routes/tools-page.tsx"],
  "/tools/:id": ["features/catalog/routes/tool-page.tsx"],
  "/about": ["features/pages/about-page.tsx"],
  "/blogs": ["features/pages/blogs-page.tsx"],
  "/legal": ["features/pages/legal-page.tsx"],
};
const NOT_FOUND_MODULES = ["features/pages/not-found-page.tsx"];

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/** The app's entry script and the chunks the built template preloads for it. */
const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="\/(assets\/[^"]+\.js)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="\/(assets\/[^"]+\.js)">/g;

/**
 * The template with the app's entry and its preloads taken out, and the files they named (the
 * entry first). A template without an entry script (a test's) is left as it is, with no files.
 */
function takeOutApp(template: string): { template: string; app: string[] } {
  const entry = ENTRY_SCRIPT.exec(template)?.[1];
  if (!entry) return { template, app: [] };
  const preloaded = [...template.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string);
  return { template: template.replace(ENTRY_SCRIPT, "").replace(MODULE_PRELOAD, ""), app: [entry, ...preloaded] };
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** JSON inside a script element: nothing in it may close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e");

/** Paths in the page's JSON-LD (its picture and address) made absolute, as schema.org asks. */
function absoluteJsonLd(jsonLd: Record<string, unknown>, base: string): Record<string, unknown> {
  const absolute = (value: unknown) => (typeof value === "string" && value.startsWith("/") ? `${base}${value}` : value);
  const offers = jsonLd.offers as Record<string, unknown> | undefined;
  return { ...jsonLd, image: absolute(jsonLd.image), url: absolute(jsonLd.url), ...(offers ? { offers: { ...offers, url: absolute(offers.url) } } : {}) };
}

/** The canonical address of a page: its path, and of the catalogue's query only what selects other content. */
function canonicalPath(url: URL, pattern: string | null): string {
  if (pattern !== "/tools") return url.pathname;
  const kept = new URLSearchParams();
  for (const key of ["category", "q", "page"]) {
    const value = url.searchParams.get(key);
    if (value && !(key === "page" && value === "1")) kept.set(key, value);
  }
  const qs = kept.toString();
  return qs ? `${url.pathname}?${qs}` : url.pathname;
}

/** Where the page's part of the stylesheet goes in the template (documentFor). */
const STYLE_MARK = "<!--toolyard-style-->";

/**
 * The template with its stylesheet link taken out, and the sheet: each page gets the part of it
 * that its HTML uses written into it instead (one round trip less before the first paint, and
 * far less to parse and match; ./critical-css.ts), and where the whole sheet is, which the app
 * loader links once the app has taken the page over (./app-loader.ts). Its urls are data: or
 * absolute, so it reads the same inline. Without a stylesheet link (a test's template), there
 * is nothing to write.
 */
function takeOutStylesheet(template: string, webDir: string): { template: string; style: ((html: string) => string) | null } {
  const link = /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/.exec(template);
  if (!link) return { template, style: null };
  const file = link[1] as string;
  const css = readFileSync(path.join(webDir, file), "utf8");
  if (/<\/style/i.test(css)) return { template, style: null };
  let sheet: ReturnType<typeof criticalCss> | undefined;
  return {
    template: template.replace(link[0], STYLE_MARK),
    // Parsed at the first page, not at start-up.
    style: (html) => `<style data-rest="/${file}">${(sheet ??= criticalCss(css)).for(html)}</style>`,
  };
}

/**
 * The web app's server entry (react-dom/server and the public pages, about a megabyte of code):
 * loaded once, when the store has started listening (the spa plugin's `warm`), so that compiling
 * it does not lengthen the start; a page asked for before that waits for it.
 */
let serverEntry: Promise<typeof ServerEntry> | undefined;
const loadServerEntry = () => (serverEntry ??= import("../../web/entry-server"));

export function createPageRenderer(app: FastifyInstance, webDir: string) {
  const built = readFileSync(path.join(webDir, "index.html"), "utf8");
  // A template without the app's root (a test's stand-in page) is served as it is.
  if (!built.includes('<div id="root"></div>')) return null;
  const { template: withoutSheet, style } = takeOutStylesheet(built, webDir);
  const { template, app: appModules } = takeOutApp(withoutSheet);
  const manifestFile = path.join(webDir, ".vite", "manifest.json");
  const manifest: Record<string, ManifestChunk> = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>) : {};
  const base = app.config.publicUrl.replace(/\/$/, "");
  const { db } = app.store;

  const loaders: ServerEntry.PageLoaders = {
    // The API's own parsing of the list query, and its cache of lists.
    tools: async (query) => {
      const parsed = toolListQuerySchema.parse(query);
      const { items, total, exact } = await app.lists.tools.get(toolListKey(parsed), () => listTools(db, parsed));
      return { items, total, exact };
    },
    tool: (id) => getTool(db, id),
    reviews: async (limit) => {
      const { items, total, exact } = await app.lists.reviews.get(reviewListKey({ page: 1, limit }), () => listReviews(db, { page: 1, limit }));
      return { items, total, exact };
    },
  };

  /**
   * A route's chunk and what it imports, minus what the app's entry loads already, each after the
   * chunks it imports; `needsEntry`: the chunk imports the app's entry (directly or not).
   */
  function routeModules(pattern: string | null, status: number): { file: string; needsEntry: boolean }[] {
    if (pattern === "/") return [];
    const entries = status === 404 && pattern !== "/tools/:id" ? NOT_FOUND_MODULES : ((pattern ? ROUTE_MODULES[pattern] : undefined) ?? NOT_FOUND_MODULES);
    const files = new Map<string, boolean>();
    const walk = (key: string): boolean => {
      const chunk = manifest[key];
      if (!chunk) return false;
      if (chunk.file === appModules[0]) return true;
      const known = files.get(chunk.file);
      if (known !== undefined) return known;
      files.set(chunk.file, false);
      const needsEntry = (chunk.imports ?? []).map(walk).some(Boolean);
      // Set again: a Map keeps the first insertion's place; delete to put the chunk after its imports.
      files.delete(chunk.file);
      files.set(chunk.file, needsEntry);
      return needsEntry;
    };
    for (const entry of entries) walk(entry);
    return [...files].filter(([file]) => !appModules.includes(file)).map(([file, needsEntry]) => ({ file, needsEntry }));
  }

  /**
   * The page's code: the app loader (./app-loader.ts) with the files it asks for once the page is
   * painted, in an order where each comes after what it imports: the entry's imports, the route's
   * chunks that do not need the entry, the entry, the route's chunks that do (so that its page is
   * there, or on its way, when hydration reaches it). Nothing for a template without an entry.
   */
  function appLoader(pattern: string | null, status: number): string {
    const [entry, ...imported] = appModules;
    if (!entry) return "";
    const route = routeModules(pattern, status);
    const order = [...imported, ...route.filter((chunk) => !chunk.needsEntry).map((chunk) => chunk.file), entry, ...route.filter((chunk) => chunk.needsEntry).map((chunk) => chunk.file)];
    return `<script data-modules="${order.map((file) => `/${file}`).join(" ")}">${APP_LOADER_SCRIPT}</script>`;
  }

  function documentFor(url: URL, page: ServerEntry.RenderedPage): string {
    const { head } = page;
    // React writes preloads of the page's pictures first: they belong in the head.
    const hoisted = /^(?:<link [^>]*\/>)+/.exec(page.html)?.[0] ?? "";
    const body = page.html.slice(hoisted.length);
    const title = head.title ?? TEXT.meta.title;
    const description = head.description ?? TEXT.meta.description;
    const canonical = `${base}${canonicalPath(url, page.pattern)}`;
    const image = `${base}${head.image ?? "/images/slides/slide-1.svg"}`;
    const tags = [
      `<title>${escapeHtml(title)}</title>`,
      `<meta name="description" content="${escapeHtml(description)}" />`,
      page.status === 404 ? `<meta name="robots" content="noindex" />` : `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
      `<meta property="og:type" content="${head.jsonLd ? "product" : "website"}" />`,
      `<meta property="og:site_name" content="${TEXT.brand}" />`,
      `<meta property="og:title" content="${escapeHtml(title)}" />`,
      `<meta property="og:description" content="${escapeHtml(description)}" />`,
      `<meta property="og:url" content="${escapeHtml(canonical)}" />`,
      `<meta property="og:image" content="${escapeHtml(image)}" />`,
      `<meta name="twitter:card" content="summary_large_image" />`,
      `<meta name="twitter:title" content="${escapeHtml(title)}" />`,
      `<meta name="twitter:description" content="${escapeHtml(description)}" />`,
      `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
      head.jsonLd ? `<script type="application/ld+json">${scriptJson(absoluteJsonLd(head.jsonLd, base))}</script>` : "",
      hoisted,
    ].join("\n    ");
    // Replaced through functions: text with "$&" or "$'" in it (a tool's name, a review) is not a pattern.
    return template
      .replace(STYLE_MARK, () => (style ? style(body) : ""))
      .replace(/<title>[\s\S]*?<\/title>/, "")
      .replace(/<meta name="description"[^>]*>/, () => tags)
      .replace(
        '<div id="root"></div>',
        () => `<div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serializePageState(page.state)}</script>${appLoader(page.pattern, page.status)}`,
      );
  }

  const cache = new TtlCache<PageResponse>(app.config.listCacheMs, 200);
  onChange(db, "tools", () => cache.clear());
  onChange(db, "reviews", () => cache.clear());

  /** The rendered page at `rawUrl`, or null for a page the browser renders itself. */
  async function render(rawUrl: string): Promise<PageResponse | null> {
    const url = new URL(rawUrl, "http://localhost");
    const key = `${url.pathname}${url.search}`;
    const hit = cache.peek(key);
    if (hit) return hit;
    const { renderPage } = await loadServerEntry();
    const page = await renderPage(key, loaders, (error) => app.log.error({ err: error, url: key }, "server rendering failed"));
    if (!page) return null;
    const html = documentFor(url, page);
    const bytes = Buffer.from(html);
    const response: PageResponse = {
      status: page.status,
      html,
      br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      gzip: gzipSync(bytes, { level: 6 }),
    };
    // A page showing a failure to load its data is not kept: the next visitor gets another try.
    if (page.complete) cache.set(key, response);
    return response;
  }

  return { render, cache, warm: () => loadServerEntry().then(() => undefined) };
}
