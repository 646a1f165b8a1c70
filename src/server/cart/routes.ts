import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIMITS } from "../../contract/constants";
import { cartLineInputSchema, cartMergeInputSchema, cartSchema, checkoutInputSchema, checkoutResultSchema, toolIdParamsSchema } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { ApiError } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { cartEstimateInputSchema, cartEstimateSchema, promoCodeSchema, shippingMethodIdSchema } from "../../contract/money-schemas";
import { startPayment } from "../orders";
import { CheckoutDesk } from "./checkout";
import { estimateCart, withMoney } from "./estimate";
import { CartMerges, clearCart, getCart, removeCartLine, setCartLine } from "./service";

const cartQuerySchema = z.object({ shippingMethod: shippingMethodIdSchema.optional(), promoCode: promoCodeSchema.optional() });
const idempotencyHeaders = z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey) });

export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const desk = new CheckoutDesk(db, app.mail.orders, app.config.paymentHoldMs, app.clock);
  const merges = new CartMerges(db);
  const tags = ["cart"];

  app.get(
    "/cart",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The caller's cart, each line with what (if anything) is wrong with it, priced for the profile's address",
        description: "Subtotal, discount, shipping, tax and total (DESIGN \"Money\"): pickup at the store unless `shippingMethod` names a delivery method serving the profile's address; `promoCode` applies a code.",
        querystring: cartQuerySchema,
        response: { 200: cartSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => withMoney(db, request.viewer.id, await getCart(db, request.viewer.id), request.query),
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
    async (request) => withMoney(db, request.viewer.id, await setCartLine(db, request.viewer.id, request.params.toolId, request.body.quantity)),
  );

  app.delete(
    "/cart/lines/:toolId",
    { onRequest: app.requireUser, schema: { tags, summary: "Remove a line", params: toolIdParamsSchema, response: { 200: cartSchema, ...errorResponses(400, 401) } } },
    async (request) => withMoney(db, request.viewer.id, await removeCartLine(db, request.viewer.id, request.params.toolId)),
  );

  app.delete(
    "/cart",
    { onRequest: app.requireUser, schema: { tags, summary: "Empty the cart", response: { 200: cartSchema, ...errorResponses(401) } } },
    async (request) => {
      await clearCart(db, request.viewer.id);
      return withMoney(db, request.viewer.id, await getCart(db, request.viewer.id));
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
    "/cart/estimate",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The cart priced for an address: subtotal, discount, shipping, tax, total, the delivery methods serving it, and what could not be applied",
        body: cartEstimateInputSchema,
        response: { 200: cartEstimateSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { country, region, postalCode, shippingMethod, promoCode } = request.body;
      const destination = country === "" ? null : { country, region, postalCode };
      return estimateCart(db, request.viewer.id, await getCart(db, request.viewer.id), { destination, shippingMethod, promoCode });
    },
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
          "The answer is 201 `{order, priceChanged}`. With `paymentMethod: \"card\"` (only where card payments are set up) the order waits `awaiting_payment` " +
          "with its stock held, and the answer adds `payment: {url}`, the provider's page where the customer pays.",
        headers: idempotencyHeaders,
        body: checkoutInputSchema,
        response: { 201: checkoutResultSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      if (!app.payments.accepts(request.body.paymentMethod)) {
        throw new ApiError(400, "VALIDATION", PAYMENT_TEXT.cardUnavailable, { details: [{ path: "body.paymentMethod", message: PAYMENT_TEXT.cardUnavailable }] });
      }
      const { replayed, ...result } = await desk.checkout(request.viewer.id, request.body, request.headers["idempotency-key"]);
      if (replayed) reply.header("idempotent-replayed", "true");
      // The card's page is opened once the order is committed (a retry finds the one already opened).
      return reply.status(201).send({ ...result, ...(await startPayment(app.payments, result.order, request.viewer.id)) });
    },
  );
};
