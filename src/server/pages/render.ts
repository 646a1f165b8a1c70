/**
 * Public pages rendered on the server (src/web/entry-server.tsx) into the built index.html:
 * the page's own head (title, description, canonical, OpenGraph, Twitter, JSON-LD), its
 * HTML in #root and its data for the browser's hydration. The app's code is Vite's own tags, as
 * built (the entry's module script and its modulepreloads), which wait in an inert template at
 * the end of the body for the window's load event and first paint (./deferred-entry.ts); the
 * app's and the route's own chunks, which the entry asks for then, wait in an inert template of
 * modulepreloads it activates, so they come together. The stylesheet's rules the
 * page uses are written into its head by beasties; the app asks for the whole sheet once it has
 * taken the page over (app/stylesheet.ts), and a browser without JavaScript gets it from a
 * `<noscript>` link at the end of the body: the first screen waits for no stylesheet (decision
 * 0011). Before the code runs the page works as plain
 * HTML (links and GET forms). The finished page is kept compressed for a short while
 * (LIST_CACHE_SECONDS) and forgotten when a tool or a review changes, like the lists; visitors
 * asking for a page while it renders share that render.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import type { CompiledSheet } from "beasties/compiler";
import type { createProcessor } from "beasties/runtime";
import { isPagePath, NOT_FOUND_MODULE, PAGES } from "../../contract/routes";
import { toolListQuerySchema } from "../../contract/schemas";
import { TEXT } from "../../contract/texts/site";
import { PAGE_STATE_ID, serializePageState } from "../../web/app/page-state";
import { PRELOADS_ID } from "../../web/app/preloads";
import { menuSpecsOf, NO_FACETS } from "../../web/features/catalog/facet-values";
import type * as ServerEntry from "../../web/entry-server";
import { listBrands, listCategories } from "../catalog/catalogue";
import { getTool, listTools, toolListKey } from "../catalog/service";
import { toolFacets } from "../catalog/facets";
import { onChange } from "../db/changes";
import { ApiError } from "../http/errors";
import { TtlCache } from "../http/ttl-cache";
import { ENTRY_ON_LOAD_SCRIPT, ENTRY_TEMPLATE_ID } from "./deferred-entry";
import { listReviews, reviewListKey } from "../reviews/service";
import { listToolReviews, toolRatingSummary } from "../reviews/tool-reviews";
import { TOOL_REVIEWS_PAGE_SIZE } from "../../contract/review-schemas";

/**
 * A rendered page, and its bytes in the encoding a browser asked for: each encoding is compressed
 * once, when first asked for (a browser asks for brotli, a few clients for gzip), and kept with
 * the page while the page cache keeps it.
 */
export class PageResponse {
  private readonly encoded = new Map<"br" | "gzip", Buffer>();
  constructor(
    readonly status: number,
    readonly html: string,
  ) {}

  body(encoding: "br" | "gzip"): Buffer {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = encoding === "br" ? brotliCompressSync(this.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : gzipSync(this.html, { level: 6 });
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

interface ManifestChunk {
  file: string;
  /** The chunk's name: vite.config.ts's groups' ("app", "home-start"), else its module's. */
  name?: string;
  isEntry?: boolean;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}

/** The app's entry script as Vite writes it into the built template. */
const ENTRY_SCRIPT = /<script type="module"[^>]* src="\/(assets\/[^"]+\.js)"[^>]*><\/script>/;
/** The chunks the built template loads already (the entry's own imports). */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]* href="\/(assets\/[^"]+\.js)"[^>]*>/g;

/** What React writes before the page's HTML when it renders into #root: the tags it hoists into the document's head. */
const HOISTED = /^(?:<link [^>]*\/>|<meta [^>]*\/>|<title>[^<]*<\/title>)+/;

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** JSON inside a script element: nothing in it may close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e");

/**
 * Paths in the page's JSON-LD (its pictures and addresses: `image`, `url`, at any depth, such as a
 * ProductGroup's variants and their offers) made absolute, as schema.org asks.
 */
