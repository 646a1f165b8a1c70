/**
 * Serves the built SPA on the store's origin. Hashed bundles are cached for a year; the HTML
 * (index.html and every page route that falls back to it) is revalidated on every visit, so a
 * returning visitor never gets HTML pointing at bundles a deploy has removed. Source maps are
 * built for our own debugging and never served.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { API_TEXT } from "../../contract/texts/api";
import { getTool } from "../catalog/service";
import { createPageRenderer, matchPage, type PageResponse } from "../pages/render";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";
/** Pictures and icons of public/: not hashed, rarely changed. */
const ONE_HOUR = "public, max-age=3600";

function cacheControlFor(filePath: string): string {
  if (filePath.includes(`${path.sep}assets${path.sep}`)) return IMMUTABLE;
  return filePath.endsWith(".html") ? REVALIDATE : ONE_HOUR;
}

const notFound = (reply: FastifyReply) => reply.status(404).send({ error: "NOT_FOUND", message: API_TEXT.notFound });

function wantsPage(request: FastifyRequest): boolean {
  const url = request.url;
  return (request.method === "GET" || request.method === "HEAD") && !url.startsWith("/api/") && url !== "/api" && !url.startsWith("/assets/");
}

export default fp(
  async (app) => {
    const { webDir } = app.config;
    const hasWeb = existsSync(path.join(webDir, "index.html"));
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: webDir,
        wildcard: false,
        index: false,
        // One route per file is made at start-up; the compressed copies are found through their
        // file's route (preCompressed), so they need none of their own.
        globIgnore: ["**/*.br", "**/*.gz", "**/*.map"],
        // The build writes .br and .gz beside each text asset (vite.config.ts).
        preCompressed: true,
        // Runs for every file this plugin sends, the SPA fallback's index.html included.
        setHeaders(res, filePath) {
          res.header("cache-control", cacheControlFor(filePath));
        },
        allowedPath: (pathName) => !pathName.endsWith(".map"),
      });
    }
    /**
     * A path no page has, or a tool page of a tool that is not (or no longer) in the catalogue:
     * the app still renders its 404 page, and the status says so (search engines, link checkers).
     * Which page a path is, is the route table's (react-router's matching, which comes with the
     * lazily loaded server entry: loaded by then, once the store listens).
     */
    async function pageStatus(pathname: string): Promise<200 | 404> {
      const page = await matchPage(pathname);
      if (!page) return 404;
      if (page.path === "/tools/:id") {
        const tool = await getTool(app.store.db, page.params.id ?? "").catch(() => "unknown" as const);
        if (tool === undefined) return 404;
      }
      return 200;
    }

    // Public pages come rendered with their data (pages/render.ts); signed-in pages get the bare app.
    const pages = hasWeb ? createPageRenderer(app, webDir) : null;
    // The renderer's code loads once the store listens, before anyone is likely to ask for a page.
    if (pages) {
      app.addHook("onListen", async () => {
        pages.warm().catch((error: unknown) => app.log.error({ err: error }, "loading the page renderer failed"));
      });
    }

    function sendPage(request: FastifyRequest, reply: FastifyReply, page: PageResponse) {
      const accepts = String(request.headers["accept-encoding"] ?? "");
      reply.status(page.status).type("text/html; charset=utf-8").header("cache-control", REVALIDATE).header("vary", "accept-encoding");
      if (/\bbr\b/.test(accepts)) return reply.header("content-encoding", "br").send(page.body("br"));
      if (/\bgzip\b/.test(accepts)) return reply.header("content-encoding", "gzip").send(page.body("gzip"));
      return reply.send(page.html);
    }

    app.setNotFoundHandler(async (request, reply) => {
      const pathname = request.url.split("?")[0] ?? "/";
      if (!hasWeb || !wantsPage(request) || pathname.endsWith(".map")) return notFound(reply);
      const page = pathname === "/index.html" ? null : await pages?.render(request.url);
      if (page) return sendPage(request, reply, page);
      return reply
        .status(await pageStatus(pathname))
        .type("text/html")
        .sendFile("index.html");
    });
  },
  { name: "toolyard-spa" },
);
