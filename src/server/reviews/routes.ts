import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { reviewInputSchema, reviewListQuerySchema, reviewSchema } from "../../contract/schemas";
import { errorResponses } from "../http/schemas";
import { addReview, listReviews } from "./service";

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  app.get(
    "/review",
    {
      schema: {
        tags: ["reviews"],
        summary: "Site reviews, newest first; the total is in X-Total-Count",
        querystring: reviewListQuerySchema,
        response: { 200: z.array(reviewSchema), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { page, limit } = request.query;
      const { items, total } = await app.lists.reviews.get(`${page}:${limit}`, () => listReviews(db, page, limit));
      reply.header("x-total-count", String(total));
      return items;
    },
  );

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
