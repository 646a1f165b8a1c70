/**
 * A database or Redis outage is not a bug: the API answers 503 with Retry-After (as
 * /api/health does), never a hang and never a 500 that reads like our fault.
 */

/** Socket errors, and Postgres' "connection exception" and "operator intervention" classes. */
const OUTAGE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** What node-postgres and ioredis say when their connection is gone or will not come. */
const OUTAGE_MESSAGES =
  /Connection terminated|Connection is closed|Stream isn't writeable|Command timed out|MaxRetriesPerRequest|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/** True when `error` (or what caused it) says a service we depend on is unreachable. */
export function isOutage(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (e === null || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && OUTAGE_CODES.has(code)) return true;
    if (typeof message === "string" && OUTAGE_MESSAGES.test(message)) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
