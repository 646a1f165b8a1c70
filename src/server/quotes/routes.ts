/**
 * The customer's quotes, /api/quotes (DESIGN "Quotes"): ask for one, read them (someone else's
 * is not found), accept the current revision (with an `Idempotency-Key`: exactly one order),
 * decline it, and each revision's PDF. The console's side is admin-routes.ts. Revisions past their
 * validity are swept by a job on the app's runner (service.ts `expireDueQuotes`).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIMITS } from "../../contract/constants";
import { quoteAcceptInputSchema, quoteAcceptResultSchema, quoteListQuerySchema, quotePdfQuerySchema, quoteRequestInputSchema, quoteSchema } from "../../contract/quote-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { QUOTE_API_TEXT } from "../../contract/texts/quotes";
import { ADMIN_ROLE } from "../auth/roles";
import { ApiError, notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { startPayment } from "../orders";
import { QuoteAcceptance } from "./accept";
import { quoteMail } from "./mail";
import { quoteFile } from "./pdf";
import { declineQuote, expireDueQuotes, getQuote, listQuotes, requestQuote } from "./service";

const tags = ["quotes"];
const idempotencyHeaders = z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey) });
/** How often revisions past their validity are written down (and their held stock given back). */
const SWEEP_MS = 30_000;
export const QUOTE_EXPIRY_SWEEP = "quote-expiry-sweep";

export const quoteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const mail = quoteMail(app.config.publicUrl, app.config.adminEmails);
  // A quote's mail attaches its revision's PDF, rendered when the message is sent.
  app.mail.worker.renderAttachments("quote", (a) => quoteFile(db, a.quoteId, a.revision));
  const acceptance = new QuoteAcceptance(db, { holdMs: app.config.paymentHoldMs, mail: app.mail.orders, clock: app.clock });

  // The expiry sweep is a job (decision 0021): one instance a period runs it.
  const log = app.log.child({ module: "quotes" });
  app.jobs.define(QUOTE_EXPIRY_SWEEP, {
    handle: async () => {
      const n = await expireDueQuotes(db, app.clock());
      if (n > 0) log.info({ expired: n }, "quote revisions past their validity expired");
    },
  });
  app.jobs.every(QUOTE_EXPIRY_SWEEP, SWEEP_MS);

  app.post(
    "/quotes",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Ask for a quote: tools and quantities (each at least its minimum), a needed-by date, a delivery address and a message; it cannot be changed once sent",
        body: quoteRequestInputSchema,
        response: { 201: quoteSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.status(201).send(await requestQuote(db, request.viewer.id, request.body, mail)),
  );

  app.get(
    "/quotes",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "The caller's quotes, newest first; the total is in X-Total-Count", querystring: quoteListQuerySchema, response: { 200: z.array(quoteSchema), ...errorResponses(400, 401) } },
    },
    async (request, reply) => {
      const { items, total } = await listQuotes(db, request.viewer.id, request.query, app.clock());
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/quotes/:id",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "One of the caller's quotes with its revisions (anyone else's is not found)", params: idParamsSchema, response: { 200: quoteSchema, ...errorResponses(400, 401, 404) } },
    },
    async (request) => getQuote(db, request.viewer.id, request.params.id, app.clock()),
  );

  app.post(
    "/quotes/:id/accept",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Accept the current revision: exactly one order at the quoted prices (never re-priced), stock all or none",
        description:
          "Send an `Idempotency-Key` header: a retry with the same key returns the same order; another accept is 409 QUOTE_ALREADY_ACCEPTED, QUOTE_EXPIRED or QUOTE_SUPERSEDED " +
          "(QUOTE_CLOSED for a declined or withdrawn quote, QUOTE_NOT_SENT before the first revision). With `paymentMethod: \"card\"` the order awaits its payment and the answer adds `payment: {url}`; " +
          "if it is never paid, the quote's revision opens again until its own validity ends.",
        params: idParamsSchema,
        headers: idempotencyHeaders,
        body: quoteAcceptInputSchema,
        response: { 201: quoteAcceptResultSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      if (!app.payments.accepts(request.body.paymentMethod)) {
        throw new ApiError(400, "VALIDATION", PAYMENT_TEXT.cardUnavailable, { details: [{ path: "body.paymentMethod", message: PAYMENT_TEXT.cardUnavailable }] });
      }
      const { order, replayed } = await acceptance.accept(request.viewer.id, request.params.id, request.body, request.headers["idempotency-key"]);
      if (replayed) reply.header("idempotent-replayed", "true");
      return reply.status(201).send({ priceChanged: false as const, ...(await startPayment(app.payments, order, request.viewer.id)) });
    },
  );

  app.post(
    "/quotes/:id/decline",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "Decline the current revision (its held stock goes back); repeating it changes nothing", params: idParamsSchema, response: { 200: quoteSchema, ...errorResponses(400, 401, 404, 409) } },
    },
    async (request) => declineQuote(db, request.viewer.id, request.params.id, mail, app.clock()),
  );

  app.get(
    "/quotes/:id/pdf",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "A revision (`revision`, else the current one) as application/pdf: the quote's customer, and the owner",
        params: idParamsSchema,
        querystring: quotePdfQuerySchema,
        response: { 200: z.unknown().describe("The PDF (application/pdf), as an attachment named after the quote and revision"), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      // Someone else's quote is not found, as GET /api/quotes/:id answers (no oracle).
      if (request.viewer.role !== ADMIN_ROLE) await getQuote(db, request.viewer.id, request.params.id);
      const file = await quoteFile(db, request.params.id, request.query.revision);
      if (!file) throw notFound(QUOTE_API_TEXT.revisionUnknown);
      return reply.type("application/pdf").header("content-disposition", `attachment; filename="${file.filename}"`).send(file.content);
    },
  );
};
