/**
 * The API's one error shape: `{ error: CODE, message: sentence }`, with the right status.
 * Routes throw ApiError; the error handler turns everything else into that shape too.
 */
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { API_TEXT } from "../../contract/texts/api";
import type { ApiErrorBody } from "../../contract/schemas";
import { isOutage } from "./outage";

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: Partial<Pick<ApiErrorBody, "available" | "details" | "lines">> = {},
    /** Headers the answer carries, such as a 429's or a 503's Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (message: string = API_TEXT.notFound) => new ApiError(404, "NOT_FOUND", message);
export const unauthorized = () => new ApiError(401, "UNAUTHORIZED", API_TEXT.unauthorized);
export const forbidden = () => new ApiError(403, "FORBIDDEN", API_TEXT.forbidden);
export const conflict = (code: string, message: string, extra: ApiError["extra"] = {}) =>
  new ApiError(409, code, message, extra);

/** A query parameter the schema accepts but the request cannot be served with: the validation error's shape. */
export const badQuery = (field: string, message: string) =>
  new ApiError(400, "VALIDATION", message, { details: [{ path: `querystring.${field}`, message }] });

/** How long a client should wait after a 503 before it tries again. */
export const RETRY_AFTER_SECONDS = 5;
export const unavailable = () =>
  new ApiError(503, "UNAVAILABLE", API_TEXT.unavailable, {}, { "retry-after": String(RETRY_AFTER_SECONDS) });

/** Every status an API route can answer with an error, for the OpenAPI document. */
export const errorStatuses = [400, 401, 403, 404, 409, 429] as const;

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return "BAD_REQUEST";
    case 404:
      return "NOT_FOUND";
    case 405:
      return "METHOD_NOT_ALLOWED";
    case 413:
      return "PAYLOAD_TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 429:
      return "RATE_LIMITED";
    default:
      return "REQUEST_ERROR";
  }
}

export interface ErrorHandlingOptions {
  /** Asked when an unexpected error happens: is a service we depend on down right now? */
  dependenciesDown?: () => Promise<boolean>;
}

export function registerErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions = {}): void {
  app.setErrorHandler(async (error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      const body: ApiErrorBody = { error: error.code, message: error.message, ...error.extra };
      return reply.status(error.statusCode).headers(error.headers).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: [error.validationContext, ...issue.instancePath.split("/").filter(Boolean)].filter(Boolean).join("."),
        message: issue.message ?? API_TEXT.invalidInput,
      }));
      const body: ApiErrorBody = { error: "VALIDATION", message: details[0]?.message ?? API_TEXT.invalidInput, details };
      return reply.status(400).send(body);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, "response did not match its schema");
      return reply.status(500).send({ error: "INTERNAL", message: API_TEXT.internal });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ error: "RATE_LIMITED", message: API_TEXT.rateLimited });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: codeForStatus(status), message: error.message });
    }
    if (isOutage(error) || (await options.dependenciesDown?.())) {
      request.log.warn({ err: error }, "a service the store depends on is unavailable");
      const outage = unavailable();
      return reply.status(503).headers(outage.headers).send({ error: outage.code, message: outage.message });
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send({ error: "INTERNAL", message: API_TEXT.internal });
  });
}
