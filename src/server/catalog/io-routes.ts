/**
 * The catalogue's spreadsheet in the console (issue 51): the export, and the import as a job.
 * Mounted in the console's scope (plugins/console.ts), so its admin guard runs first and the
 * multipart parser is there.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { catalogueImportSchema, IMPORT_MAX_BYTES, importQuerySchema, importStartedSchema } from "../../contract/catalogue-io";
import { idParamsSchema } from "../../contract/schemas";
import { CATALOGUE_IO_TEXT } from "../../contract/texts/catalogue-io";
import { ApiError, conflict, notFound } from "../http/errors";
import { errorResponses } from "../http/schemas";
import { badRowsCsv, CATALOGUE_IMPORT_QUEUE, getImport, runImport, startImport } from "./imports";
import { catalogueCsv } from "./spreadsheet";

const tags = ["admin"];

export const catalogueIoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.store;

  // Each import is one job; a run cut short (a crash) is run again from the start by the runner.
  const log = app.log.child({ module: "catalogue-import" });
  app.jobs.define<{ importId: string }>(CATALOGUE_IMPORT_QUEUE, { handle: ({ importId }) => runImport(db, importId, log), retryLimit: 3 });

  app.get(
    "/catalogue.csv",
    {
      schema: {
        tags,
        summary:
          "The catalogue as CSV, one row per tool in SKU order, streamed: sku, name, product, option1_name … option3_value, brand, category, price, stock, minimum_quantity, weight_grams, gtin, active, description, images (|), price_tiers (10:89.00|50:79.00), then spec:<key> per definition",
        produces: ["text/csv"],
      },
    },
    async (_request, reply) => {
      const stream = await catalogueCsv(db);
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="catalogue.csv"')
        .header("cache-control", "no-store")
        .send(stream);
    },
  );

  app.post(
    "/catalogue/imports",
    {
      schema: {
        tags,
        summary:
          "Import a CSV of the export's columns (multipart field `file`, at most 50 MB) as a job: 202 at once, then GET …/imports/:id. Rows are matched by sku; all or nothing; dryRun=true only says what it would do. " +
          "Another import queued or running: 409 IMPORT_RUNNING",
        consumes: ["multipart/form-data"],
        querystring: importQuerySchema,
        response: { 202: importStartedSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new ApiError(400, "NO_FILE", CATALOGUE_IO_TEXT.fileMissing);
      let file: Buffer;
      let fileName: string;
      try {
        const part = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
        if (!part || part.fieldname !== "file") throw new ApiError(400, "NO_FILE", CATALOGUE_IO_TEXT.fileMissing);
        fileName = part.filename || "catalogue.csv";
        file = await part.toBuffer();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw new ApiError(413, "FILE_TOO_LARGE", CATALOGUE_IO_TEXT.fileTooLarge(IMPORT_MAX_BYTES / 1024 / 1024));
        throw new ApiError(400, "BAD_UPLOAD", CATALOGUE_IO_TEXT.fileMissing);
      }
      const started = await startImport(db, (tx, data) => app.jobs.enqueue(tx, CATALOGUE_IMPORT_QUEUE, data), {
        fileName,
        file,
        dryRun: request.query.dryRun,
        actor: { id: request.viewer.id, email: request.viewer.email },
      });
      return reply.status(202).send(started);
    },
  );

  app.get(
    "/catalogue/imports/:id",
    {
      schema: {
        tags,
        summary: "An import's status and outcome: queued, running (processed of rows), done (created, updated, unchanged) or failed (the first 100 errors, by line and column)",
        params: idParamsSchema,
        response: { 200: catalogueImportSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const found = await getImport(db, request.params.id);
      if (!found) throw notFound(CATALOGUE_IO_TEXT.importNotFound);
      return found;
    },
  );

  app.get(
    "/catalogue/imports/:id/bad-rows.csv",
    {
      schema: {
        tags,
        summary:
          "A failed import's bad rows as CSV: the file's header, then every row that had an error (all of them, not only the first 100 errors'), in the file's order and as the file had them. " +
          "An import with no bad rows (not failed, or failed on the whole file): 409 NO_BAD_ROWS",
        params: idParamsSchema,
        produces: ["text/csv"],
      },
    },
    async (request, reply) => {
      const found = await badRowsCsv(db, request.params.id);
      if (found === undefined) throw notFound(CATALOGUE_IO_TEXT.importNotFound);
      if (found === null) throw conflict("NO_BAD_ROWS", CATALOGUE_IO_TEXT.noBadRows);
      const name = `bad-rows-${found.fileName.replace(/\.csv$/i, "").replace(/[^\w.-]+/g, "_")}.csv`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${name}"`)
        .header("cache-control", "no-store")
        .send(found.csv);
    },
  );
};
