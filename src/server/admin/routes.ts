/**
 * The console's own routes under /api/admin: tools, reviews, users, the summary, the audit log
 * and mail (orders, shipments and returns are the orders module's, refunds payments'). Mounted in the console's scope
 * (plugins/console.ts) with the other modules' console routes: its guard lets only the admin in,
 * so a route added later cannot forget it (and the endpoint × role test enumerates them all).
 */
import { waitingCounts } from "../stock-alerts/service";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { idParamsSchema, orderListQuerySchema } from "../../contract/schemas";
import { adminReviewListQuerySchema, adminReviewPatchSchema, adminReviewSchema, adminSummarySchema, adminToolInputSchema, adminToolListQuerySchema, adminToolPatchSchema, adminToolSchema, adminUserListQuerySchema, adminUserPatchSchema, adminUserSchema, auditEntrySchema, auditListQuerySchema, deleteToolResultSchema, stockLedgerSchema, stockMovementInputSchema } from "../../contract/admin-schemas";
import { mailEntrySchema, mailListQuerySchema } from "../../contract/admin-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { ADMIN_ROLE, CUSTOMER_ROLE } from "../auth/roles";
import { createAdminTool, deleteOrArchiveTool, getAdminTool, listAdminTools, moveStock, updateAdminTool } from "../catalog/service";
import { announceChange } from "../db/changes";
import { ApiError, notFound } from "../http/errors";
import { pageHeaders } from "../http/paging";
import { errorResponses } from "../http/schemas";
import { listMail } from "../mail/admin";
import { setReviewHidden, listAdminReviews } from "../reviews/service";
import { listMovements } from "../stock/ledger";
import { actorOf, listAudit, recordAudit } from "../audit";
import { BadPhotoError, removeFiles, sniffImageType, storePhoto } from "./photos";
import { listUsers, setUserRole, summary } from "./service";

