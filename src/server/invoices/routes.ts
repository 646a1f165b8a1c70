/** GET /api/order/:id/invoice: an order's invoice (or credit note) as a PDF, for its customer and the owner. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { LIMITS } from "../../contract/constants";
import { idParamsSchema } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { INVOICE_TEXT } from "../../contract/texts/money";
import { ADMIN_ROLE } from "../auth/roles";
import { notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { creditNoteFile, documentFilename, loadInvoiceData, renderInvoicePdf } from "./pdf";

export const invoiceQuerySchema = z.object({
  /** `credit-note`: the cancelled order's credit note instead of its invoice. */
  document: z.enum(["invoice", "credit-note"]).default("invoice"),
  /** With `document=credit-note`: the credit note of this refund of the order (an owner's refund of lines). */
  refund: z.string().min(1).max(LIMITS.id).optional(),
});

export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  app.get(
    "/order/:id/invoice",
    {
      onRequest: app.requireUser,
      schema: {
        tags: ["orders"],
        summary: "The order's invoice, or with ?document=credit-note its credit note (&refund=<id>: that refund's), as application/pdf (the customer's own orders; an admin's any)",
        params: idParamsSchema,
        querystring: invoiceQuerySchema,
        // The document's bytes: Fastify sends a Buffer as it is, past the JSON serializer.
        response: { 200: z.unknown().describe("The PDF (application/pdf), as an attachment named after its number"), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { document, refund } = request.query;
      const isAdmin = request.viewer.role === ADMIN_ROLE;
      if (document === "credit-note") {
        // A credit note (the refund's, else the order's cancel's): the order's customer's or an
        // admin's, else not found, exactly as GET /api/order/:id answers (no oracle).
        const file = await creditNoteFile(db, refund ? { refundId: refund } : { cancelOf: id });
        if (!file || file.orderId !== id || (file.orderUserId !== request.viewer.id && !isAdmin)) {
          if (refund) throw notFound(INVOICE_TEXT.noCreditNote);
          const data = await loadInvoiceData(db, id);
          if (!data || (data.order.userId !== request.viewer.id && !isAdmin)) throw notFound(API_TEXT.orderNotFound);
          throw notFound(INVOICE_TEXT.noCreditNote);
        }
        return reply.type("application/pdf").header("content-disposition", `attachment; filename="${file.filename}"`).send(file.content);
      }
      // Someone else's order is not found, exactly as GET /api/order/:id answers (no oracle).
      const data = await loadInvoiceData(db, id);
      if (!data || (data.order.userId !== request.viewer.id && !isAdmin)) throw notFound(API_TEXT.orderNotFound);
      const number = data.order.invoiceNumber;
      if (!number) throw notFound(INVOICE_TEXT.noInvoice);
      const pdf = await renderInvoicePdf(data);
      return reply
        .type("application/pdf")
        .header("content-disposition", `attachment; filename="${documentFilename(number)}"`)
        .send(pdf);
    },
  );
};
