import etag from "@fastify/etag";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { reviewInputSchema, reviewListQuerySchema, reviewSchema } from "../../contract/schemas";
import { reviewListKey } from "../plugins/caches";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { addReview, listReviews } from "./service";

/** The public read, in a context of its own: revalidation (decision 0013) applies to it alone. */
const reviewReads: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  // A weak ETag (SHA-1 of the body) on each answer; a matching If-None-Match gets 304, no body.
  await app.register(etag, { weak: true });

  app.get(
    "/review",
    {
      schema: {
        tags: ["reviews"],
        summary:
          "Site reviews, newest first; the total is in X-Total-Count (exact up to 1,000, else X-Total-Count-Exact: false); past page 400 follow the Link rel=next (cursor)",
        querystring: reviewListQuerySchema,
        response: { 200: z.array(reviewSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const result = await app.lists.reviews.get(reviewListKey(request.query), () => listReviews(db, request.query));
      pageHeaders(request, reply, result);
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return result.items;
    },
  );
};

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  await app.register(reviewReads);

  app.post(
    "/review",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["reviews"],
        summary: "Add a review (signed in)",
        body: reviewInputSchema,
        response: { 201: reviewSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const review = await addReview(db, request.viewer.id, request.body);
      return reply.status(201).send(review);
    },
  );
};
