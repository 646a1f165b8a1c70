import type { FastifyReply, FastifyRequest } from "fastify";
import type { Total } from "../db/paging";

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