const tags = ["admin"];

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  // Mounted in the console's scope (plugins/console.ts), behind its admin guard, which also takes the photo uploads.

  // ---------------------------------------------------------------- tools

  app.get(
    "/tools",
    {
      schema: {
        tags,
        summary: "Tools, archived too (status), newest first; the total is in X-Total-Count",
        querystring: adminToolListQuerySchema,
        response: { 200: z.array(adminToolSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listAdminTools(db, request.query);
      pageHeaders(request, reply, total);
      const waiting = await waitingCounts(db, items.map((tool) => tool._id));
      return items.map((tool) => ({ ...tool, alertsWaiting: waiting.get(tool._id) ?? 0 }));
    },
  );

  app.post(
    "/tools",
    {
      schema: { tags, summary: "Add a tool", body: adminToolInputSchema, response: { 201: adminToolSchema, ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => reply.status(201).send(await createAdminTool(db, request.body, actorOf(request))),
  );

  app.get(
    "/tools/:id",
    {
      schema: {
        tags,
        summary: "One tool (archived too) with its stock ledger, newest movement first",
        params: idParamsSchema,
        querystring: orderListQuerySchema,
        response: { 200: stockLedgerSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const tool = await getAdminTool(db, request.params.id);
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      const { items, total } = await listMovements(db, tool._id, request.query.page, request.query.limit);
      reply.header("x-total-count", String(total));
      const waiting = await waitingCounts(db, [tool._id]);
      return { tool: { ...tool, alertsWaiting: waiting.get(tool._id) ?? 0 }, movements: items };
    },
  );

  app.patch(
    "/tools/:id",
    {
      schema: {
        tags,
        summary: "Change a tool; `active` archives (false) or restores (true) it",
        params: idParamsSchema,
        body: adminToolPatchSchema,
        response: { 200: adminToolSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tool = await updateAdminTool(db, request.params.id, request.body, actorOf(request));
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      return tool;
    },
  );

  app.delete(
    "/tools/:id",
    {
      schema: {
        tags,
        summary: "Delete a tool never ordered; archive one with orders (they keep it)",
        params: idParamsSchema,
        response: { 200: deleteToolResultSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const outcome = await deleteOrArchiveTool(db, request.params.id, actorOf(request));
      if (!outcome) throw notFound(API_TEXT.toolNotFound);
      return { outcome };
    },
  );

  app.post(
    "/tools/:id/stock",
    {
      schema: {
        tags,
        summary: "A restock or correction: one movement in the ledger, with who, why and when",
        params: idParamsSchema,
        body: stockMovementInputSchema,
        response: { 200: adminToolSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => moveStock(db, request.params.id, request.body, actorOf(request)),
  );

  app.post(
    "/tools/:id/image",
    {
      schema: {
        tags,
        summary: "Upload a tool's photo (multipart field `file`: JPEG, PNG or WebP, at most 5 MB); it becomes resized WebP variants and the tool's image, the first of its `images`",
        consumes: ["multipart/form-data"],
        params: idParamsSchema,
        response: { 200: adminToolSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const tool = await getAdminTool(db, request.params.id);
      if (!tool) throw notFound(API_TEXT.toolNotFound);
      if (!request.isMultipart()) throw new ApiError(400, "NO_FILE", ADMIN_API_TEXT.photoMissing);
      let bytes: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== "file") throw new ApiError(400, "NO_FILE", ADMIN_API_TEXT.photoMissing);
        bytes = await part.toBuffer();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw new ApiError(400, "FILE_TOO_LARGE", ADMIN_API_TEXT.photoTooLarge);
        throw new ApiError(400, "BAD_UPLOAD", ADMIN_API_TEXT.photoMissing);
      }
      if (!sniffImageType(bytes)) throw new ApiError(400, "UNSUPPORTED_IMAGE", ADMIN_API_TEXT.photoType);
      let stored: { image: string; files: string[] };
      try {
        stored = await storePhoto(app.config.uploadDir, tool._id, bytes);
      } catch (error) {
        if (error instanceof BadPhotoError) throw new ApiError(400, "BAD_IMAGE", ADMIN_API_TEXT.photoUnreadable);
        throw error;
      }
      try {
        // The photo is the tool's new image (the spec's console), added to its photos first, the others kept after it (DESIGN: uploads add to `images`).
        const updated = await updateAdminTool(db, tool._id, { images: [stored.image, ...tool.images] }, actorOf(request));
        if (!updated) throw notFound(API_TEXT.toolNotFound);
        return updated;
      } catch (error) {
        await removeFiles(stored.files);
        throw error;
      }
    },
  );

  // ---------------------------------------------------------------- reviews

  app.get(
    "/reviews",
    {
      schema: {
        tags,
        summary: "Every review, hidden ones too (filter `hidden`), newest first; the total is in X-Total-Count",
        querystring: adminReviewListQuerySchema,
        response: { 200: z.array(adminReviewSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listAdminReviews(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );

  app.patch(
    "/reviews/:id",
    {
      schema: {
        tags,
        summary: "Hide or restore a review; the public list shows the change at once",
        params: idParamsSchema,
        body: adminReviewPatchSchema,
        response: { 200: adminReviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const result = await db.transaction(async (tx) => {
        const changed = await setReviewHidden(tx, request.params.id, request.body.hidden);
        if (!changed) throw notFound(ADMIN_API_TEXT.reviewNotFound);
        if (changed.before.hidden !== changed.after.hidden) {
          await recordAudit(tx, actor, {
            action: changed.after.hidden ? "review.hide" : "review.restore",
            entity: "review",
            entityId: request.params.id,
            before: changed.before,
            after: changed.after,
          });
        }
        return changed;
      });
      // A tool review's hiding moves its tool's average (the cards and the tool page show it).
      announceChange(db, "reviews", ...(result.after.toolId ? (["tools"] as const) : []));
      return result.after;
    },
  );

  // ---------------------------------------------------------------- users

  app.get(
    "/users",
    {
      schema: {
        tags,
        summary: "Accounts, newest first, searched by name or e-mail; the total is in X-Total-Count",
        querystring: adminUserListQuerySchema,
        response: { 200: z.array(adminUserSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listUsers(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );

  app.patch(
    "/users/:id",
    {
      schema: {
        tags,
        summary: "Grant or remove the admin role; the last admin keeps it (409)",
        params: idParamsSchema,
        body: adminUserPatchSchema,
        response: { 200: adminUserSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const updated = await setUserRole(db, request.params.id, request.body.role === "admin" ? ADMIN_ROLE : CUSTOMER_ROLE, actorOf(request));
      // Remembered sessions carry the old role: the next request must see the new one.
      app.forgetSessions();
      return updated;
    },
  );

  // ---------------------------------------------------------------- summary and audit

  app.get(
    "/summary",
    {
      schema: {
        tags,
        summary: "Sales per day (30 days), orders by status, top tools, tools low on stock",
        response: { 200: adminSummarySchema, ...errorResponses(401, 403) },
      },
    },
    async () => summary(db),
  );

  app.get(
    "/audit",
    {
      schema: {
        tags,
        summary: "Every admin action, newest first: who, what, which record, before and after, when",
        querystring: auditListQuerySchema,
        response: { 200: z.array(auditEntrySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listAudit(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );

  app.get(
    "/mail",
    {
      schema: {
        tags,
        summary: "The mail outbox, newest first: sent, failed and pending messages (by status); the total is in X-Total-Count",
        querystring: mailListQuerySchema,
        response: { 200: z.array(mailEntrySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { items, ...total } = await listMail(db, request.query);
      pageHeaders(request, reply, total);
      return items;
    },
  );
};
