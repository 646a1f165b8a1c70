/**
 * The server's entry: renders a public page from the same route tree as the browser
 * (app/router.tsx) with its data already in React Query's cache, and returns the HTML, the
 * page's head (title, description, JSON-LD, status) and the data to hand to the browser.
 * The server (plugins/spa.ts) loads the data through its own services: `PageLoaders`.
 * Which pages it renders is the route table's (src/contract/routes.ts); the others (signed-in
 * pages) the browser renders (null).
 */
import { dehydrate, type DehydratedState, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static.node";
import { StaticRouter } from "react-router";
import { HOME_REVIEWS_COUNT, HOME_TOOLS_COUNT } from "../contract/constants";
import { isServerRenderedPath, PAGE_PATHS, type PagePath, type ServerRenderedPath } from "../contract/routes";
import type { Review, Tool, ToolListQuery } from "../contract/schemas";
import { API_TEXT } from "../contract/texts/api";
import { matchPage as matchIn } from "./app/match-page";
import { makeQueryClient, Providers } from "./app/providers";
import { AppRoutes } from "./app/router";
import { catalogueListQuery, catalogueMenuQuery, catalogueQuery, relatedList, type CatalogueMenu, toolQuery, toolRatingQuery, toolReviewsQuery, toolReviewViewOf, toolsQuery, type ToolReviewView } from "./features/catalog";
import type { ToolRatingSummary, ToolReview } from "../contract/review-schemas";
import { reviewsQuery } from "./features/reviews";
import { catalogueFacetsQuery, facetsQueryOf, type FacetsQuery } from "./features/catalog";
import type { Facets } from "../contract/catalogue-io";
import { ApiRequestError } from "./lib/api";
import { PageHeadContext, type PageHead, type PageHeadRecorder } from "./lib/page-title";

export interface PageLoaders {
  /** As `api.list` gives it in the browser: the page, its total and whether the total is exact. */
  tools(query: ToolListQuery): Promise<{ items: Tool[]; total: number; exact: boolean }>;
  /** undefined: no such tool in the catalogue. */
  tool(id: string): Promise<Tool | undefined>;
  reviews(limit: number): Promise<{ items: Review[]; total: number; exact: boolean }>;
  /** A page of a tool's reviews, as `api.list` gives it. */
  toolReviews(toolId: string, view: ToolReviewView): Promise<{ items: ToolReview[]; total: number; exact: boolean }>;
  toolRating(toolId: string): Promise<ToolRatingSummary>;
  /** The category tree (parents before children) and the brands, for the catalogue's filters. */
  catalogueMenu(): Promise<CatalogueMenu>;
  /** The facets of the catalogue's query (GET /api/tool/facets): the filters' counts. */
  facets(query: FacetsQuery): Promise<Facets>;
}

export interface RenderedPage {
  status: number;
  html: string;
  head: PageHead;
  /** The queries the render used, failures included, as TanStack Query dehydrates them (app/page-state.ts sends them). */
  state: DehydratedState;
  /** The page's path in the route table (null: the 404 page of an unknown path). */
  pattern: PagePath | null;
  /** false when a page's data failed to load: its error state is shown, and not worth keeping. */
  complete: boolean;
}

/** A param as the router's `useParams` gives it: decoded, or as it came when it is not valid percent-encoding. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The route table's page at `pathname` (react-router's matching) and its params, decoded, for
 * this render and the server's 404 decision (pages/render.ts): here because this module is
 * loaded lazily, and React with it.
 */
export function matchPage(pathname: string): { path: PagePath; params: Record<string, string> } | null {
  const match = matchIn(PAGE_PATHS, pathname);
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(match.params)) if (value !== undefined) params[name] = decoded(value);
  return { path: match.path, params };
}

/**
 * Puts one query's data into the cache, or its failure (the page then renders its error state,
 * and the browser does not fetch it again on mount: app/page-state.ts).
 */
async function seed<T>(client: QueryClient, queryKey: QueryKey, load: () => Promise<T | undefined>, notFound?: string): Promise<boolean> {
  await client.prefetchQuery({
    queryKey,
    retry: false,
    queryFn: async () => {
      let data: T | undefined;
      try {
        data = await load();
      } catch {
        throw new ApiRequestError(503, "UNAVAILABLE", API_TEXT.unavailable);
      }
      if (data === undefined) throw new ApiRequestError(404, "NOT_FOUND", notFound ?? API_TEXT.notFound);
      return data;
    },
  });
  const { error } = client.getQueryState(queryKey) ?? {};
  if (!error) return true;
  client.setQueryDefaults(queryKey, { retryOnMount: false });
  // A missing tool is an answer (the 404 page), not a failure.
  return error instanceof ApiRequestError && error.status === 404;
}

