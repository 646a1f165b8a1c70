import etag from "@fastify/etag";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { API_TEXT } from "../../contract/texts/api";
import { idParamsSchema, suggestionSchema, suggestQuerySchema, toolInputSchema, toolListQuerySchema, toolPatchSchema, toolSchema } from "../../contract/schemas";
import { notFound } from "../http/errors";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { facetsSchema } from "../../contract/catalogue-io";
import { toolFacets } from "./facets";
import { createTool, getTool, listTools, retireTool, specQueryOf, suggestTools, toolListKey, updateTool } from "./service";

/**
 * The public reads, in a context of their own: revalidation (decision 0013) applies to these
 * answers only, never to an admin write's or to anything personal.
 */
const catalogReads: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  // A weak ETag (SHA-1 of the body) on each answer; a matching If-None-Match gets 304, no body.
  await app.register(etag, { weak: true });

  app.get(
    "/tool",
    {
      schema: {
        tags: ["catalogue"],
        summary:
          "List tools (one row per product unless variants=all) by category (any slug of the tree), brand, spec.<key>, price range and a search text (full text, ranked; names alike when no word matches), sorted; " +
          "the total is in X-Total-Count (exact up to 1,000, else X-Total-Count-Exact: false); past page 400 follow the Link rel=next (cursor)",
        querystring: toolListQuerySchema,
        response: { 200: z.array(toolSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, spec: specQueryOf(request.url) };
      const result = await app.lists.tools.get(toolListKey(query), () => listTools(db, query));
      pageHeaders(request, reply, result);
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return result.items;
    },
  );

  app.get(
    "/tool/suggest",
    {
      schema: {
        tags: ["catalogue"],
        summary: "Search-as-you-type: at most 8 tools whose names start with (or look like) the words typed",
        querystring: suggestQuerySchema,
        response: { 200: z.array(suggestionSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { q } = request.query;
      const suggestions = await app.lists.suggestions.get(q.toLowerCase(), () => suggestTools(db, q));
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return suggestions;
    },
  );

  app.get(
    "/tool/facets",
    {
      schema: {
        tags: ["catalogue"],
        summary:
          "The list's filters with counts, for the same query as GET /api/tool (category, brand, spec.<key>, price, q, variants): the category tree, the brands, each filterable specification " +
          "(values with counts, or a number's range) and the price range; counts are rows of the list (one per product); a selected brand or spec key is counted without its own selection",
        querystring: toolListQuerySchema,
        response: { 200: facetsSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const query = { ...request.query, spec: specQueryOf(request.url) };
      const facets = await app.lists.facets.get(toolListKey({ ...query, page: 1, limit: 0, sort: undefined, cursor: undefined }), () => toolFacets(db, query));
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return facets;
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
    async (request, reply) => {
      const { id } = request.params;
      const tool = await app.lists.tool.get(id, async () => (await getTool(db, id)) ?? null);
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return tool;
    },
  );
};

export const catalogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  await app.register(catalogReads);

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
