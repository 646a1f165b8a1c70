/**
 * The page's data as the server put it into the HTML (a JSON script tag, not a script: the
 * CSP allows no inline code), and back into React Query's cache in the browser, so hydration
 * renders what the HTML shows without fetching it again. A format of our own, smaller than
 * React Query's dehydrate/hydrate (whose code would count against the home page's budget).
 */
import type { QueryClient, QueryKey, QueryState } from "@tanstack/react-query";
import { ApiRequestError } from "../lib/api";

export const PAGE_STATE_ID = "toolyard-state";

interface WireError {
  status: number;
  code: string;
  message: string;
}

export interface PageState {
  /** Each loaded query: key, data, when it was loaded. */
  data: [QueryKey, unknown, number][];
  /** Each failed one: key and the failure (an Error is not JSON). */
  errors: [QueryKey, WireError][];
}

/** Every query the render used, failures included. */
export function pageState(client: QueryClient): PageState {
  const state: PageState = { data: [], errors: [] };
  for (const query of client.getQueryCache().getAll()) {
    const { status, data, dataUpdatedAt, error } = query.state;
    if (status === "success") state.data.push([query.queryKey, data, dataUpdatedAt]);
    if (status === "error" && error) {
      state.errors.push([
        query.queryKey,
        error instanceof ApiRequestError ? { status: error.status, code: error.code, message: error.message } : { status: 500, code: "ERROR", message: error.message },
      ]);
    }
  }
  return state;
}

/** JSON that cannot end the script tag it sits in (`</script>`, `<!--`) nor break out of it. */
export function serializePageState(state: PageState): string {
  return JSON.stringify(state).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** A query that failed on the server, in the cache as it failed there. */
export function putFailure(client: QueryClient, queryKey: QueryKey, error: Error): void {
  // The failure is the page's answer: its first render shows it (the page's retry button tries again).
  client.setQueryDefaults(queryKey, { retryOnMount: false });
  const state: QueryState<unknown, Error> = {
    data: undefined,
    dataUpdateCount: 0,
    dataUpdatedAt: 0,
    error,
    errorUpdateCount: 1,
    errorUpdatedAt: Date.now(),
    fetchFailureCount: 1,
    fetchFailureReason: error,
    fetchMeta: null,
    isInvalidated: false,
    status: "error",
    fetchStatus: "idle",
  };
  client.getQueryCache().build(client, { queryKey }, state);
}

/** Seeds `client` with the state the server wrote into the page, if any. */
export function seedFromPage(client: QueryClient, doc: Document): boolean {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return false;
  const state = JSON.parse(text) as PageState;
  for (const [queryKey, data, updatedAt] of state.data) client.setQueryData(queryKey, data, { updatedAt });
  for (const [queryKey, error] of state.errors) putFailure(client, queryKey, new ApiRequestError(error.status, error.code, error.message));
  return true;
}
