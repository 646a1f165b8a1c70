import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isPagePath, isServerRenderedPath, NOT_FOUND_MODULE, PAGE_PATHS, PAGES, PRIVATE_PREFIXES, SITEMAP_PATHS } from "./routes";

const webDir = path.resolve(import.meta.dirname, "../web");
const hasParams = (page: string) => page.split("/").some((segment) => segment.startsWith(":") || segment === "*");

describe("the route table", () => {
  it("lists each page once, by its path", () => {
    expect(new Set(PAGE_PATHS).size).toBe(PAGE_PATHS.length);
    expect(PAGE_PATHS).toEqual(Object.keys(PAGES));
    for (const page of PAGE_PATHS) expect(page, page).toMatch(/^\/([\w-]+|:\w+)?(\/([\w-]+|:\w+|\*))*$/);
    expect(isPagePath("/tools/:id")).toBe(true);
    expect(isPagePath("/tools/x")).toBe(false);
    expect(isPagePath("toString")).toBe(false);
  });

  it("names each page's chunk by a source file that exists, as Vite's manifest names it (src/web relative)", () => {
    for (const page of PAGE_PATHS) {
      const module = PAGES[page].module;
      // Only home is in the app's entry.
      expect(module === null, page).toBe(page === "/");
      if (module) expect(existsSync(path.join(webDir, module)), module).toBe(true);
    }
    expect(existsSync(path.join(webDir, NOT_FOUND_MODULE))).toBe(true);
  });

  it("renders on the server only public pages, and lists in the sitemap only those without params", () => {
    expect(PAGE_PATHS.filter(isServerRenderedPath)).toEqual(["/", "/tools", "/tools/:id", "/about", "/blogs", "/legal"]);
    expect(SITEMAP_PATHS).toEqual(["/", "/tools", "/about", "/blogs", "/legal"]);
    for (const page of PAGE_PATHS) {
      const { ssr, sitemap, private: personal } = PAGES[page];
      if (personal) expect(ssr || sitemap, page).toBe(false);
      if (sitemap) expect(ssr && !hasParams(page), page).toBe(true);
    }
  });

  it("keeps crawlers out of the API and of every private page, and of no other page", () => {
    expect(PRIVATE_PREFIXES).toEqual(["/api", "/cart", "/checkout", "/purchase", "/dashboard", "/admin"]);
    for (const page of PAGE_PATHS) {
      const disallowed = PRIVATE_PREFIXES.some((prefix) => page === prefix || page.startsWith(`${prefix}/`));
      expect(disallowed, page).toBe(PAGES[page].private);
    }
  });
});
