/**
 * Back-in-stock alerts' routes (issue 42, decision 0019):
 * - POST /api/tool/:id/stock-alerts {email}: anyone; the address gets a confirmation link (202).
 *   Rate limited per client address and per e-mail (the sign-in limits' machinery: in Redis when
 *   instances share one), counted on arrival like the auth mail requests.
 * - GET, PUT, DELETE /api/me/stock-alerts/:toolId: the signed-in customer's own address, one click.
 * - POST /api/stock-alerts/confirm {token}; GET /api/stock-alerts/unsubscribe?token= (what it
 *   would end, nothing changes) and POST /api/stock-alerts/unsubscribe {token}: the mails' links,
 *   no sign-in needed, the token is the proof.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { idParamsSchema } from "../../contract/schemas";
import { stockAlertLinkSchema, stockAlertRequestSchema, stockAlertSchema, stockAlertTokenSchema } from "../../contract/stock-alert-schemas";
import { STOCK_ALERT_TEXT } from "../../contract/texts/stock-alerts";
import { memoryLimiter, redisLimiter, type Limiter } from "../auth/limiter";
import { ApiError } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { z } from "zod";
import { alertableTool, alertRound, confirmAlert, endOwn, ownAlert, requestAlert, subscribeOwn, unsubscribe, unsubscribePreview, type AlertSettings } from "./service";

/** Confirmation mails per client address, and per e-mail address, per hour. */
export const STOCK_ALERT_LIMITS = { perClient: 20, perEmail: 3, windowMs: 3600_000 } as const;

const toolParamsSchema = z.object({ toolId: idParamsSchema.shape.id });

async function tooMany(limiter: Limiter, key: string): Promise<ApiError> {
  const seconds = Math.max(1, Math.ceil((await limiter.retryAfterMs(key)) / 1000));
  return new ApiError(429, "RATE_LIMITED", STOCK_ALERT_TEXT.tooMany, {}, { "retry-after": String(seconds) });
}

export const stockAlertRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  const { config, redis } = app;
  const settings: AlertSettings = { publicUrl: config.publicUrl, secret: config.authSecret };
  // Each mail round first deletes the unconfirmed alerts whose link expired and writes the ones that fell due (once across instances).
  app.mail.worker.beforeEachRound(() => alertRound(db, settings));
  const limiter = (name: string, max: number) =>
    redis ? redisLimiter(redis, `${config.redisKeyPrefix}${name}:`, max, STOCK_ALERT_LIMITS.windowMs) : memoryLimiter(max, STOCK_ALERT_LIMITS.windowMs);
  const byClient = limiter("stock-alert-ip", STOCK_ALERT_LIMITS.perClient);
  const byEmail = limiter("stock-alert-email", STOCK_ALERT_LIMITS.perEmail);
  const tags = ["stock alerts"];

  app.post(
    "/tool/:id/stock-alerts",
    {
      schema: {
        tags,
        summary:
          "Email me when it is back: the address gets a confirmation link and is subscribed once it is opened (202, the same answer for an address already subscribed). 409 IN_STOCK for a tool that can be ordered; 429 past the limits per client and per address",
        params: idParamsSchema,
        body: stockAlertRequestSchema,
        response: { 202: stockAlertSchema, ...errorResponses(400, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      await alertableTool(db, request.params.id);
      const clientKey = `ip:${request.ip}`;
      if (!(await byClient.hit(clientKey))) throw await tooMany(byClient, clientKey);
      const emailKey = `email:${email}`;
      if (!(await byEmail.hit(emailKey))) throw await tooMany(byEmail, emailKey);
      return reply.status(202).send(await requestAlert(db, settings, request.params.id, email));
    },
  );

  app.get(
    "/me/stock-alerts/:toolId",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "Whether your own address waits for the tool", params: toolParamsSchema, response: { 200: stockAlertSchema, ...errorResponses(400, 401, 404) } },
    },
    async (request) => ownAlert(db, request.viewer.email, request.params.toolId),
  );

  app.put(
    "/me/stock-alerts/:toolId",
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: "One click: your account's address waits for the tool (repeating it changes nothing); 409 IN_STOCK for a tool that can be ordered",
        params: toolParamsSchema,
        response: { 200: stockAlertSchema, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => subscribeOwn(db, request.viewer, request.params.toolId),
  );

  app.delete(
    "/me/stock-alerts/:toolId",
    {
      onRequest: app.requireUser,
      schema: { tags, summary: "Stop your own alert for the tool (none is fine)", params: toolParamsSchema, response: { 200: stockAlertSchema, ...errorResponses(400, 401, 404) } },
    },
    async (request) => endOwn(db, request.viewer.email, request.params.toolId),
  );

  app.post(
    "/stock-alerts/confirm",
    {
      schema: {
        tags,
        summary: "The confirmation link's token: the address now waits for the tool. 400 INVALID_TOKEN or TOKEN_EXPIRED (after 24 hours)",
        body: stockAlertTokenSchema,
        response: { 200: stockAlertLinkSchema, ...errorResponses(400) },
      },
    },
    async (request) => confirmAlert(db, settings, request.body.token),
  );

  app.get(
    "/stock-alerts/unsubscribe",
    {
      schema: {
        tags,
        summary: "What an unsubscribe link would stop (nothing changes: mail scanners open links)",
        querystring: stockAlertTokenSchema,
        response: { 200: stockAlertLinkSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return unsubscribePreview(db, settings, request.query.token);
    },
  );

  app.post(
    "/stock-alerts/unsubscribe",
    {
      schema: {
        tags,
        summary: "Stop the alert of an unsubscribe link (one already sent or stopped stays as it is)",
        body: stockAlertTokenSchema,
        response: { 200: stockAlertLinkSchema, ...errorResponses(400) },
      },
    },
    async (request) => unsubscribe(db, settings, request.body.token),
  );
};
