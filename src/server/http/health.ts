import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const healthSchema = z.object({ status: z.enum(["ok", "degraded"]), db: z.enum(["ok", "down"]) });

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/health",
    { schema: { tags: ["health"], summary: "Liveness and database reachability", response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      try {
        await app.store.db.execute(sql`select 1`);
        return { status: "ok" as const, db: "ok" as const };
      } catch {
        return reply.status(503).send({ status: "degraded" as const, db: "down" as const });
      }
    },
  );
};
