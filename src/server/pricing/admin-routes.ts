/**
 * The console's money API (DESIGN "Money"): /api/admin/tax-rates (and their CSV file),
 * /api/admin/promotions, /api/admin/shipping, /api/admin/settings and the tax-exempt mark on a
 * customer. Registered inside the console's plugin, so its admin guard covers every route here.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminUserSchema } from "../../contract/admin-schemas";
import {
  promotionInputSchema,
  promotionPatchSchema,
  promotionSchema,
  shippingMethodInputSchema,
  shippingMethodPatchSchema,
  shippingMethodSchema,
  storeSettingsResponseSchema,
  storeSettingsSchema,
  taxExemptInputSchema,
  taxRateInputSchema,
  taxRatePatchSchema,
  taxRateSchema,
  TAX_RATE_CSV_COLUMNS,
} from "../../contract/money-schemas";
import { idParamsSchema } from "../../contract/schemas";
import { actorOf } from "../audit";
import { errorResponses } from "../http/schemas";
import {
  createPromotion,
  createShippingMethod,
  createTaxRate,
  deleteShippingMethod,
  deleteTaxRate,
  exportTaxRatesCsv,
  getStoreSettings,
  importTaxRatesCsv,
  listPromotions,
  listShippingMethods,
  listTaxRates,
  putStoreSettings,
  setTaxExempt,
  updatePromotion,
  updateShippingMethod,
  updateTaxRate,
} from "./admin-service";

const tags = ["admin", "money"];
/** A rate table of every ZIP-code prefix of a country is a few hundred KB; the API's JSON limit is 64 KB. */
const CSV_BODY_LIMIT = 2 * 1024 * 1024;
const deleted = z.object({ deleted: z.literal(true) });

export const moneyAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;
  // Only this plugin reads CSV bodies; the content-type parser stays in its scope.
  app.addContentTypeParser("text/csv", { parseAs: "string", bodyLimit: CSV_BODY_LIMIT }, (_request, body, done) => done(null, body));

  // ---------------------------------------------------------------- tax rates

  app.get(
    "/tax-rates",
    { schema: { tags, summary: "Every tax rate, by country, region and postal-code prefix", response: { 200: z.array(taxRateSchema), ...errorResponses(401, 403) } } },
    async () => listTaxRates(db),
  );

  app.post(
    "/tax-rates",
    {
      schema: {
        tags,
        summary: "Add a tax rate (409 when its country, region and postal-code prefix has one)",
        body: taxRateInputSchema,
        response: { 201: taxRateSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createTaxRate(db, request.body, actorOf(request))),
  );

  app.patch(
    "/tax-rates/:id",
    {
      schema: {
        tags,
        summary: "Change a tax rate: any of its fields, checked with the ones it keeps",
        params: idParamsSchema,
        body: taxRatePatchSchema,
        response: { 200: taxRateSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updateTaxRate(db, request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    "/tax-rates/:id",
    { schema: { tags, summary: "Remove a tax rate", params: idParamsSchema, response: { 200: deleted, ...errorResponses(400, 401, 403, 404) } } },
    async (request) => {
      await deleteTaxRate(db, request.params.id, actorOf(request));
      return { deleted: true as const };
    },
  );

  app.get(
    "/tax-rates.csv",
    {
      schema: {
        tags,
        summary: `The tax rates as a CSV file (columns ${TAX_RATE_CSV_COLUMNS.join(",")}), the shape the import takes back`,
        produces: ["text/csv"],
        response: { 200: z.string(), ...errorResponses(401, 403) },
      },
    },
    async (_request, reply) =>
      reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="tax-rates.csv"')
        .send(await exportTaxRatesCsv(db)),
  );

  app.post(
    "/tax-rates.csv",
    {
      bodyLimit: CSV_BODY_LIMIT,
      schema: {
        tags,
        summary:
          "Replace every tax rate with a CSV file (text/csv, the export's columns, a header row first). All or nothing: a bad row is a 400 naming its row (the file's line) and field, and nothing is imported",
        consumes: ["text/csv"],
        body: z.string(),
        response: { 200: z.array(taxRateSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => importTaxRatesCsv(db, request.body, actorOf(request)),
  );

  // ---------------------------------------------------------------- promotions

  app.get(
    "/promotions",
    { schema: { tags, summary: "Every promotion code, newest first, with its redemptions (orders holding a use)", response: { 200: z.array(promotionSchema), ...errorResponses(401, 403) } } },
    async () => listPromotions(db),
  );

  app.post(
    "/promotions",
    {
      schema: {
        tags,
        summary: "Add a promotion code (stored upper-case; 409 when the code is taken in any case)",
        body: promotionInputSchema,
        response: { 201: promotionSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createPromotion(db, request.body, actorOf(request))),
  );

  app.patch(
    "/promotions/:id",
    {
      schema: {
        tags,
        summary: "Change a promotion: any of its fields, checked with the ones it keeps; `active: false` retires it",
        params: idParamsSchema,
        body: promotionPatchSchema,
        response: { 200: promotionSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => updatePromotion(db, request.params.id, request.body, actorOf(request)),
  );

  // ---------------------------------------------------------------- delivery methods

  app.get(
    "/shipping",
    {
      schema: {
        tags,
        summary: "The delivery methods with their zones and weight bands (pickup at the store is built in and not listed)",
        response: { 200: z.array(shippingMethodSchema), ...errorResponses(401, 403) },
      },
    },
    async () => listShippingMethods(db),
  );

  app.post(
    "/shipping",
    {
      schema: { tags, summary: "Add a delivery method", body: shippingMethodInputSchema, response: { 201: shippingMethodSchema, ...errorResponses(400, 401, 403) } },
    },
    async (request, reply) => reply.status(201).send(await createShippingMethod(db, request.body, actorOf(request))),
  );

  app.patch(
    "/shipping/:id",
    {
      schema: {
        tags,
        summary: "Change a delivery method: any of its fields; `zones` replaces them all",
        params: idParamsSchema,
        body: shippingMethodPatchSchema,
        response: { 200: shippingMethodSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => updateShippingMethod(db, request.params.id, request.body, actorOf(request)),
  );

  app.delete(
    "/shipping/:id",
    {
      schema: { tags, summary: "Remove a delivery method (orders keep its name)", params: idParamsSchema, response: { 200: deleted, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => {
      await deleteShippingMethod(db, request.params.id, actorOf(request));
      return { deleted: true as const };
    },
  );

  // ---------------------------------------------------------------- the store's details

  app.get(
    "/settings",
    { schema: { tags, summary: "The store's legal name, address and tax id (invoices; pickup is taxed at this address)", response: { 200: storeSettingsResponseSchema, ...errorResponses(401, 403) } } },
    async () => getStoreSettings(db),
  );

  app.put(
    "/settings",
    {
      schema: { tags, summary: "Save the store's legal name, address and tax id", body: storeSettingsSchema, response: { 200: storeSettingsResponseSchema, ...errorResponses(400, 401, 403) } },
    },
    async (request) => putStoreSettings(db, request.body, actorOf(request)),
  );

  // ---------------------------------------------------------------- tax-exempt customers

  app.patch(
    "/users/:id/tax-exempt",
    {
      schema: {
        tags,
        summary: "Mark a customer tax-exempt with their certificate number (\"\" clears it); their orders then carry no tax",
        params: idParamsSchema,
        body: taxExemptInputSchema,
        response: { 200: adminUserSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => setTaxExempt(db, request.params.id, request.body.taxExemptCertificate, actorOf(request)),
  );
};
