/**
 * The one table of the web app's pages. Everything that needs to know the pages derives from it:
 * the browser's routes and which page's chunk to load ahead (src/web/app/router.tsx), which pages
 * the server renders and what it loads for them (src/web/entry-server.tsx), the chunks a rendered
 * page preloads when the app starts (src/server/pages/render.ts), the sitemap and robots.txt (plugins/crawlers.ts),
 * and the 404 status of a path no page has (plugins/spa.ts).
 *
 * Data only: the server's start-up reads it (robots, sitemap) and must not load React or the
 * router for it. Matching a path against it is react-router's `matchPath`, in the web app
 * (src/web/app/match-page.ts), which the server reaches through its lazily loaded entry.
 */
export interface PageEntry {
  /** Rendered with its data on the server: a public page, the same for everyone. Otherwise the browser renders it. */
  readonly ssr: boolean;
  /** Listed in the sitemap (only a path without params can be: the tools are listed one by one from the catalogue). */
  readonly sitemap: boolean;
  /** Personal: crawlers are asked to keep out of it (robots.txt). */
  readonly private: boolean;
  /**
   * The page's own chunk: its source file relative to src/web, as Vite's manifest names it, which
   * a rendered page preloads. null: the page is in the app's own chunk (home).
   */
  readonly module: string | null;
}

export const PAGES = {
  "/": { ssr: true, sitemap: true, private: false, module: null },
  "/tools": { ssr: true, sitemap: true, private: false, module: "features/catalog/routes/tools-page.tsx" },
  "/tools/:id": { ssr: true, sitemap: false, private: false, module: "features/catalog/routes/tool-page.tsx" },
  "/about": { ssr: true, sitemap: true, private: false, module: "features/pages/about-page.tsx" },
  "/blogs": { ssr: true, sitemap: true, private: false, module: "features/pages/blogs-page.tsx" },
  "/legal": { ssr: true, sitemap: true, private: false, module: "features/pages/legal-page.tsx" },
  "/login": { ssr: false, sitemap: false, private: false, module: "features/auth/login-page.tsx" },
  "/signup": { ssr: false, sitemap: false, private: false, module: "features/auth/signup-page.tsx" },
  "/forgot-password": { ssr: false, sitemap: false, private: false, module: "features/auth/forgot-password-page.tsx" },
  "/reset-password": { ssr: false, sitemap: false, private: false, module: "features/auth/reset-password-page.tsx" },
  "/two-factor": { ssr: false, sitemap: false, private: false, module: "features/auth/two-factor-page.tsx" },
  "/cart": { ssr: false, sitemap: false, private: true, module: "features/cart/cart-page.tsx" },
  "/checkout": { ssr: false, sitemap: false, private: true, module: "features/cart/checkout-page.tsx" },
  "/checkout/confirmation/:id": { ssr: false, sitemap: false, private: true, module: "features/cart/confirmation-page.tsx" },
  "/purchase/:id": { ssr: false, sitemap: false, private: true, module: "features/purchase/purchase-page.tsx" },
  "/dashboard": { ssr: false, sitemap: false, private: true, module: "features/dashboard/my-orders.tsx" },
  "/dashboard/review": { ssr: false, sitemap: false, private: true, module: "features/dashboard/add-review.tsx" },
  "/dashboard/profile": { ssr: false, sitemap: false, private: true, module: "features/dashboard/my-profile.tsx" },
  "/dashboard/orders/:id": { ssr: false, sitemap: false, private: true, module: "features/dashboard/order-page.tsx" },
  /** The member's trade account (issue 43): approvals, members, statement; or the application. */
  "/dashboard/account": { ssr: false, sitemap: false, private: true, module: "features/trade/account-page.tsx" },
  /**
   * My Quotes: the list, a quote's page and the request form (`/dashboard/quotes/new`, where the home
   * page's 'Request For Quote' and the cart's 'Ask for a quote' lead), one chunk with routes of its own.
   */
  "/dashboard/quotes/*": { ssr: false, sitemap: false, private: true, module: "features/quotes/quotes-section.tsx" },
  /** The admin console: one lazy chunk with routes of its own (src/web/features/admin/console.tsx). */
  "/admin/*": { ssr: false, sitemap: false, private: true, module: "features/admin/console.tsx" },
} as const satisfies Record<string, PageEntry>;

export type PagePath = keyof typeof PAGES;
/** The pages the server renders with their data. */
export type ServerRenderedPath = { [P in PagePath]: (typeof PAGES)[P]["ssr"] extends true ? P : never }[PagePath];

/** The 404 page's chunk, which the server renders for any path no page has (and for an unknown tool). */
export const NOT_FOUND_MODULE = "features/pages/not-found-page.tsx";

export const PAGE_PATHS = Object.keys(PAGES) as PagePath[];

export const isPagePath = (path: string): path is PagePath => Object.hasOwn(PAGES, path);

export const isServerRenderedPath = (path: PagePath): path is ServerRenderedPath => PAGES[path].ssr;

/** Pages a search engine may read and list (the sitemap), in the table's order. */
export const SITEMAP_PATHS = PAGE_PATHS.filter((path) => PAGES[path].sitemap);

/** The fixed part of a page's path, before its first param or splat: "/purchase/:id" → "/purchase". */
function fixedPrefix(path: string): string {
  const segments = path.split("/");
  const open = segments.findIndex((segment) => segment.startsWith(":") || segment === "*");
  return (open === -1 ? segments : segments.slice(0, open)).join("/") || "/";
}

/** Paths crawlers are asked to keep out of (robots.txt): the API, and the private pages, each prefix once. */
export const PRIVATE_PREFIXES: readonly string[] = (() => {
  const prefixes = ["/api", ...PAGE_PATHS.filter((path) => PAGES[path].private).map(fixedPrefix)];
  // "/checkout" already covers "/checkout/confirmation".
  const covered = (prefix: string) => prefixes.some((other) => other !== prefix && prefix.startsWith(`${other}/`));
  return [...new Set(prefixes)].filter((prefix) => !covered(prefix));
})();
