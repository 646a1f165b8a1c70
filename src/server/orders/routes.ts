import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, orderInputSchema, orderListQuerySchema, orderReturnSchema, orderSchema } from "../../contract/schemas";
import { returnInputSchema } from "../../contract/refund-schemas";
import { requestReturn } from "./returns";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { OrderDesk } from "./desk";
import { cancelOrder, getOrder, listOrders } from "./service";

export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const desk = new OrderDesk(db, app.mail.orders, app.config.paymentHoldMs, app.clock);

  app.post(
    "/order",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary: "Place an order; the quantity must be within the tool's minimum and its stock",
        body: orderInputSchema,
        response: { 201: orderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const order = await desk.place(request.viewer.id, request.body);
      return reply.status(201).send(order);
    },
  );

  app.get(
    "/order",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary: "The caller's orders, newest first; the total is in X-Total-Count (exact up to 1,000); past page 400 follow the Link rel=next (cursor)",
        querystring: orderListQuerySchema,
        response: { 200: z.array(orderSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const page = await listOrders(db, request.viewer.id, request.query);
      pageHeaders(request, reply, page);
      return page.items;
    },
  );

  app.get(
    "/order/:id",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary: "One of the caller's orders, with its lines and history",
        params: idParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => getOrder(db, request.viewer.id, request.params.id),
  );

  app.post(
    "/order/:id/returns",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary:
          "Ask to return units of the caller's delivered order, within RETURN_DAYS of its delivery: 201 the return (requested); never more than was bought less what is returned or refunded, else 409 RETURN_NOT_ALLOWED",
        params: idParamsSchema,
        body: returnInputSchema,
        response: { 201: orderReturnSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const made = await requestReturn(db, app.mail.orders, request.viewer.id, request.params.id, request.body, app.config.returnDays, app.clock());
      return reply.status(201).send(made);
    },
  );

  app.delete(
    "/order/:id",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary: "Cancel the caller's own pending order; its stock returns exactly once",
        params: idParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const order = await cancelOrder(db, request.viewer.id, request.params.id, app.mail.orders);
      return order;
    },
  );
};
