/**
 * /api/account (DESIGN "Trade accounts"): a member's own account (404 for a customer in none), an
 * application for one (anyone signed in), the account's admin managing members, and the
 * approvals: the account's orders (every member's for approvers and admins, their own for a
 * buyer), approve and reject (never one's own: 403 OWN_ORDER; another account's: 404).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, orderSchema, orderStatusSchema } from "../../contract/schemas";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { sql } from "drizzle-orm";
import { LIMITS } from "../../contract/constants";
import { centsToDollars } from "../../contract/money";
import {
  accountOrderSchema,
  applicationInputSchema,
  applicationSchema,
  invoicePaymentInputSchema,
  invoicePaymentSchema,
  memberInputSchema,
  memberUserParamsSchema,
  myAccountSchema,
  openInvoiceSchema,
  rejectInputSchema,
  statementSchema,
} from "../../contract/trade";
import { mailOutbox } from "../db/schema";
import { errorResponses } from "../http/schemas";
import { render, storeLink } from "../mail/templates";
import { getOrder, startPayment } from "../orders";
import { approveOrder, listAccountOrders, rejectOrder } from "./approvals";
import { applyInvoicePaymentEvent, invoicePaymentView, openInvoicePayment, startInvoicePaymentPage } from "./card-payments";
import { memberAddedMail } from "./mail";
import { addMember, applyForAccount, leaveAccount, membershipOf, myAccount, removeMember, requireAccountAdmin } from "./service";
import { openInvoices, statementOf } from "./ledger";
import { sendDueReminders } from "./reminders";
import { renderStatementPdf } from "./statement-pdf";
import { storeDate } from "../../contract/store-calendar";

const tags = ["account"];
/** How often invoice reminders due are looked for (each is sent once: reminders.ts). */
const REMINDER_SWEEP_MS = 60_000;
export const REMINDER_SWEEP = "invoice-reminder-sweep";

