import { Suspense, type ComponentType } from "react";
import { useRoutes, type RouteObject } from "react-router";
import type { PagePath } from "../../contract/routes";
import { Spinner } from "../components/ui/states";
import { RequireAuth } from "../features/auth";
import { HomePage } from "../features/home";
import { preloadable, type Preloadable } from "../lib/preloadable";
import { ErrorBoundary } from "./error-boundary";
import { Layout } from "./layout";
import { matchPage } from "./match-page";

/*
 * Declarative routes with lazy pages: every page but home is its own chunk, so the
 * home page downloads no other page's code. (The data router's core alone would put
 * the home page over its 100 KB budget; see docs/decisions/0005-router-mode.md.)
 * The routes are made from the map below, which TypeScript holds to the route table
 * (src/contract/routes.ts): the same paths, no more, no fewer (a page added there does not compile
 * until it has a view here). The table itself stays out of the browser's download: what else it
 * says (server rendering, sitemap, robots, chunk files) is the server's.
 */

const page = preloadable;

/** Pages under a layout route of their own (a route with children, which renders them in its `Outlet`). */
interface Section {
  path: PagePath;
  layout: Preloadable;
  /** Only for a signed-in visitor, as its pages are. */
  signedIn: boolean;
}

type PageView =
  /** A page in the app's entry (home): no chunk to wait for. */
  | { component: ComponentType }
  | {
      /** The page's chunk: the module the route table names for it (router.test.tsx holds the two together). */
      page: Preloadable;
      /** Only for a signed-in visitor: RequireAuth sends anyone else to sign in. */
      signedIn?: boolean;
      section?: Section;
    };

const DASHBOARD: Section = { path: "/dashboard", layout: page(() => import("../features/dashboard/dashboard-layout")), signedIn: true };

export const PAGE_VIEWS = {
  "/": { component: HomePage },
  "/tools": { page: page(() => import("../features/catalog/routes/tools-page")) },
  "/tools/:id": { page: page(() => import("../features/catalog/routes/tool-page")) },
  "/about": { page: page(() => import("../features/pages/about-page")) },
  "/blogs": { page: page(() => import("../features/pages/blogs-page")) },
  "/legal": { page: page(() => import("../features/pages/legal-page")) },
  "/login": { page: page(() => import("../features/auth/login-page")) },
  "/signup": { page: page(() => import("../features/auth/signup-page")) },
  "/forgot-password": { page: page(() => import("../features/auth/forgot-password-page")) },
  "/reset-password": { page: page(() => import("../features/auth/reset-password-page")) },
  "/two-factor": { page: page(() => import("../features/auth/two-factor-page")) },
  "/cart": { page: page(() => import("../features/cart/cart-page")) },
  "/checkout": { page: page(() => import("../features/cart/checkout-page")), signedIn: true },
  "/checkout/confirmation/:id": { page: page(() => import("../features/cart/confirmation-page")), signedIn: true },
  "/purchase/:id": { page: page(() => import("../features/purchase/purchase-page")), signedIn: true },
  "/dashboard": { page: page(() => import("../features/dashboard/my-orders")), section: DASHBOARD },
  "/dashboard/review": { page: page(() => import("../features/dashboard/add-review")), section: DASHBOARD },
  "/dashboard/profile": { page: page(() => import("../features/dashboard/my-profile")), section: DASHBOARD },
  "/dashboard/orders/:id": { page: page(() => import("../features/dashboard/order-page")), section: DASHBOARD },
  "/dashboard/account": { page: page(() => import("../features/trade/account-page")), section: DASHBOARD },
  "/dashboard/quotes/*": { page: page(() => import("../features/quotes/quotes-section")), section: DASHBOARD },
  // The admin console: its own chunk, with routes of its own; never downloaded by a shopper.
  "/admin/*": { page: page(() => import("../features/admin/console")) },
} satisfies Record<PagePath, PageView>;

/** The router's pages: the route table's paths (PAGE_VIEWS `satisfies` the table, excess keys included). */
const PAGE_PATHS = Object.keys(PAGE_VIEWS) as PagePath[];

const NotFoundPage = page(() => import("../features/pages/not-found-page"));

function Lazy({ component: Component }: { component: Preloadable }) {
  return (
    <ErrorBoundary>
      <Suspense fallback={<Spinner />}>
        <Component />
      </Suspense>
    </ErrorBoundary>
  );
}

function elementOf(path: PagePath) {
  const view: PageView = PAGE_VIEWS[path];
  return "component" in view ? <view.component /> : <Lazy component={view.page} />;
}

/** A route for `path` below a parent route at `base` (its index route when they are the same). */
const routeAt = (path: PagePath, base: string): RouteObject =>
  path === base ? { index: true, element: elementOf(path) } : { path: path.slice(base === "/" ? 1 : base.length + 1), element: elementOf(path) };

/**
 * The route tree: the site's layout around every page; the signed-in pages inside RequireAuth;
 * a section's pages inside its layout route; any other path the 404 page.
 */
function appRoutes(): RouteObject[] {
  const open: RouteObject[] = [];
  const signedIn: RouteObject[] = [];
  const sections = new Map<Section, RouteObject[]>();
  for (const path of PAGE_PATHS) {
    const view: PageView = PAGE_VIEWS[path];
    const section = "section" in view ? view.section : undefined;
    if (section) sections.set(section, [...(sections.get(section) ?? []), routeAt(path, section.path)]);
    else ("signedIn" in view && view.signedIn ? signedIn : open).push(routeAt(path, "/"));
  }
  for (const [section, children] of sections) {
    (section.signedIn ? signedIn : open).push({ path: section.path.slice(1), element: <Lazy component={section.layout} />, children });
  }
  return [{ element: <Layout />, children: [...open, { element: <RequireAuth />, children: signedIn }, { path: "*", element: <Lazy component={NotFoundPage} /> }] }];
}

export const APP_ROUTES = appRoutes();

/**
 * Loads the chunk of the server-rendered page at `pathname`, so that the browser hydrates that
 * page with the rest instead of waiting for its code (start.tsx calls it for a page the server
 * rendered only: one of the table's server-rendered pages, or the 404 page of a path no page has).
 */
export function preloadPage(pathname: string): Promise<unknown> {
  const match = matchPage(PAGE_PATHS, pathname);
  const view: PageView | undefined = match ? PAGE_VIEWS[match.path] : undefined;
  // Home is in the app's entry: nothing to load.
  return view ? ("page" in view ? view.page.preload() : Promise.resolve()) : NotFoundPage.preload();
}

export function AppRoutes() {
  return useRoutes(APP_ROUTES);
}
