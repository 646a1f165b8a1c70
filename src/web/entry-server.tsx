/**
 * The server's entry: renders a public page from the same route tree as the browser
 * (app/router.tsx) with its data already in React Query's cache, and returns the HTML, the
 * page's head (title, description, JSON-LD, status) and the data to hand to the browser.
 * The server (plugins/spa.ts) loads the data through its own services: `PageLoaders`.
 * Signed-in pages are not rendered here: the browser renders them (null).
 */
import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static.node";
import { StaticRouter } from "react-router";
import { HOME_REVIEWS_COUNT, HOME_TOOLS_COUNT } from "../contract/constants";
import { matchPage } from "../contract/routes";
import type { Review, Tool, ToolListQuery } from "../contract/schemas";
import { API_TEXT } from "../contract/texts/api";
import { pageState, putFailure, type PageState } from "./app/page-state";
import { makeQueryClient, Providers } from "./app/providers";
import { AppRoutes } from "./app/router";
import { catalogueQuery, relatedList, toolQuery, toolsQuery } from "./features/catalog";
import { reviewsQuery } from "./features/reviews";
import { ApiRequestError } from "./lib/api";
import { PageHeadContext, type PageHead, type PageHeadRecorder } from "./lib/page-title";

export interface PageLoaders {
  /** As `api.list` gives it in the browser: the page, its total and whether the total is exact. */
  tools(query: ToolListQuery): Promise<{ items: Tool[]; total: number; exact: boolean }>;
  /** undefined: no such tool in the catalogue. */
  tool(id: string): Promise<Tool | undefined>;
  reviews(limit: number): Promise<{ items: Review[]; total: number; exact: boolean }>;
}

export interface RenderedPage {
  status: number;
  html: string;
  head: PageHead;
  state: PageState;
  /** The page's route pattern (null: the 404 page of an unknown path). */
  pattern: string | null;
  /** false when a page's data failed to load: its error state is shown, and not worth keeping. */
  complete: boolean;
}

/** Pages anyone may read, rendered with their data on the server; any unknown path renders the 404 page. */
export const SERVER_RENDERED = ["/", "/tools", "/tools/:id", "/about", "/blogs", "/legal"] as const;

export function isServerRendered(pathname: string): boolean {
  const page = matchPage(pathname);
  return page === null || (SERVER_RENDERED as readonly string[]).includes(page.pattern);
}

/** Puts one query's data into the cache, or its failure (the page then renders its error state). */
async function seed<T>(client: QueryClient, queryKey: QueryKey, load: () => Promise<T | undefined>, notFound?: string): Promise<boolean> {
  let error: ApiRequestError;
  try {
    const data = await load();
    if (data !== undefined) {
      client.setQueryData(queryKey, data);
      return true;
    }
    error = new ApiRequestError(404, "NOT_FOUND", notFound ?? API_TEXT.notFound);
  } catch {
    error = new ApiRequestError(503, "UNAVAILABLE", API_TEXT.unavailable);
  }
  putFailure(client, queryKey, error);
  // A missing tool is an answer (the 404 page), not a failure.
  return error.status === 404;
}

async function prefetch(client: QueryClient, pathname: string, search: string, loaders: PageLoaders): Promise<boolean> {
  const page = matchPage(pathname);
  switch (page?.pattern) {
    case "/": {
      const tools = { limit: HOME_TOOLS_COUNT };
      const results = await Promise.all([
        seed(client, toolsQuery(tools).queryKey, () => loaders.tools(tools)),
        seed(client, reviewsQuery(HOME_REVIEWS_COUNT).queryKey, () => loaders.reviews(HOME_REVIEWS_COUNT)),
      ]);
      return results.every(Boolean);
    }
    case "/tools": {
      const query = catalogueQuery(new URLSearchParams(search));
      return seed(client, toolsQuery(query).queryKey, () => loaders.tools(query));
    }
    case "/tools/:id": {
      const id = page.params.id ?? "";
      let found: Tool | undefined;
      const ok = await seed(
        client,
        toolQuery(id).queryKey,
        async () => (found = await loaders.tool(id)),
        API_TEXT.toolNotFound,
      );
      if (!found) return ok;
      const related = relatedList(found.category);
      // The page is whole without its related tools: a failure there shows none, and is not kept.
      return seed(client, toolsQuery(related).queryKey, () => loaders.tools(related));
    }
    default:
      return true;
  }
}

async function text(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** The page at `url` (path and query), or null for a page the browser renders (a signed-in page). */
export async function renderPage(url: string, loaders: PageLoaders, onError?: (error: unknown) => void): Promise<RenderedPage | null> {
  const { pathname, search } = new URL(url, "http://localhost");
  if (!isServerRendered(pathname)) return null;
  const client = makeQueryClient();
  const complete = await prefetch(client, pathname, search, loaders);
  const head: PageHead = {};
  // Later calls win: a page's own words over the layout's, the 404 page's over the page that shows it.
  const recorder: PageHeadRecorder = { record: (part) => Object.assign(head, part) };
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <StaticRouter location={`${pathname}${search}`}>
        <PageHeadContext.Provider value={recorder}>
          <Providers client={client}>
            <AppRoutes />
          </Providers>
        </PageHeadContext.Provider>
      </StaticRouter>
    </StrictMode>,
    {
      // Every boundary inline, however large: React would otherwise move big ones to the end of
      // the page with an inline script to put them back, and the CSP runs no inline script.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError,
    },
  );
  const html = await text(prelude as unknown as AsyncIterable<Uint8Array>);
  const state = pageState(client);
  client.clear();
  return { status: head.status ?? 200, html, head, state, pattern: matchPage(pathname)?.pattern ?? null, complete };
}
