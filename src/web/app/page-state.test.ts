import { describe, expect, it } from "vitest";
import { HOME_REVIEWS_COUNT, HOME_TOOLS_COUNT } from "../../contract/constants";
import { API_TEXT } from "../../contract/texts/api";
import { renderPage, type PageLoaders } from "../entry-server";
import { reviewsQuery } from "../features/reviews";
import { toolsQuery } from "../features/catalog";
import { ApiRequestError } from "../lib/api";
import { PAGE_STATE_ID, readPageState, serializePageState } from "./page-state";
import { makeQueryClient } from "./providers";

/** The home page's data as the server hands it over: the tools load, the reviews fail. */
const loaders: PageLoaders = {
  tools: () => Promise.resolve({ items: [], total: 0, exact: true }),
  tool: () => Promise.resolve(undefined),
  reviews: () => Promise.reject(new Error("connection refused")),
  toolReviews: () => Promise.resolve({ items: [], total: 0, exact: true }),
  toolRating: () => Promise.reject(new Error("not asked for on the home page")),
  catalogueMenu: () => Promise.reject(new Error("not asked for on the home page")),
  facets: () => Promise.reject(new Error("not asked for on the home page")),
};

/** The page's HTML as the browser gets it: the state in its script tag. */
function documentWith(json: string): Document {
  const doc = document.implementation.createHTMLDocument("page");
  const script = doc.createElement("script");
  script.id = PAGE_STATE_ID;
  script.type = "application/json";
  script.textContent = json;
  doc.body.append(script);
  return doc;
}

describe("the page's data handed from the server's render to the browser", () => {
  it("carries what loaded, and a failure as an ApiRequestError that is not fetched again on mount", async () => {
    const page = await renderPage("/", loaders);
    if (!page) throw new Error("home is rendered on the server");
    const client = makeQueryClient();
    const state = readPageState(client, documentWith(serializePageState(page.state)));
    expect(state?.queries.map((query) => query.state.status).sort()).toEqual(["error", "success"]);

    const tools = state?.queries.find((query) => query.queryHash === JSON.stringify(toolsQuery({ limit: HOME_TOOLS_COUNT }).queryKey));
    expect(tools?.state.data).toEqual({ items: [], total: 0, exact: true });

    const reviewsKey = reviewsQuery(HOME_REVIEWS_COUNT).queryKey;
    const reviews = state?.queries.find((query) => query.queryHash === JSON.stringify(reviewsKey));
    expect(reviews?.state.error).toBeInstanceOf(ApiRequestError);
    expect(reviews?.state.error).toMatchObject({ status: 503, code: "UNAVAILABLE", message: API_TEXT.unavailable });
    expect(client.getQueryDefaults(reviewsKey).retryOnMount).toBe(false);
  });

  it("keeps a script tag's content from ending the tag", () => {
    const json = serializePageState({ mutations: [], queries: [] as never });
    expect(serializePageState(JSON.parse(json) as never)).toBe(json);
    expect(serializePageState({ mutations: [], queries: [{ queryKey: ["x"], queryHash: '["x"]', state: { data: "</script><!--" } }] as never })).not.toMatch(/<|>/);
  });

  it("finds nothing in a page the server did not render", () => {
    expect(readPageState(makeQueryClient(), document.implementation.createHTMLDocument("empty"))).toBeUndefined();
  });
});
