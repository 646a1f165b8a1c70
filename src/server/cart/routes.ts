import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIMITS } from "../../contract/constants";
import { cartLineInputSchema, cartMergeInputSchema, cartSchema, checkoutInputSchema, checkoutResultSchema, toolIdParamsSchema } from "../../contract/schemas";
import { errorResponses } from "../http/schemas";
import { CheckoutDesk } from "./checkout";
import { CartMerges, clearCart, getCart, removeCartLine, setCartLine } from "./service";

const idempotencyHeaders = z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey) });

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const desk = new CheckoutDesk(db, app.mail.orders);
  const merges = new CartMerges(db);
  const tags = ["cart"];

  app.get(
    "/cart",
    { onRequest: app.requireUser, schema: { tags, summary: "The caller's cart, each line with what (if anything) is wrong with it", response: { 200: cartSchema, ...errorResponses(401) } } },
    async (request) => getCart(db, request.viewer.id),
  );

  app.put(
    "/cart/lines/:toolId",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Set a line's quantity (0 removes it); it must be within the tool's minimum and stock",
        params: toolIdParamsSchema,
        body: cartLineInputSchema,
        response: { 200: cartSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => setCartLine(db, request.viewer.id, request.params.toolId, request.body.quantity),
  );

  app.delete(
    "/cart/lines/:toolId",
    { onRequest: app.requireUser, schema: { tags, summary: "Remove a line", params: toolIdParamsSchema, response: { 200: cartSchema, ...errorResponses(400, 401) } } },
    async (request) => removeCartLine(db, request.viewer.id, request.params.toolId),
  );

  app.delete(
    "/cart",
    { onRequest: app.requireUser, schema: { tags, summary: "Empty the cart", response: { 200: cartSchema, ...errorResponses(401) } } },
    async (request) => {
      await clearCart(db, request.viewer.id);
      return getCart(db, request.viewer.id);
    },
  );

  app.post(
    "/cart/merge",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Join a signed-out visitor's cart to the account's: quantities add up, capped at the stock",
        body: cartMergeInputSchema,
        response: { 200: cartSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => merges.merge(request.viewer.id, request.body),
  );

  app.post(
    "/checkout",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Order every line of the cart in one transaction, or nothing (409 with each line's problem)",
        description:
          "Send an `Idempotency-Key` header: a retry with the same key returns the first order; the same key with another body is 409. " +
          "`cartVersion` (optional) is the cart's `version` the customer confirmed: when it is sent and the cart has changed since, 409 CART_CHANGED; " +
          "when it is left out (an API client that has just filled the cart), the cart as it is now is ordered. " +
          "The answer is 201 `{order, priceChanged}`.",
        headers: idempotencyHeaders,
        body: checkoutInputSchema,
        response: { 201: checkoutResultSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const { replayed, ...result } = await desk.checkout(request.viewer.id, request.body, request.headers["idempotency-key"]);
      if (replayed) reply.header("idempotent-replayed", "true");
      return reply.status(201).send(result);
    },
  );
};