interface LoadContext {
  client: QueryClient;
  params: Record<string, string>;
  search: string;
  loaders: PageLoaders;
}

/** What a page needs in the cache to render with its data; false: something failed (the page shows its error state). */
type PageLoader = (context: LoadContext) => Promise<boolean>;

const noData: PageLoader = () => Promise.resolve(true);

/**
 * Each server-rendered page's loader, under the browser's own query keys. Kept out of the
 * browser's route map (app/router.tsx): they run on the server only, and would add to the home
 * page's download. TypeScript holds the map to the table: every server-rendered page has one.
 */
const PAGE_LOADERS = {
  "/": async ({ client, loaders }) => {
    const tools = { limit: HOME_TOOLS_COUNT };
    const results = await Promise.all([
      seed(client, toolsQuery(tools).queryKey, () => loaders.tools(tools)),
      seed(client, reviewsQuery(HOME_REVIEWS_COUNT).queryKey, () => loaders.reviews(HOME_REVIEWS_COUNT)),
    ]);
    return results.every(Boolean);
  },
  "/tools": async ({ client, search, loaders }) => {
    const query = catalogueQuery(new URLSearchParams(search));
    const facets = facetsQueryOf(query);
    const [list, counts] = await Promise.all([
      seed(client, catalogueListQuery(query).queryKey, () => loaders.tools(query)),
      // The filters' counts, in the HTML: a visitor without JavaScript sees them.
      seed(client, catalogueFacetsQuery(facets).queryKey, () => loaders.facets(facets)),
      // The page is whole without its menu's tree (the roots are in the code): a failure there is not kept.
      seed(client, catalogueMenuQuery().queryKey, () => loaders.catalogueMenu()),
    ]);
    return list && counts && client.getQueryState(catalogueMenuQuery().queryKey)?.status === "success";
  },
  "/tools/:id": async ({ client, params, search, loaders }) => {
    const id = params.id ?? "";
    let found: Tool | undefined;
    const ok = await seed(client, toolQuery(id).queryKey, async () => (found = await loaders.tool(id)), API_TEXT.toolNotFound);
    if (!found) return ok;
    const related = relatedList(found.category);
    const view = toolReviewViewOf(new URLSearchParams(search));
    const [reviews, rating, relatedOk] = await Promise.all([
      seed(client, toolReviewsQuery(id, view).queryKey, () => loaders.toolReviews(id, view)),
      seed(client, toolRatingQuery(id).queryKey, () => loaders.toolRating(id)),
      // The page is whole without its related tools: a failure there shows none, and is not kept.
      seed(client, toolsQuery(related).queryKey, () => loaders.tools(related)),
    ]);
    return reviews && rating && relatedOk;
  },
  "/about": noData,
  "/blogs": noData,
  "/legal": noData,
} satisfies Record<ServerRenderedPath, PageLoader>;

async function text(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** The page at `url` (path and query), or null for a page the browser renders (a signed-in page). */
export async function renderPage(url: string, loaders: PageLoaders, onError?: (error: unknown) => void): Promise<RenderedPage | null> {
  const { pathname, search } = new URL(url, "http://localhost");
  const page = matchPage(pathname);
  if (page && !isServerRenderedPath(page.path)) return null;
  const client = makeQueryClient();
  // An unknown path is the 404 page, which needs no data.
  const complete = page && isServerRenderedPath(page.path) ? await PAGE_LOADERS[page.path]({ client, params: page.params, search, loaders }) : true;
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
      // the page with an inline script to put them back, and the CSP runs no inline script (but
      // one, by its hash: server/pages/deferred-entry.ts).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError,
    },
  );
  const html = await text(prelude as unknown as AsyncIterable<Uint8Array>);
  // What loaded and what failed; not what a component only asked for (the session, the cart: the browser's own).
  const state = dehydrate(client, { shouldDehydrateQuery: (query) => query.state.status !== "pending" });
  client.clear();
  return { status: head.status ?? 200, html, head, state, pattern: page?.path ?? null, complete };
}
