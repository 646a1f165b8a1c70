import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * Revalidation for the public reads (docs/decisions/0013): a 200 carries a weak `ETag` of its
 * body, and a request whose `If-None-Match` names it gets `304 Not Modified` with no body.
 * A route opts in with `onSend: revalidate`.
 */
export async function revalidate(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (reply.statusCode !== 200 || typeof payload !== "string") return payload;
  const tag = `W/"${createHash("sha1").update(payload).digest("base64url")}"`;
  reply.header("etag", tag);
  if (matches(request.headers["if-none-match"], tag)) {
    reply.code(304);
    reply.removeHeader("content-length");
    return "";
  }
  return payload;
}

/** `If-None-Match` compares weakly: `*`, or any listed tag equal once `W/` is set aside. */
export function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = (value: string) => value.trim().replace(/^W\//, "");
  return header.split(",").some((candidate) => candidate.trim() === "*" || opaque(candidate) === opaque(tag));
}
