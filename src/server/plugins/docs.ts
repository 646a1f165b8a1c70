/** The OpenAPI document, generated from the routes' zod schemas, and its UI at /api/docs. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/**
 * The UI's own files (scripts, styles, logo). Named here rather than found by the package from
 * its `__dirname`, which the bundled server (scripts/build-server.mjs) does not have.
 */
function swaggerUiFiles(): { baseDir: string; logo: { type: string; content: Buffer } } {
  const baseDir = path.join(path.dirname(createRequire(import.meta.url).resolve("@fastify/swagger-ui")), "static");
  return { baseDir, logo: { type: "image/svg+xml", content: readFileSync(path.join(baseDir, "logo.svg")) } };
}

export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: { title: "Toolyard API", version: "1.0.0", description: "Tools, reviews, orders and accounts." },
        components: {
          securitySchemes: {
            cookie: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
            bearer: { type: "http", scheme: "bearer" },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: "/api/docs", ...swaggerUiFiles() });
  },
  { name: "toolyard-docs" },
);
