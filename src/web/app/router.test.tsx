import path from "node:path";
import { renderToString } from "react-dom/server";
import { StaticRouter, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { PAGE_PATHS, PAGES, type PagePath } from "../../contract/routes";
import { TEXT } from "../../contract/texts/site";
import { LEGAL_TEXT } from "../../contract/texts/legal";
import { RequireAuth } from "../features/auth";
import { makeQueryClient, Providers } from "./providers";
import { APP_ROUTES, AppRoutes, PAGE_VIEWS, preloadPage } from "./router";

/** Every full path the router declares, and whether RequireAuth guards it (a layout route without a path adds nothing). */
function pathsOf(routes: RouteObject[], base = "", guarded = false): { path: string; guarded: boolean }[] {
  return routes.flatMap((route) => {
    const here = route.index ? base || "/" : route.path === undefined ? base : `${base.replace(/\/$/, "")}/${route.path}`;
    const inGuard = guarded || (route.element as { type?: unknown } | undefined)?.type === RequireAuth;
    // A page is a leaf: a layout route with a path (the dashboard's) is its index page's too.
    const own = route.index || (route.path !== undefined && route.element && !route.children?.length) ? [{ path: here, guarded: inGuard }] : [];
    return [...own, ...pathsOf(route.children ?? [], route.index ? base : here, inGuard)];
  });
}

describe("the router", () => {
  const declared = pathsOf(APP_ROUTES).filter((route) => route.path !== "/*");

  it("declares exactly the route table's pages (src/contract/routes.ts), each once, besides its catch-all", () => {
    expect(declared.map((route) => route.path).sort()).toEqual([...PAGE_PATHS].sort());
  });

  it("keeps the signed-in pages behind RequireAuth, as before the table: checkout, purchase and the dashboard", () => {
    expect(declared.filter((route) => route.guarded).map((route) => route.path).sort()).toEqual(
      [
        "/checkout",
        "/checkout/confirmation/:id",
        "/dashboard",
        "/dashboard/account",
        "/dashboard/orders/:id",
        "/dashboard/profile",
        "/dashboard/quotes/*",
        "/dashboard/review",
        "/purchase/:id",
      ].sort(),
    );
  });
});

describe("preloadPage", () => {
  const legal = () =>
    renderToString(
      <StaticRouter location="/legal">
        <Providers client={makeQueryClient()}>
          <AppRoutes />
        </Providers>
      </StaticRouter>,
    );

  it("makes the page at a path render at once, without waiting for its chunk", async () => {
    expect(legal()).toContain(TEXT.states.loading);
    await preloadPage("/legal");
    const html = legal();
    expect(html).toContain(LEGAL_TEXT.heading);
    expect(html).not.toContain(TEXT.states.loading);
  });

  it("loads the chunk of every server-rendered page, and of the 404 page for a path no page has", async () => {
    for (const path of ["/", "/tools", "/tools/some-id", "/about", "/blogs", "/no-such-page"]) {
      // A chunk that fails to load rejects.
      await preloadPage(path);
    }
  });
});

// Last: it loads every page's chunk, after which no page waits for its own (preloadPage's first test).
describe("the chunks of the pages", () => {
  it("loads for each page the module the route table names (what the server preloads with a rendered page)", async () => {
    for (const page of PAGE_PATHS) {
      const view: (typeof PAGE_VIEWS)[PagePath] = PAGE_VIEWS[page];
      const module = PAGES[page].module;
      if (!("page" in view) || module === null) {
        // Only home is in the app's entry, in both.
        expect(["page" in view, module], page).toEqual([false, null]);
        continue;
      }
      const named = (await import(/* @vite-ignore */ path.resolve(import.meta.dirname, "..", module))) as { default: unknown };
      expect(await view.page.preload(), page).toBe(named.default);
    }
  });
});
