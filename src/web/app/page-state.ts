/**
 * The page's data as the server put it into the HTML (a JSON script tag, not a script: the
 * CSP allows no inline code), and back into React Query's cache in the browser, so hydration
 * renders what the HTML shows without fetching it again.
 */
import { dehydrate, hydrate, type DehydratedState, type QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "../lib/api";

export const PAGE_STATE_ID = "toolyard-state";

interface WireError {
  status: number;
  code: string;
  message: string;
}

/** Every query the render used, failures included (as status, code and message: an Error is not JSON). */
export function pageState(client: QueryClient): DehydratedState {
  const state = dehydrate(client, { shouldDehydrateQuery: (query) => query.state.status !== "pending", shouldRedactErrors: () => false });
  for (const query of state.queries) {
    const error = query.state.error;
    if (error) {
      const wire: WireError =
        error instanceof ApiRequestError ? { status: error.status, code: error.code, message: error.message } : { status: 500, code: "ERROR", message: error.message };
      (query.state as { error: unknown }).error = wire;
    }
  }
  return state;
}

/** JSON that cannot end the script tag it sits in (`</script>`, `<!--`) nor break out of it. */
export function serializePageState(state: DehydratedState): string {
  return JSON.stringify(state).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/** Seeds `client` with the state the server wrote into the page, if any. */
export function seedFromPage(client: QueryClient, doc: Document): boolean {
  const text = doc.getElementById(PAGE_STATE_ID)?.textContent;
  if (!text) return false;
  const state = JSON.parse(text) as DehydratedState;
  for (const query of state.queries) {
    const error = query.state.error as WireError | null | undefined;
    if (!error) continue;
    (query.state as { error: unknown }).error = new ApiRequestError(error.status, error.code, error.message);
    // As on the server: the page shows the failure it was rendered with, rather than loading again.
    client.setQueryDefaults(query.queryKey, { retryOnMount: false });
  }
  hydrate(client, state);
  return true;
}
