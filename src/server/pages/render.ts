/**
 * Public pages rendered on the server (src/web/entry-server.tsx) into the built index.html:
 * the page's own head (title, description, canonical, OpenGraph, Twitter, JSON-LD), its
 * HTML in #root, its data for the browser's hydration, and a modulepreload of its route's
 * chunk. The finished page is kept compressed for a short while (LIST_CACHE_SECONDS) and
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
import { EARLY_INPUT_SCRIPT } from "./early-input";

export interface PageResponse {
  status: number;
  html: string;
  br: Buffer;
  gzip: Buffer;
}

/**
 * Each route's own chunk (src/web relative, as Vite's manifest names them), preloaded with the
 * page so that hydrating its content does not wait for it. The chunks of what lies below the
 * first screen (the footer, the home page's lower sections) are not: they would compete with
 * the first paint, and their HTML is on screen already.
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

/**
 * The stylesheet written into the page instead of linked: one round trip less before the first
 * paint (it is small, and the only one). Its urls are data: or absolute, so it reads the same inline.
 */
function inlineStylesheet(template: string, webDir: string): string {
  return template.replace(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/, (tag, file: string) => {
    const css = readFileSync(path.join(webDir, file), "utf8");
    return /<\/style/i.test(css) ? tag : `<style>${css}</style>`;
  });
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
  const template = inlineStylesheet(built, webDir);
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

  /** modulepreload links for a route's chunk and what it imports, minus what the template already loads. */
  function preloads(pattern: string | null, status: number): string {
    if (pattern === "/") return "";
    const entries = status === 404 && pattern !== "/tools/:id" ? NOT_FOUND_MODULES : ((pattern ? ROUTE_MODULES[pattern] : undefined) ?? NOT_FOUND_MODULES);
    const files = new Set<string>();
    const walk = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) walk(imported);
    };
    for (const entry of entries) walk(entry);
    return [...files]
      .filter((file) => !template.includes(`/${file}"`))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join("");
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
      `<script>${EARLY_INPUT_SCRIPT}</script>`,
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
      preloads(page.pattern, page.status),
      hoisted,
    ].join("\n    ");
    return template
      .replace(/<title>[\s\S]*?<\/title>/, "")
      .replace(/<meta name="description"[^>]*>/, tags)
      .replace(
        '<div id="root"></div>',
        `<div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serializePageState(page.state)}</script>`,
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
