import { renderToString } from "react-dom/server";
import { createRoutesFromChildren, StaticRouter, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { PAGE_PATHS } from "../../contract/routes";
import { TEXT } from "../../contract/texts/site";
import { LEGAL_TEXT } from "../../contract/texts/legal";
import { makeQueryClient, Providers } from "./providers";
import { AppRoutes, preloadPage } from "./router";

/** Every full path the router declares (a layout route without a path adds nothing). */
function pathsOf(routes: RouteObject[], base = ""): string[] {
  return routes.flatMap((route) => {
    const here = route.index ? base || "/" : route.path === undefined ? base : `${base.replace(/\/$/, "")}/${route.path}`;
    const own = route.index || (route.path !== undefined && route.element) ? [here] : [];
    return [...own, ...pathsOf(route.children ?? [], route.index ? base : here)];
  });
}

describe("the router", () => {
  it("declares exactly the pages the server knows (src/contract/routes.ts), besides its catch-all", () => {
    const routes = createRoutesFromChildren((AppRoutes() as { props: { children: React.ReactNode } }).props.children);
    const declared = new Set(pathsOf(routes).filter((path) => path !== "/*"));
    expect([...declared].sort()).toEqual([...PAGE_PATHS].sort());
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
      await expect(preloadPage(path)).resolves.toBeUndefined();
    }
  });
});
