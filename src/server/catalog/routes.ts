import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { API_TEXT } from "../../contract/texts/api";
import { idParamsSchema, toolInputSchema, toolListQuerySchema, toolPatchSchema, toolSchema } from "../../contract/schemas";
import { notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { createTool, getTool, listTools, retireTool, updateTool } from "./service";

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  app.get(
    "/tool",
    {
      schema: {
        tags: ["catalogue"],
        summary: "List tools, filtered by category and a search text; the total is in X-Total-Count",
        querystring: toolListQuerySchema,
        response: { 200: z.array(toolSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { category, q, page, limit } = request.query;
      const key = JSON.stringify([category ?? "", q ?? "", page, limit]);
      const { items, total } = await app.lists.tools.get(key, () => listTools(db, request.query));
      reply.header("x-total-count", String(total));
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return items;
    },
  );

  app.get(
    "/tool/:id",
    {
      schema: {
        tags: ["catalogue"],
        summary: "One tool",
        params: idParamsSchema,
        response: { 200: toolSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const tool = await getTool(db, request.params.id);
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      return tool;
    },
  );

  app.post(
    "/tool",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Add a tool (admin)",
        body: toolInputSchema,
        response: { 201: toolSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const tool = await createTool(db, request.body, request.viewer);
      return reply.status(201).send(tool);
    },
  );

  app.put(
    "/tool/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Change a tool or its stock (admin)",
        params: idParamsSchema,
        body: toolPatchSchema,
        response: { 200: toolSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tool = await updateTool(db, request.params.id, request.body, request.viewer);
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      return tool;
    },
  );

  app.delete(
    "/tool/:id",
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ["admin"],
        summary: "Retire a tool from the catalogue (admin); its past orders keep it",
        params: idParamsSchema,
        response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await retireTool(db, request.params.id, request.viewer))) throw notFound(API_TEXT.toolNotFound);
      return reply.status(204).send(null);
    },
  );
};
