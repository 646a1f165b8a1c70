/**
 * What search engines read first: `/robots.txt` (keep out of personal pages and the API; where
 * the sitemap is) and `/sitemap.xml` (every public page and every active tool, with `lastmod`).
 */
import { statSync } from "node:fs";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import fp from "fastify-plugin";
import { PRIVATE_PREFIXES, PUBLIC_PATHS } from "../../contract/routes";
import { tools } from "../db/schema";

/** A sitemap file holds at most 50,000 addresses (sitemaps.org). */
const SITEMAP_MAX = 50_000;
const ONE_HOUR = "public, max-age=3600";

const xmlEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");

export default fp(
  async (app) => {
    const base = app.config.publicUrl.replace(/\/$/, "");
    // The static pages change with a deploy: the built page's date is theirs.
    const builtAt = (() => {
      try {
        return statSync(path.join(app.config.webDir, "index.html")).mtime;
      } catch {
        return new Date();
      }
    })();

    app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) => {
      const lines = ["User-agent: *", ...PRIVATE_PREFIXES.map((prefix) => `Disallow: ${prefix}`), "", `Sitemap: ${base}/sitemap.xml`, ""];
      return reply.type("text/plain; charset=utf-8").header("cache-control", ONE_HOUR).send(lines.join("\n"));
    });

    app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
      const rows = await app.store.db
        .select({ id: tools.id, updatedAt: tools.updatedAt })
        .from(tools)
        .where(eq(tools.active, true))
        .orderBy(desc(tools.updatedAt))
        .limit(SITEMAP_MAX - PUBLIC_PATHS.length);
      const url = (loc: string, lastmod: Date) => `  <url><loc>${xmlEscape(`${base}${loc}`)}</loc><lastmod>${lastmod.toISOString()}</lastmod></url>`;
      const body = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...PUBLIC_PATHS.map((page) => url(page, builtAt)),
        ...rows.map((row) => url(`/tools/${encodeURIComponent(row.id)}`, row.updatedAt)),
        "</urlset>",
        "",
      ].join("\n");
      return reply.type("application/xml; charset=utf-8").header("cache-control", ONE_HOUR).send(body);
    });
  },
  { name: "toolyard-crawlers" },
);
