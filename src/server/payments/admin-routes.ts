/**
 * The console's refunds, /api/admin/refunds (decision 0016): every refund the store owes or
 * gave back, as the refund worker sees it (pending with its tries and next attempt, succeeded,
 * failed with the provider's reason); and the owner's refund of lines of an order (payments owns
 * the money given back; the orders module settles what is left to ship and the return it names).
 * Mounted in the console's scope (plugins/console.ts), behind its admin guard.
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
import { refundInputSchema, refundResultSchema } from "../../contract/refund-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { LIMITS } from "../../contract/constants";
import { announceChange } from "../db/changes";
import type { Tx } from "../db/client";
import { announceMove, checkReturnForRefund, getAdminOrder, settleShipping } from "../orders";
import { refundOrderLines } from "./line-refunds";
import { actorOf } from "../audit";

const refundHeaders = z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey) });

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

  app.post(
    "/orders/:id/refunds",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Refund lines and quantities of a paid, shipped or delivered order (optionally its shipping; restock by default), with an Idempotency-Key: 201 {refund, order}; more than is left → 409 REFUND_EXCEEDS, nothing done; a repeated key gives the first answer",
        params: idParamsSchema,
        headers: refundHeaders,
        body: refundInputSchema,
        response: { 201: refundResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const moves: Awaited<ReturnType<typeof settleShipping>> = [];
      // A refund of units not yet shipped may leave nothing to ship: a partly shipped order is then shipped (issue 52).
      const afterRefund = async (tx: Tx, refund: { orderId: string }) => {
        moves.push(...(await settleShipping(tx, refund.orderId, actor)));
      };
      const outcome = await refundOrderLines(db, { mail: app.mail.orders, checkReturn: checkReturnForRefund, afterRefund }, request.params.id, request.body, request.headers["idempotency-key"], actor);
      for (const m of moves) announceMove(db, m.result, m.to);
      if (outcome.owed) app.payments.refundWorker.kick();
      if (outcome.restocked) announceChange(db, "tools");
      const order = await getAdminOrder(db, request.params.id);
      const refund = order.refunds?.find((r) => r._id === outcome.refundId);
      if (!refund) throw new Error(`refund ${outcome.refundId} is not on its order`);
      return reply.status(201).send({ refund, order });
    },
  );
};
