import { createRoutesFromChildren, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { PAGE_PATHS } from "../../contract/routes";
import { AppRoutes } from "./router";

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