export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const admins = sql`(select lower(email) as email from "user" where role = 'admin'
                      union select unnest(${`{${app.config.adminEmails.map((e) => `"${e.replace(/["\\]/g, "")}"`).join(",")}}`}::text[]))`;

  const tellAdded = memberAddedMail(app.config.publicUrl);

  // The provider's events about members' invoice payments are applied here (payments/ knows no trade account).
  app.payments.handleInvoicePayments(applyInvoicePaymentEvent);

  // The reminders' sweep is a job (decision 0021): one instance a period runs it.
  const log = app.log.child({ module: "accounts" });
  app.jobs.define(REMINDER_SWEEP, {
    handle: async () => {
      const n = await sendDueReminders(db, app.clock(), app.config.publicUrl);
      if (n > 0) log.info({ reminded: n }, "invoice reminders sent");
    },
  });
  app.jobs.every(REMINDER_SWEEP, REMINDER_SWEEP_MS);

  app.get(
    "/account",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "The caller's trade account with their role in it (404 when they belong to none)", response: { 200: myAccountSchema, ...errorResponses(401, 404) } },
    },
    async (request) => myAccount(db, request.viewer.id, app.clock()),
  );

  app.post(
    "/account/apply",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "Apply for a trade account: the owner sees the application in the console", body: applicationInputSchema, response: { 201: applicationSchema, ...errorResponses(400, 401) } },
    },
    async (request, reply) => {
      const application = await applyForAccount(db, request.viewer, request.body, async (tx, a) => {
        const m = render("account-application", TRADE_TEXT.applicationSubject(a.name), [
          { p: TRADE_TEXT.applicationText(a.name, a.email, a.message) },
          { link: storeLink(app.config.publicUrl, "/admin/accounts"), label: TRADE_TEXT.applicationsLink },
        ]);
        await tx.execute(sql`insert into ${mailOutbox} ("to", subject, text, html, kind) select a.email, ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from ${admins} a`);
      });
      return reply.status(201).send(application);
    },
  );

  app.post(
    "/account/members",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The account's admin adds a customer (by e-mail) with a role and optional limits; the customer is mailed and may leave (POST /api/account/leave)",
        description: "404 for an e-mail no customer has; 409 ALREADY_A_MEMBER for a customer in an account; 403 for a member who is not the account's admin.",
        body: memberInputSchema,
        response: { 201: myAccountSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const accountId = await requireAccountAdmin(db, request.viewer.id);
      await addMember(db, accountId, request.body, app.clock(), tellAdded);
      return reply.status(201).send(await myAccount(db, request.viewer.id, app.clock()));
    },
  );

  app.delete(
    "/account/members/:userId",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "The account's admin removes a member (the account keeps an admin: 409 LAST_ADMIN)", params: memberUserParamsSchema, response: { 200: myAccountSchema, ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (request) => {
      const accountId = await requireAccountAdmin(db, request.viewer.id);
      const account = await removeMember(db, accountId, request.params.userId, app.clock(), true);
      const role = account.members.find((m) => m.userId === request.viewer.id)?.role;
      // An admin who removed themselves is no longer in it: they get the account as it is now, as its last word.
      return { ...account, role: role ?? "buyer" };
    },
  );

  app.post(
    "/account/leave",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Leave one's trade account: one's next orders are one's own again (no account prices, limits, approvals or terms)",
        description: "404 for a customer in no account; 409 LAST_ADMIN for the account's last admin (another admin must be added first). Orders placed before stay the account's.",
        response: { 204: z.null().describe("Left the account"), ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await leaveAccount(db, request.viewer.id, app.clock());
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/account/orders",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The account's orders, newest first: every member's for approvers and the admin, the caller's own for a buyer (`status`, e.g. awaiting_approval)",
        querystring: z.object({ status: orderStatusSchema.optional() }),
        response: { 200: z.array(accountOrderSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => listAccountOrders(db, request.viewer.id, request.query),
  );

  app.post(
    "/account/orders/:id/approve",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Approve a member's order waiting for approval: it becomes pending (a card order awaits its payment) and is invoiced",
        description: "403 OWN_ORDER for one's own order, 403 for a buyer; 404 for another account's order; 409 ORDER_NOT_AWAITING_APPROVAL once decided.",
        params: idParamsSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const row = await approveOrder(db, request.viewer.id, request.params.id, { now: app.clock(), holdMs: app.config.paymentHoldMs, mail: app.mail.orders });
      const order = await getOrder(db, row.userId ?? "", row.id).catch(() => null);
      if (!order) throw new Error("an approved order vanished");
      // A card order's payment page opens now, after the commit; its buyer pays from the order's page.
      return (await startPayment(app.payments, order, row.userId ?? "")).order;
    },
  );

  app.post(
    "/account/orders/:id/reject",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "Reject a member's order waiting for approval, saying why: it is cancelled and its stock returned",
        description: "403 OWN_ORDER for one's own order, 403 for a buyer; 404 for another account's order; 409 ORDER_NOT_AWAITING_APPROVAL once decided.",
        params: idParamsSchema,
        body: rejectInputSchema,
        response: { 200: orderSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const row = await rejectOrder(db, request.viewer.id, request.params.id, request.body.reason, app.mail.orders);
      return getOrder(db, row.userId ?? "", row.id);
    },
  );

  app.get(
    "/account/invoices",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "The account's open invoices, oldest first: what a member may pay by card (any member; 404 for a customer in no account)",
        response: { 200: z.array(openInvoiceSchema), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { accountId } = await membershipOf(db, request.viewer.id);
      return (await openInvoices(db, accountId)).map((o) => ({
        invoiceNumber: o.invoiceNumber ?? "",
        orderId: o.id,
        number: o.number,
        invoiceDate: o.invoiceDate,
        dueDate: o.dueDate,
        total: centsToDollars(o.totalCents),
        open: centsToDollars(o.openCents),
      }));
    },
  );

  app.post(
    "/account/invoices/pay",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "A member pays open invoices of the account by card, several at once: the provider's page to pay their open balance on",
        description:
          "Send an `Idempotency-Key` header: a retry with the same key by the same member (and the same invoices) returns the same payment and page (a key is its member's: another member with the same key gets their own payment); the key with other invoices is 409 IDEMPOTENCY_KEY_REUSED. The webhook applies the payment to the invoices (what one of them no longer owes stays on the account). " +
          "400 on body.invoiceNumbers.N for an invoice not open on the account, or where card payments are not set up; 404 for a customer in no account; 503 PAYMENT_UNAVAILABLE when the provider does not answer (retry with the same key).",
        headers: z.object({ "idempotency-key": z.string().trim().min(1).max(LIMITS.idempotencyKey) }),
        body: invoicePaymentInputSchema,
        response: { 201: invoicePaymentSchema, ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const row = await openInvoicePayment(db, request.viewer.id, request.body.invoiceNumbers, request.headers["idempotency-key"], app.clock());
      return reply.status(201).send(invoicePaymentView(await startInvoicePaymentPage(db, app.payments, row)));
    },
  );

  app.get(
    "/account/statement",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "The account's statement (the account's admin): invoices, payments and credit notes with a running balance, and the ageing", response: { 200: statementSchema, ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const accountId = await requireAccountAdmin(db, request.viewer.id);
      // The account's name and tax id are the PDF's heading; the response schema answers DESIGN's shape.
      return statementOf(db, accountId, app.clock());
    },
  );

  app.get(
    "/account/statement.pdf",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "The account's statement as a PDF (the account's admin)", response: { 200: z.unknown().describe("The PDF (application/pdf)"), ...errorResponses(401, 403, 404) } },
    },
    async (request, reply) => {
      const accountId = await requireAccountAdmin(db, request.viewer.id);
      const now = app.clock();
      const pdf = await renderStatementPdf(db, await statementOf(db, accountId, now), storeDate(now));
      return reply.type("application/pdf").header("content-disposition", `inline; filename="statement.pdf"`).send(pdf);
    },
  );
};
