/** The OpenAPI document, generated from the routes' zod schemas, and its UI at /api/docs. */
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

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
    await app.register(swaggerUi, { routePrefix: "/api/docs" });
  },
  { name: "toolyard-docs" },
);
