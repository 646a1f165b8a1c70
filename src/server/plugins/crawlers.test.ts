import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { createTool, retireTool } from "../catalog/service";
import { loadConfig } from "../config";
import { prepareStore } from "../start-up";
import { createPostgresDatabase, drivers, harnessOptions } from "../test-support";

const TOOL = {
  name: "Sitemap Hammer",
  image: "/images/tools/claw-hammer.svg",
  price: 10,
  availableQuantity: 5,
  minimumQuantity: 1,
  description: "A hammer for the crawler tests.",
  category: "hand-tools" as const,
};

describe.each(drivers())("pages, 404s and crawler files on %s", (driver) => {
  let app: FastifyInstance;
  let webDir: string;
  let drop: (() => Promise<void>) | undefined;
  let active: string;
  let retired: string;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "toolyard-web-"));
    writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Toolyard</title><div id=root></div>");
    const pg = driver === "postgres" ? await createPostgresDatabase() : undefined;
    drop = pg?.drop;
    const config = loadConfig({
      NODE_ENV: "test",
      AUTH_SECRET: "s".repeat(40),
      DATA_DIR: "memory://",
      SEED: "false",
      PUBLIC_URL: "https://shop.example",
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    });
    app = await buildApp({ ...config, webDir }, await harnessOptions(config));
    await prepareStore(app);
    active = (await createTool(app.store.db, TOOL))._id;
    retired = (await createTool(app.store.db, { ...TOOL, name: "Retired Hammer" }))._id;
    await retireTool(app.store.db, retired);
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
    rmSync(webDir, { recursive: true, force: true });
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
    expect(res.body).toContain("Sitemap: https://shop.example/sitemap.xml");
  });

  it("sitemap.xml lists every public page and every active tool with lastmod, and no retired one", async () => {
    const res = await app.inject({ url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      "https://shop.example/",
      "https://shop.example/tools",
      "https://shop.example/about",
      "https://shop.example/blogs",
      "https://shop.example/legal",
      `https://shop.example/tools/${active}`,
    ]);
  });
});
