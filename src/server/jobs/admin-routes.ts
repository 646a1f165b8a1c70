/**
 * The console's failed jobs, /api/admin/jobs (decision 0021): background work that used its last
 * attempt, with its error, and a retry that sends it again. A child of the admin routes, so their
 * guard covers it.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { jobFailureSchema } from "../../contract/admin-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { recordAudit } from "../audit";
import { notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";

const tags = ["admin"];

export const jobAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/jobs/failed",
    {
      schema: { tags, summary: "Background jobs that used their last attempt, newest first, with their error (the latest 100)", response: { 200: z.array(jobFailureSchema), ...errorResponses(401, 403) } },
    },
    async () =>
      (await app.jobs.failures()).map((f) => ({ _id: f.id, queue: f.queue, error: f.error, attempts: f.attempts, failedAt: f.failedAt.toISOString() })),
  );

  app.post(
    "/jobs/failed/:id/retry",
    {
      schema: { tags, summary: "Send a failed job again (a new job with its data); it leaves the failed list", params: idParamsSchema, response: { 202: z.object({ queued: z.literal(true) }), ...errorResponses(401, 403, 404) } },
    },
    async (request, reply) => {
      const actor = { id: request.viewer.id, email: request.viewer.email };
      const sent = await app.jobs.retry(request.params.id, (tx, failure) => recordAudit(tx, actor, { action: "job.retry", entity: "job", entityId: failure.id, before: { queue: failure.queue, error: failure.error } }));
      if (!sent) throw notFound(ADMIN_API_TEXT.jobFailureNotFound);
      return reply.status(202).send({ queued: true as const });
    },
  );
};
