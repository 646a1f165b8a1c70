/** The payment provider's webhook and the ways a customer may pay. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { PAYMENT_METHODS } from "../../contract/constants";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { ApiError, notFound } from "../http/errors";
import { isOutage } from "../http/outage";
import { errorResponses } from "../http/schemas";

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ["payments"];

  app.get(
    "/payments/methods",
    {
      schema: {
        tags,
        summary: "The ways a customer may pay in this store (card only where Stripe is set up), and how long a card order's stock is held",
        response: { 200: z.object({ methods: z.array(z.enum(PAYMENT_METHODS)), holdMinutes: z.number() }) },
      },
    },
    async () => ({ methods: app.payments.methods(), holdMinutes: app.config.paymentHoldMs / 60_000 }),
  );

  // The signature is over the exact bytes Stripe sent: this route (and only it) keeps the body raw.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_request, body, done) => done(null, body));
    raw.post(
      "/payments/stripe/webhook",
      {
        config: { rateLimit: false },
        schema: {
          tags,
          summary: "Stripe's signed events; each is applied once by its id (a duplicate or a replay changes nothing)",
          response: { 200: z.object({ received: z.literal(true), outcome: z.enum(["applied", "duplicate", "ignored"]) }), ...errorResponses(400, 404) },
        },
      },
      async (request) => {
        if (!app.payments.hasWebhook("card")) throw notFound();
        const signature = request.headers["stripe-signature"];
        if (typeof signature !== "string" || !Buffer.isBuffer(request.body)) throw new ApiError(400, "BAD_SIGNATURE", PAYMENT_TEXT.badSignature);
        let event;
        try {
          event = app.payments.readWebhook("card", request.body, signature);
        } catch {
          throw new ApiError(400, "BAD_SIGNATURE", PAYMENT_TEXT.badSignature);
        }
        if (!event) throw notFound();
        let outcome;
        try {
          outcome = await app.payments.applyEvent(event);
        } catch (error) {
          // An outage is a 503 the provider retries; anything else in a signed event is ours to look at, not the provider's to retry for days.
          if (isOutage(error)) throw error;
          request.log.error({ err: error, event: event.id, type: event.type }, "payment event could not be applied; answered 200 and left for the owner");
          return { received: true as const, outcome: "ignored" as const };
        }
        if (outcome === "ignored") request.log.info({ event: event.id, type: event.type, order: event.orderId }, "payment event ignored: nothing of the store's to apply it to");
        else request.log.info({ event: event.id, type: event.type, outcome }, "payment event");
        return { received: true as const, outcome };
      },
    );
  });
};
