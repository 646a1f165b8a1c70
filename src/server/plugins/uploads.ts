/**
 * Serves uploaded photos under /uploads/ from the upload folder. Every upload gets a new file
 * name, so a file never changes: browsers and proxies may keep it for a year.
 */
import { mkdirSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import fp from "fastify-plugin";

export const UPLOAD_CACHE_CONTROL = "public, max-age=31536000, immutable";

export default fp(
  async (app) => {
    mkdirSync(app.config.uploadDir, { recursive: true });
    await app.register(fastifyStatic, {
      root: app.config.uploadDir,
      prefix: "/uploads/",
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: "deny",
      setHeaders(res) {
        res.header("cache-control", UPLOAD_CACHE_CONTROL);
      },
    });
  },
  { name: "toolyard-uploads" },
);
