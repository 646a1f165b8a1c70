/**
 * The console's trade accounts, /api/admin/accounts (DESIGN "Trade accounts"): the list, create,
 * read and edit (name, tax id, terms, credit limit ≥ 0, discount, PO required), members (a customer
 * by e-mail with a role and optional limits; one account per customer: 409 ALREADY_A_MEMBER), and
 * the customers' applications. A child of the admin routes, so their guard covers every route
 * here (and the endpoint × role test finds them); every change is in the audit trail.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, pageQuery } from "../../contract/schemas";
import {
  accountInputSchema,
  accountListQuerySchema,
  accountPatchSchema,
  accountPaymentInputSchema,
  accountPaymentSchema,
  applicationSchema,
  exemptionInputSchema,
  exemptionParamsSchema,
  exemptionSchema,
  expiringExemptionSchema,
  memberInputSchema,
  memberParamsSchema,
  statementSchema,
  tradeAccountSchema,
} from "../../contract/trade";
import { actorOf, recordAudit } from "../audit";
import { errorResponses } from "../http/schemas";
import { addMember, createAccount, getAccount, listAccounts, listApplications, patchAccount, removeMember } from "./service";
import { addExemption, expiringExemptions, listExemptions, recordPayment, removeExemption, statementOf } from "./ledger";
import { renderStatementPdf } from "./statement-pdf";
import { storeDate } from "../../contract/store-calendar";

const tags = ["admin"];

export const accountAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  app.get(
    "/accounts",
    {
      schema: { tags, summary: "Trade accounts by name (`q`, paging); the total is in X-Total-Count", querystring: accountListQuerySchema, response: { 200: z.array(tradeAccountSchema), ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const { items, total } = await listAccounts(db, request.query, app.clock());
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.get(
    "/accounts/applications",
    {
      schema: { tags, summary: "Customers' applications for a trade account, newest first", querystring: z.object(pageQuery), response: { 200: z.array(applicationSchema), ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => {
      const { items, total } = await listApplications(db, request.query);
      reply.header("x-total-count", String(total));
      return items;
    },
  );

  app.post(
    "/accounts",
    {
      schema: {
        tags,
        summary: "Create a trade account: name, tax id, terms (none, net15, net30, net60), credit limit (≥ 0), discount percent, PO required",
        body: accountInputSchema,
        response: { 201: tradeAccountSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const account = await createAccount(db, request.body, app.clock());
      await recordAudit(db, actorOf(request), { action: "account.create", entity: "account", entityId: account._id, after: account });
      return reply.status(201).send(account);
    },
  );

  app.get(
    "/accounts/:id",
    { schema: { tags, summary: "One trade account with its members, credit and hold", params: idParamsSchema, response: { 200: tradeAccountSchema, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => getAccount(db, request.params.id, app.clock()),
  );

  app.patch(
    "/accounts/:id",
    {
      schema: { tags, summary: "Edit a trade account (any of its fields)", params: idParamsSchema, body: accountPatchSchema, response: { 200: tradeAccountSchema, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      const { before, after } = await patchAccount(db, request.params.id, request.body, app.clock());
      await recordAudit(db, actorOf(request), { action: "account.update", entity: "account", entityId: after._id, before, after });
      return after;
    },
  );

  app.post(
    "/accounts/:id/members",
    {
      schema: {
        tags,
        summary: "Add a customer (by e-mail) as a member: role buyer, approver or admin, optional per-order and monthly limits",
        description: "404 for an e-mail no customer has; 409 ALREADY_A_MEMBER for a customer who belongs to an account.",
        params: idParamsSchema,
        body: memberInputSchema,
        response: { 201: tradeAccountSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const account = await addMember(db, request.params.id, request.body, app.clock());
      await recordAudit(db, actorOf(request), { action: "account.member-add", entity: "account", entityId: account._id, after: request.body });
      return reply.status(201).send(account);
    },
  );

  app.delete(
    "/accounts/:id/members/:userId",
    { schema: { tags, summary: "Remove a member from the account", params: memberParamsSchema, response: { 200: tradeAccountSchema, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      const account = await removeMember(db, request.params.id, request.params.userId, app.clock(), false);
      await recordAudit(db, actorOf(request), { action: "account.member-remove", entity: "account", entityId: account._id, before: { userId: request.params.userId } });
      return account;
    },
  );

  app.post(
    "/accounts/:id/payments",
    {
      schema: {
        tags,
        summary: "Record a payment against the account's invoices: the named ones, else the oldest first; what is left stays on the account",
        description: "An overdue invoice paid in full releases the account's hold. 400 for an invoice named that is not open on this account.",
        params: idParamsSchema,
        body: accountPaymentInputSchema,
        response: { 201: accountPaymentSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const payment = await recordPayment(db, request.params.id, request.body, request.viewer.id);
      await recordAudit(db, actorOf(request), { action: "account.payment", entity: "account", entityId: request.params.id, after: payment });
      return reply.status(201).send(payment);
    },
  );

  app.get(
    "/accounts/:id/statement",
    {
      schema: {
        tags,
        summary: "The account's statement: invoices, payments and credit notes with a running balance, and the ageing of open invoices",
        params: idParamsSchema,
        response: { 200: statementSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      // The account's name and tax id are the PDF's heading; the response schema answers DESIGN's shape.
      return statementOf(db, request.params.id, app.clock());
    },
  );

  app.get(
    "/accounts/:id/statement.pdf",
    { schema: { tags, summary: "The account's statement as a PDF", params: idParamsSchema, response: { 200: z.unknown().describe("The PDF (application/pdf)"), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const now = app.clock();
      const pdf = await renderStatementPdf(db, await statementOf(db, request.params.id, now), storeDate(now));
      return reply.type("application/pdf").header("content-disposition", `inline; filename="statement.pdf"`).send(pdf);
    },
  );

  app.get(
    "/accounts/:id/exemptions",
    { schema: { tags, summary: "The account's tax exemption certificates, by expiry", params: idParamsSchema, response: { 200: z.array(exemptionSchema), ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      await getAccount(db, request.params.id, app.clock());
      return listExemptions(db, request.params.id);
    },
  );

  app.post(
    "/accounts/:id/exemptions",
    {
      schema: {
        tags,
        summary: "Add a tax exemption certificate for a region, until its expiry date: the account's orders to that region are exempt through that day",
        params: idParamsSchema,
        body: exemptionInputSchema,
        response: { 201: exemptionSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const exemption = await addExemption(db, request.params.id, request.body);
      await recordAudit(db, actorOf(request), { action: "account.exemption-add", entity: "account", entityId: request.params.id, after: exemption });
      return reply.status(201).send(exemption);
    },
  );

  app.delete(
    "/accounts/:id/exemptions/:exemptionId",
    { schema: { tags, summary: "Remove a tax exemption certificate", params: exemptionParamsSchema, response: { 204: z.null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await removeExemption(db, request.params.id, request.params.exemptionId);
      await recordAudit(db, actorOf(request), { action: "account.exemption-remove", entity: "account", entityId: request.params.id, before: { exemptionId: request.params.exemptionId } });
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/accounts/exemptions/expiring",
    {
      schema: {
        tags,
        summary: "Every account's certificates expiring within `days` days (default 30), or expired within them: the ones to renew",
        querystring: z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }),
        response: { 200: z.array(expiringExemptionSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => expiringExemptions(db, app.clock(), request.query.days),
  );
};
