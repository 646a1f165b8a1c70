/**
 * The console's quotes, /api/admin/quotes (DESIGN "Quotes"): the list (by status), one quote,
 * a new revision (the previous sent one superseded), a withdrawal, and a revision's PDF. A child of
 * the admin routes, so their guard covers every route here (and the endpoint × role test finds them).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminQuoteListQuerySchema, adminQuoteSchema, quotePdfQuerySchema, quoteRevisionInputSchema, quoteRevisionSchema } from "../../contract/quote-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { QUOTE_API_TEXT } from "../../contract/texts/quotes";
import { actorOf, recordAudit } from "../audit";
import { notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { quoteMail } from "./mail";
import { quoteFile } from "./pdf";
import { getAdminQuote, listAdminQuotes, sendRevision, withdrawQuote } from "./service";

const tags = ["admin"];

export const quoteAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const mail = quoteMail(app.config.publicUrl, app.config.adminEmails);

  app.get(
    "/quotes",
    {
      schema: { tags, summary: "Quotes, newest first (`status`); the total is in X-Total-Count", querystring: adminQuoteListQuerySchema, response: { 200: z.array(adminQuoteSchema), ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const { items, total } = await listAdminQuotes(db, request.query, app.clock());
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/quotes/:id",
    { schema: { tags, summary: "One quote with its customer and revisions", params: idParamsSchema, response: { 200: adminQuoteSchema, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => getAdminQuote(db, request.params.id, app.clock()),
  );

  app.post(
    "/quotes/:id/revisions",
    {
      schema: {
        tags,
        summary: "Send a revision: per-line unit prices, shipping, a validity in the future, a message, optionally holding the units; the previous sent revision is superseded",
        description: "Tax is the Money rules' for the quote's address (or the store's, for collection). 409 QUOTE_TOOL_UNAVAILABLE for a tool no longer sold, NOT_ENOUGH_STOCK when `holdStock` cannot hold every line; 400 BELOW_MINIMUM.",
        params: idParamsSchema,
        body: quoteRevisionInputSchema,
        response: { 201: quoteRevisionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const revision = await sendRevision(db, request.viewer.id, request.params.id, request.body, mail, app.clock());
      await recordAudit(db, actorOf(request), { action: "quote.revision", entity: "quote", entityId: request.params.id, after: revision });
      return reply.status(201).send(revision);
    },
  );

  app.post(
    "/quotes/:id/withdraw",
    { schema: { tags, summary: "Withdraw the quote (its held stock goes back); repeating it changes nothing", params: idParamsSchema, response: { 200: adminQuoteSchema, ...errorResponses(400, 401, 403, 404, 409) } } },
    async (request) => {
      const quote = await withdrawQuote(db, request.viewer.id, request.params.id, mail, app.clock());
      await recordAudit(db, actorOf(request), { action: "quote.withdraw", entity: "quote", entityId: request.params.id, after: { status: quote.status } });
      return quote;
    },
  );

  app.get(
    "/quotes/:id/pdf",
    {
      schema: {
        tags,
        summary: "A revision (`revision`, else the current one) as application/pdf",
        params: idParamsSchema,
        querystring: quotePdfQuerySchema,
        response: { 200: z.unknown().describe("The PDF (application/pdf)"), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await quoteFile(db, request.params.id, request.query.revision);
      if (!file) throw notFound(QUOTE_API_TEXT.revisionUnknown);
      return reply.type("application/pdf").header("content-disposition", `attachment; filename="${file.filename}"`).send(file.content);
    },
  );
};
