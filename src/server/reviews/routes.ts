import etag from "@fastify/etag";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, reviewInputSchema, reviewListQuerySchema, reviewSchema } from "../../contract/schemas";
import {
  reviewEligibilitySchema,
  toolRatingSummarySchema,
  toolReviewInputSchema,
  toolReviewListQuerySchema,
  toolReviewSchema,
} from "../../contract/review-schemas";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { addReview, listReviews, reviewListKey } from "./service";
import { addToolReview, listToolReviews, reviewEligibility, toolRatingSummary } from "./tool-reviews";

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

  app.get(
    "/tool/:id/reviews",
    {
      schema: {
        tags: ["reviews"],
        summary: "A tool's visible reviews (newest first, or by rating), paged; the total (the tool's rating.count) is in X-Total-Count",
        params: idParamsSchema,
        querystring: toolReviewListQuerySchema,
        response: { 200: z.array(toolReviewSchema), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const { items, total } = await listToolReviews(db, request.params.id, request.query);
      pageHeaders(request, reply, { total, exact: true });
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return items;
    },
  );

  app.get(
    "/tool/:id/reviews/summary",
    {
      schema: {
        tags: ["reviews"],
        summary: "A tool's rating: the average to one decimal, the count of visible reviews and how many gave each number of stars",
        params: idParamsSchema,
        response: { 200: toolRatingSummarySchema, ...errorResponses(400, 404) },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=0, must-revalidate");
      return toolRatingSummary(db, _request.params.id);
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

  app.post(
    "/tool/:id/reviews",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["reviews"],
        summary: "Review a tool you received (a delivered order of it), once: 403 NOT_A_BUYER, 409 ALREADY_REVIEWED",
        params: idParamsSchema,
        body: toolReviewInputSchema,
        response: { 201: toolReviewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const review = await addToolReview(db, request.viewer.id, request.params.id, request.body);
      return reply.status(201).send(review);
    },
  );

  app.get(
    "/tool/:id/reviews/eligibility",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["reviews"],
        summary: "Whether you may review the tool (a delivered order of it, no review yet), and why not",
        params: idParamsSchema,
        response: { 200: reviewEligibilitySchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return reviewEligibility(db, request.viewer.id, request.params.id);
    },
  );
};
