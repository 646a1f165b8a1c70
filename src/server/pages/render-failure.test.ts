import { describe, expect, it } from "vitest";
import { API_TEXT } from "../../contract/texts/api";
import { renderPage, type PageLoaders } from "../../web/entry-server";

/**
 * Issue 12: a public page whose data fails to load is still rendered on the server, with its
 * error state, and says it is not complete (render.ts then does not keep it for the next visitor).
 */
const down = () => Promise.reject(new Error("connection refused"));
const failing: PageLoaders = { tools: down, tool: down, reviews: down, toolReviews: down, toolRating: down, catalogueMenu: down, facets: down };

describe("a server-rendered page whose data fails to load", () => {
  it.each(["/", "/tools?category=Chainsaws", "/tools/6f1f7a7e-5d2c-4c1e-9a51-0c2b8f0d3e11"])("%s renders its error state", async (url) => {
    const renderErrors: unknown[] = [];
    const page = await renderPage(url, failing, (error) => renderErrors.push(error));
    expect(page).not.toBeNull();
    expect(page?.complete).toBe(false);
    expect(page?.status).toBe(200);
    expect(page?.html).toContain('role="alert"');
    expect(page?.html).toContain(API_TEXT.unavailable);
    expect(renderErrors).toEqual([]);
  });

  it("renders an unknown tool as the 404 page, which is complete (an answer, not a failure)", async () => {
    const page = await renderPage("/tools/6f1f7a7e-5d2c-4c1e-9a51-0c2b8f0d3e11", { ...failing, tool: () => Promise.resolve(undefined) });
    expect(page?.status).toBe(404);
    expect(page?.complete).toBe(true);
  });
});
