import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { harnessOptions } from "../test-support";

describe("the SPA's files", () => {
  let app: FastifyInstance;
  let webDir: string;
  beforeAll(async () => {
    webDir = mkdtempSync(path.join(tmpdir(), "toolyard-web-"));
    mkdirSync(path.join(webDir, "assets"));
    writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Toolyard</title>");
    writeFileSync(path.join(webDir, "assets", "app-abc123.js"), "console.log(1)");
    writeFileSync(path.join(webDir, "assets", "app-abc123.js.map"), "{}");
    writeFileSync(path.join(webDir, "logo.png"), "png");
    const config = loadConfig({ NODE_ENV: "test", AUTH_SECRET: "s".repeat(40), DATA_DIR: "memory://", SEED: "false" });
    app = await buildApp({ ...config, webDir }, await harnessOptions(config));
  });
  afterAll(async () => {
    await app?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("sends the HTML of every page route no-cache, so a deploy is seen at once", async () => {
    for (const url of ["/", "/tools", "/dashboard/profile", "/index.html"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"], url).toMatch(/text\/html/);
      expect(res.headers["cache-control"], url).toBe("no-cache");
    }
  });

  it("caches hashed bundles for a year and pictures for an hour", async () => {
    expect((await app.inject({ url: "/assets/app-abc123.js" })).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect((await app.inject({ url: "/logo.png" })).headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("never serves source maps", async () => {
    const res = await app.inject({ url: "/assets/app-abc123.js.map" });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toBe("{}");
  });

  it("answers unknown assets and API paths with a JSON 404, not the page", async () => {
    for (const url of ["/assets/missing.js", "/api/nothing"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: "NOT_FOUND" });
    }
  });
});
