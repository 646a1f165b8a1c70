/**
 * The orders module's console routes under /api/admin (issue 49: each module mounts its own in
 * the console's scope, plugins/console.ts, whose guard lets only the admin role in): every
 * customer's orders, moving one along its lifecycle, its shipments and packing slips, and returns.
 * A cancel goes through payments (`app.payments`), which owns the card refund it may need.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminOrderListQuerySchema, adminOrderSchema, orderStatusInputSchema, shipmentResultSchema } from "../../contract/admin-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { LIMITS } from "../../contract/constants";
import { NOT_ASKED_FOR } from "../../contract/order-lifecycle";
import { adminReturnListQuerySchema, adminReturnSchema, returnMoveSchema } from "../../contract/refund-schemas";
import { shipmentInputSchema, shipmentMoveSchema } from "../../contract/shipment-schemas";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { SHIPMENT_TEXT } from "../../contract/texts/shipments";
import { actorOf, recordAudit } from "../audit";
import type { Tx } from "../db/client";
import { conflict, notFound } from "../http/errors";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { getAdminOrder, listAdminOrders } from "./admin-view";
import { renderPackingSlip } from "./packing-slip";
import { listAdminReturns, moveReturn } from "./returns";
import { moveOrderStatus, type MoveResult } from "./service";
import { createShipment, deliverEverything, moveShipment, shipEverythingLeft, shipmentOrderId } from "./shipments";

const tags = ["admin"];
/** A shipment's key is asked for (DESIGN) but an old client's shipment without one is still made, once per request. */
const shipmentHeaders = z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey).optional() });

export const orderAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  // ---------------------------------------------------------------- orders

  app.get(
    "/orders",
    {
      schema: {
        tags,
        summary: "Every customer's orders, newest first, by status and customer; the total is in X-Total-Count",
        querystring: adminOrderListQuerySchema,
        response: { 200: z.array(adminOrderSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listAdminOrders(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );

  app.get(
    "/orders/:id",
    {
      schema: { tags, summary: "One order with its lines, delivery details and history", params: idParamsSchema, response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => getAdminOrder(db, request.params.id),
  );

  app.post(
    "/orders/:id/status",
    {
      schema: {
        tags,
        summary: "Move an order along its lifecycle (409 for a move it forbids); a cancel returns the stock once",
        params: idParamsSchema,
        body: orderStatusInputSchema,
        response: { 200: adminOrderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const audit = async (tx: Tx, moved: MoveResult) => {
        await recordAudit(tx, actor, {
          action: "order.status",
          entity: "order",
          entityId: request.params.id,
          before: { status: moved.before.status },
          after: { status: moved.after.status },
        });
      };
      // `refunding` is reached by a cancel only (with its refund queued), never asked for.
      if (NOT_ASKED_FOR.includes(request.body.status)) throw conflict("ORDER_MOVE_FORBIDDEN", ADMIN_API_TEXT.orderMoveForbidden("paid", request.body.status));
      // A cancel goes through payments: a paid card order waits `refunding` for its refund.
      if (request.body.status === "cancelled") await app.payments.cancelByAdmin(request.params.id, actor.id, audit);
      // Old clients' whole-order ship (issue 52): everything left goes as one parcel; nothing left → 409 NOTHING_TO_SHIP.
      else if (request.body.status === "shipped") await shipEverythingLeft(db, app.mail.orders, request.params.id, actor);
      // Delivered as a whole: its parcels on their way are delivered with it.
      else if (request.body.status === "delivered")
        await moveOrderStatus(db, request.params.id, "delivered", { id: actor.id, role: "admin" }, async (tx, moved) => {
          await deliverEverything(tx, request.params.id);
          await audit(tx, moved);
        }, app.mail.orders);
      else await moveOrderStatus(db, request.params.id, request.body.status, { id: actor.id, role: "admin" }, audit, app.mail.orders);
      return getAdminOrder(db, request.params.id);
    },
  );

  // ---------------------------------------------------------------- shipments (issue 52)

  app.post(
    "/orders/:id/shipments",
    {
      schema: {
        tags,
        summary:
          "Ship lines and quantities of an order with a carrier and tracking number, with an Idempotency-Key: 201 {shipment, order}; more than is left to ship → 409 SHIPMENT_EXCEEDS, nothing done; a repeated key gives the first answer",
        params: idParamsSchema,
        headers: shipmentHeaders,
        body: shipmentInputSchema,
        response: { 201: shipmentResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const outcome = await createShipment(db, app.mail.orders, request.params.id, request.body, request.headers["idempotency-key"] ?? null, actorOf(request));
      const order = await getAdminOrder(db, request.params.id);
      const shipment = order.shipments?.find((s) => s._id === outcome.shipmentId);
      if (!shipment) throw new Error(`shipment ${outcome.shipmentId} is not on its order`);
      return reply.status(201).send({ shipment, order });
    },
  );

  app.post(
    "/shipments/:id/status",
    {
      schema: {
        tags,
        summary: "Move a shipment on: shipped → delivered | cancelled (a cancelled one's units are to ship again); the order follows",
        params: idParamsSchema,
        body: shipmentMoveSchema,
        response: { 200: shipmentResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { orderId } = await moveShipment(db, request.params.id, request.body, actorOf(request));
      const order = await getAdminOrder(db, orderId);
      const shipment = order.shipments?.find((s) => s._id === request.params.id);
      if (!shipment) throw new Error(`shipment ${request.params.id} is not on its order`);
      return { shipment, order };
    },
  );

  app.get(
    "/shipments/:id/packing-slip",
    {
      schema: {
        tags,
        summary: "A shipment's packing slip (PDF): its units and what is still to come",
        params: idParamsSchema,
        response: { 200: z.unknown().describe("The PDF (application/pdf), named after the shipment's number"), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const orderId = await shipmentOrderId(db, request.params.id);
      if (!orderId) throw notFound(SHIPMENT_TEXT.notFound);
      const order = await getAdminOrder(db, orderId);
      const shipment = order.shipments?.find((s) => s._id === request.params.id);
      if (!shipment) throw notFound(SHIPMENT_TEXT.notFound);
      const pdf = await renderPackingSlip(db, order, shipment);
      return reply.type("application/pdf").header("content-disposition", `inline; filename="${shipment.number}.pdf"`).send(pdf);
    },
  );

  // ---------------------------------------------------------------- returns (issue 40)

  app.get(
    "/returns",
    {
      schema: {
        tags,
        summary: "Customers' returns, newest first (`status`); the total is in X-Total-Count",
        querystring: adminReturnListQuerySchema,
        response: { 200: z.array(adminReturnSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listAdminReturns(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );

  app.post(
    "/returns/:id/status",
    {
      schema: {
        tags,
        summary: "Move a return on: requested → approved | refused, approved → received (the refund that names it makes it refunded); the customer is mailed each move",
        params: idParamsSchema,
        body: returnMoveSchema,
        response: { 200: adminReturnSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => moveReturn(db, app.mail.orders, request.params.id, request.body, actorOf(request)),
  );
};
