/**
 * The console's refunds, /api/admin/refunds (decision 0016): every refund the store owes or
 * gave back, as the refund worker sees it (pending with its tries and next attempt, succeeded,
 * failed with the provider's reason). A child of the admin routes, so their guard covers it.
 */
import { desc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminRefundListQuerySchema, adminRefundSchema, type AdminRefund } from "../../contract/admin-schemas";
import { centsToDollars } from "../../contract/money";
import { cappedCount } from "../db/paging";
import { orders, refunds } from "../db/schema";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";

export const refundAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  app.get(
    "/refunds",
    {
      schema: {
        tags: ["admin"],
        summary: "Refunds, newest first (`status`: pending, succeeded, failed), with the refund worker's tries; the total is in X-Total-Count",
        querystring: adminRefundListQuerySchema,
        response: { 200: z.array(adminRefundSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { status, page, limit } = request.query;
      const where = status ? eq(refunds.status, status) : undefined;
      const [rows, total] = await Promise.all([
        db
          .select({ r: refunds, number: orders.number })
          .from(refunds)
          .innerJoin(orders, eq(orders.id, refunds.orderId))
          .where(where)
          .orderBy(desc(refunds.createdAt), desc(refunds.id))
          .limit(limit)
          .offset((page - 1) * limit),
        cappedCount(db, db.select({ one: sql`1` }).from(refunds).where(where).$dynamic()),
      ]);
      pageHeaders(request, reply, total);
      return rows.map(
        ({ r, number }): AdminRefund => ({
          _id: r.id,
          orderId: r.orderId,
          orderNumber: number,
          kind: r.kind as AdminRefund["kind"],
          amount: centsToDollars(r.amountCents),
          status: r.status as AdminRefund["status"],
          providerRefundId: r.providerRefundId,
          tries: r.tries,
          nextAttemptAt: r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
          lastError: r.lastError,
          createdAt: r.createdAt.toISOString(),
          settledAt: r.settledAt?.toISOString() ?? null,
        }),
      );
    },
  );
};