export function absoluteJsonLd(jsonLd: Record<string, unknown>, base: string): Record<string, unknown> {
  const absolute = (value: unknown): unknown =>
    typeof value === "string" ? (value.startsWith("/") && !value.startsWith("//") ? `${base}${value}` : value) : Array.isArray(value) ? value.map(absolute) : value;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === "image" || key === "url" ? absolute(inner) : walk(inner)]));
  };
  return walk(jsonLd) as Record<string, unknown>;
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
 * The web app's server entry (react-dom/server and the public pages, about a megabyte of code):
 * loaded once, when the store has started listening (the spa plugin's `warm`), so that compiling
 * it does not lengthen the start; a page asked for before that waits for it.
 */
let serverEntry: Promise<typeof ServerEntry> | undefined;
const loadServerEntry = () => (serverEntry ??= import("../../web/entry-server"));

/**
 * The route table's page at `pathname` (react-router's matching, which needs React: it comes
 * with the server entry, so that start-up loads neither), or null for a path no page has.
 */
export async function matchPage(pathname: string): Promise<ReturnType<typeof ServerEntry.matchPage>> {
  return (await loadServerEntry()).matchPage(pathname);
}

type CriticalCss = ReturnType<typeof createProcessor>;

/**
 * beasties 0.5.4's compiler ends every at-rule it keeps whole with ";", a block one
 * (`@property --x{…}`) too. Inside `@layer base{…}` the browser then reads ";" as the start of
 * the next rule's selector and drops that rule: daisyUI's theme (`:where(:root),[data-theme]{…}`),
 * and CLS 0.138 on /tools came back (decision 0011). A block ends at its "}": the ";" goes.
 */
function withoutStrayAtRuleSemicolons(sheet: CompiledSheet): CompiledSheet {
  return { ...sheet, rules: sheet.rules.map((rule) => (rule.css?.endsWith("};") ? { ...rule, css: rule.css.slice(0, -1) } : rule)) };
}

/**
 * The critical CSS of each page (the maintained `beasties`): the rules of the app's stylesheets
 * (`files`) its HTML can use, for its head. Beasties' compiler reads each sheet once, with the
 * first page (not at start-up); its runtime then scans each page once and picks the rules that
 * page can use: a fraction of the CPU of the classic `Beasties` class, which parsed the whole
 * sheet again for every page (decision 0011).
 */
function criticalCss(webDir: string, files: string[], log: FastifyInstance["log"]): () => Promise<CriticalCss> {
  let critical: Promise<CriticalCss> | undefined;
  const load = async (): Promise<CriticalCss> => {
    const [{ compileSheet }, { createProcessor }] = await Promise.all([import("beasties/compiler"), import("beasties/runtime")]);
    const sheets = files.map((file) => {
      const sheet = compileSheet(readFileSync(path.join(webDir, file), "utf8"), {
        href: `/${file}`,
        // Beasties matches a selector with its pseudo-classes taken out, each `:where(...)` or
        // `:is(...)` whole, so a selector that is only that matches nothing and was left out. Among
        // them daisyUI's theme (`:where(:root)`: its colours, radii, --border, --size-field), without
        // which every .btn and .input had 3px borders (the initial `medium`) until the whole sheet
        // came: the catalogue's filter button wrapped to a second row and the cards moved 48px down
        // (CLS 0.138 on /tools in Lighthouse); and Tailwind's space-y-* and divide-y. All `:where(...)`
        // rules are written in (about 1.2 kB), and the selects' (Chrome's customizable select,
        // `:is(.select, ...)` inside @supports).
        allowRules: [/^:where\(/, /\.select\b/],
      });
      for (const warning of sheet.warnings) log.warn(warning);
      return withoutStrayAtRuleSemicolons(sheet);
    });
    return createProcessor(sheets, { inlineFonts: false, preloadFonts: false });
  };
  return () => (critical ??= load());
}

export function createPageRenderer(app: FastifyInstance, webDir: string) {
  const template = readFileSync(path.join(webDir, "index.html"), "utf8");
  // A template without the app's root (a test's stand-in page) is served as it is.
  if (!template.includes('<div id="root"></div>')) return null;
  const entryScript = ENTRY_SCRIPT.exec(template);
  const entry = entryScript?.[1];
  // Vite's entry tags, as built: on a rendered page they wait in an inert template at the end of
  // the body until the window's load event and first paint (./deferred-entry.ts).
  const entryMatches = entryScript ? [entryScript, ...template.matchAll(MODULE_PRELOAD)] : [];
  const entryTags = entryMatches.map((match) => match[0]);
  // What the template loads already: the page's preloads leave it out.
  const appModules = entryMatches.map((match) => match[1] as string);
  const pageTemplate = template
    .split("\n")
    .filter((line) => !entryTags.includes(line.trim()))
    .join("\n");
  const entryOnLoad =
    entryTags.length === 0 ? "" : `  <template id="${ENTRY_TEMPLATE_ID}">${entryTags.join("")}</template><script>${ENTRY_ON_LOAD_SCRIPT}</script>\n  `;
  const manifestFile = path.join(webDir, ".vite", "manifest.json");
  const manifest: Record<string, ManifestChunk> = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>) : {};
  // The app's own chunk and the home page's first load: what the entry (src/web/main.tsx) imports once the first screen is painted.
  const appChunks = Object.values(manifest).find((chunk) => chunk.isEntry)?.dynamicImports ?? [];
  // The store's stylesheet (styles.css, a chunk of its own: app/stylesheet.ts), wherever Vite put it.
  const appSheets = [...new Set(Object.values(manifest).flatMap((chunk) => [...(chunk.css ?? []), ...(chunk.file.endsWith(".css") ? [chunk.file] : [])]))].filter((file) => existsSync(path.join(webDir, file)));
  const base = app.config.publicUrl.replace(/\/$/, "");
  const { db } = app.store;
  const withCriticalCss = criticalCss(webDir, appSheets, app.log);
  // A browser that runs no JavaScript loads no app: it gets the whole sheet from here.
  const sheetsWithoutJavaScript = appSheets.length === 0 ? "" : `  <noscript>${appSheets.map((file) => `<link rel="stylesheet" href="/${file}">`).join("")}</noscript>\n  `;

  const loaders: ServerEntry.PageLoaders = {
    // The API's own parsing of the list query, and its cache of lists.
    tools: async (query) => {
      // The `spec.<key>` filters are not the schema's (their names vary): passed on as the API's route reads them from the URL.
      const parsed = { ...toolListQuerySchema.parse(query), spec: query.spec ?? {} };
      try {
        const { items, total, exact } = await app.lists.tools.get(toolListKey(parsed), () => listTools(db, parsed));
        return { items, total, exact };
      } catch (error) {
        // A filter the API refuses (a category, brand or specification that is gone: an old link): no tool matches it.
        if (error instanceof ApiError && error.statusCode === 400) return { items: [], total: 0, exact: true };
        throw error;
      }
    },
    tool: (id) => getTool(db, id),
    toolReviews: async (toolId, view) => {
      const { items, total } = await listToolReviews(db, toolId, { ...view, limit: TOOL_REVIEWS_PAGE_SIZE });
      return { items, total, exact: true };
    },
    toolRating: (toolId) => toolRatingSummary(db, toolId),
    // The facets of the list's query, from the API's own cache of them (GET /api/tool/facets): the filters' counts, server-rendered.
    facets: async (query) => {
      const parsed = { ...toolListQuerySchema.parse(query), spec: query.spec ?? {} };
      try {
        return await app.lists.facets.get(toolListKey({ ...parsed, page: 1, limit: 0, sort: undefined, cursor: undefined }), () => toolFacets(db, parsed));
      } catch (error) {
        // A filter the API refuses (an old link): no tool matches it, as the list says.
        if (error instanceof ApiError && error.statusCode === 400) return NO_FACETS;
        throw error;
      }
    },
    catalogueMenu: async () => {
      const whole = toolListQuerySchema.parse({});
      const [categories, brands, facets] = await Promise.all([
        listCategories(db),
        listBrands(db),
        // Every value of each choice specification (the facets of the whole catalogue): one the shopper's filters leave nothing of is shown disabled.
        app.lists.facets.get(toolListKey({ ...whole, spec: {}, page: 1, limit: 0, sort: undefined, cursor: undefined }), () => toolFacets(db, { ...whole, spec: {} })),
      ]);
      return { categories: categories.map(({ slug, name, parentSlug }) => ({ slug, name, parentSlug })), brands, specs: menuSpecsOf(facets.specs) };
    },
    reviews: async (limit) => {
      const { items, total, exact } = await app.lists.reviews.get(reviewListKey({ page: 1, limit }), () => listReviews(db, { page: 1, limit }));
      return { items, total, exact };
    },
  };

  /**
   * The app's chunk and the page's own (the route table's; the 404 page's for an unknown path),
   * and what they import, minus what the template loads already: preloaded all at once when the
   * entry asks for the app (app/preloads.ts), so that taking the page over waits for no chain of
   * imports. The chunks of what lies below the first screen (the footer, the home page's lower
   * sections) are not: the page asks for them when it needs them. Nothing for a template without
   * the app's entry (a test's).
   */
  function pageModules(pattern: string | null, status: number): string[] {
    if (!entry) return [];
    const own = status === 404 && pattern !== "/tools/:id" ? NOT_FOUND_MODULE : pattern && isPagePath(pattern) ? PAGES[pattern].module : NOT_FOUND_MODULE;
    const files = new Set<string>();
    const walk = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file) || appModules.includes(chunk.file)) return;
      files.add(chunk.file);
      for (const imported of chunk.imports ?? []) walk(imported);
    };
    // The home page's own first load (app/home-start.tsx, decision 0025), every other page the app.
    const firstLoad = pattern === "/" && status === 200 ? "home-start" : "app";
    for (const key of appChunks) if (manifest[key]?.name === firstLoad) walk(key);
    if (own) walk(own);
    return [...files];
  }

  /** The page's chunks as module preloads the entry activates (app/preloads.ts); nothing when there are none. */
  const preloadsOf = (files: string[]) =>
    files.length === 0 ? "" : `<template id="${PRELOADS_ID}">${files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join("")}</template>`;

  function documentFor(url: URL, page: ServerEntry.RenderedPage): string {
    const { head } = page;
    // React writes what belongs in the head first (its document metadata): the page's <title> and
    // <meta name="description"> (lib/page-title.tsx) and the preloads of its pictures.
    const hoisted = HOISTED.exec(page.html)?.[0] ?? "";
    const body = page.html.slice(hoisted.length);
    // The same words as the page's own tags, for the link previews' copies of them.
    const title = head.title ?? TEXT.meta.title;
    const description = head.description ?? TEXT.meta.description;
    const canonical = `${base}${canonicalPath(url, page.pattern)}`;
    const image = `${base}${head.image ?? "/images/slides/slide-1.svg"}`;
    const tags = [
      // A page that renders no title of its own (none does today) keeps the site's words.
      ...(hoisted.includes("<title>") ? [] : [`<title>${escapeHtml(title)}</title>`, `<meta name="description" content="${escapeHtml(description)}" />`]),
      hoisted,
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
      preloadsOf(pageModules(page.pattern, page.status)),
    ].join("\n    ");
    // Replaced through functions: text with "$&" or "$'" in it (a tool's name, a review) is not a pattern.
    return pageTemplate
      .replace(/<title>[\s\S]*?<\/title>/, "")
      .replace(/<meta name="description"[^>]*>/, () => tags)
      .replace(
        '<div id="root"></div>',
        () => `<div id="root">${body}</div><script id="${PAGE_STATE_ID}" type="application/json">${serializePageState(page.state)}</script>`,
      );
  }

  const cache = new TtlCache<PageResponse | null>(app.config.listCacheMs, 200);
  onChange(db, "tools", () => cache.clear());
  onChange(db, "reviews", () => cache.clear());
  /** Pages showing a failure to load their data: served, but not kept (the next visitor gets another try). */
  const incomplete = new WeakSet<PageResponse>();

  async function renderFresh(url: URL, key: string): Promise<PageResponse | null> {
    const { renderPage } = await loadServerEntry();
    const page = await renderPage(key, loaders, (error) => app.log.error({ err: error, url: key }, "server rendering failed"));
    if (!page) return null;
    const unstyled = documentFor(url, page);
    const { css } = (await withCriticalCss()).extract(unstyled);
    // Replaced through functions, like documentFor's: the CSS may hold "$&".
    const html = unstyled
      .replace("</head>", () => (css ? `  <style>${css.replace(/<\/style/gi, "<\\/style")}</style>\n  </head>` : "</head>"))
      .replace("</body>", () => `${sheetsWithoutJavaScript}${entryOnLoad}</body>`);
    const response = new PageResponse(page.status, html);
    if (!page.complete) incomplete.add(response);
    return response;
  }

  /**
   * The rendered page at `rawUrl`, or null for a page the browser renders itself. Visitors who
   * ask for the same address while it renders share that one render (lru-cache's fetch): when the
   * cached page expires under load, it is rendered once, not once per waiting visitor.
   */
  function render(rawUrl: string): Promise<PageResponse | null> {
    const url = new URL(rawUrl, "http://localhost");
    const key = `${url.pathname}${url.search}`;
    return cache.get(key, () => renderFresh(url, key), (response) => response !== null && !incomplete.has(response));
  }

  return { render, cache, warm: () => loadServerEntry().then(() => undefined) };
}
