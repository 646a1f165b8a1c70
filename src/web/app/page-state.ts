/**
 * The page's data as the server put it into the HTML, and back into React Query's cache in the
 * browser, so hydration renders what the HTML shows without fetching it again. TanStack Query's
 * own hand-over: the server's `dehydrate` (entry-server.tsx), the browser's `HydrationBoundary`
 * (start.tsx). It travels as a JSON script tag, not a script: the CSP allows no inline code
 * (but the one script of server/pages/deferred-entry.ts, by its hash).
 * What JSON cannot carry is the failures' ApiRequestError: written as its fields, made one again
 * on arrival.
 */
import type { DehydratedState, QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "../lib/api";

export const PAGE_STATE_ID = "toolyard-state";

interface WireError {
  status: number;
  code: string;
  message: string;
}

const isWireError = (value: unknown): value is WireError =>
  typeof value === "object" && value !== null && typeof (value as WireError).status === "number" && typeof (value as WireError).message === "string";

/** A failure as JSON can carry it (an Error's message is not one of its own enumerable fields). */
const wireError = (error: Error): WireError =>
  error instanceof ApiRequestError ? { status: error.status, code: error.code, message: error.message } : { status: 500, code: "ERROR", message: error.message };

/** JSON that cannot end the script tag it sits in (`</script>`, `<!--`) nor break out of it. */
export function serializePageState(state: DehydratedState): string {
  return JSON.stringify(state, (_key, value: unknown) => (value instanceof Error ? wireError(value) : value))
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The state the server wrote into the page, if any, with its failures made errors again. A
 * query that failed on the server is the page's answer: its first render shows it (the page's
 * retry button tries again), so it is not fetched again on mount.
 */
export function readPageState(client: QueryClient, doc: Document): DehydratedState | undefined {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return undefined;
  const state = JSON.parse(text) as DehydratedState;
  for (const { queryKey, state: query } of state.queries) {
    if (query.status !== "error" || !isWireError(query.error)) continue;
    const error = new ApiRequestError(query.error.status, query.error.code, query.error.message);
    Object.assign(query, { error, fetchFailureReason: error });
    client.setQueryDefaults(queryKey, { retryOnMount: false });
  }
  return state;
}
