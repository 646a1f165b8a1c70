import type { FastifyReply, FastifyRequest } from "fastify";
import { VALIDATION_TEXT } from "../../contract/texts/validation";
import type { CursorKey, Total } from "../db/paging";
import { badQuery } from "./errors";

/**
 * A list's paging headers (docs/decisions/0013): `X-Total-Count` (the spec's, exact up to
 * COUNT_CAP), `X-Total-Count-Exact`, and when more rows follow a cursor, `X-Next-Cursor` and a
 * `Link: <…>; rel="next"` to the same list after this page.
 */
export function pageHeaders(request: FastifyRequest, reply: FastifyReply, page: Total & { next?: string | undefined }): void {
  reply.header("x-total-count", String(page.total));
  reply.header("x-total-count-exact", String(page.exact));
  if (page.next) {
    reply.header("x-next-cursor", page.next);
    reply.header("link", `<${nextUrl(request.url, page.next)}>; rel="next"`);
  }
}

/** The request's own path and query with `cursor` set and `page` dropped (the cursor wins). */
export function nextUrl(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, "http://store.invalid");
  url.searchParams.delete("page");
  url.searchParams.set("cursor", cursor);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

/** The key inside a client's cursor (db/paging.ts encodes it), checked against the list's key shape; a bad one is a 400. */
export function decodeCursor(cursor: string, shape: readonly ("string" | "number")[]): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== shape.length || key.some((value, i) => typeof value !== shape[i])) {
    throw badQuery("cursor", VALIDATION_TEXT.cursorInvalid);
  }
  return key as CursorKey;
}
