/**
 * The home page's first load (decision 0025): React takes over the parts of the server's page
 * that answer a visitor at once, and nothing else. The navigation bar (the menu's state, the
 * cart's count from this browser, whether anyone is signed in) and the carousel are hydrated;
 * every other section stays the HTML the server rendered, a Suspense boundary React leaves as it
 * is (selective hydration), whose links and GET form work as HTML. None of this needs the router
 * or the data layer, so neither is downloaded: the app (start.tsx, about 30 KB more) comes when
 * the visitor is about to move on (a pointer over a link, a focus, a touch), and takes the page
 * over when they do (a link followed or a GET form sent in the page: the app renders the page
 * they asked for, in the same document, as a link of the app would). A signed-in visitor, or a
 * page whose data failed on the server (its retry is the app's), gets the app at once.
 *
 * Kept free of react-router and TanStack Query (vite.config.ts's `home-start` chunk, bench:page).
 */
import { StrictMode, startTransition, use, useSyncExternalStore, type ReactNode } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import type { SessionResponse, SessionUser } from "../../contract/schemas";
import { CartButton, countOf, useGuestCart } from "../features/cart";
import { HomeFrame } from "../features/home";
import { HydrationPart } from "../lib/responsive";
import { Mounted } from "./mounted";
import type * as AppModule from "./start";
import { NavbarView } from "./navbar-view";
import { PAGE_STATE_ID } from "./page-state";
import { SiteFrame } from "./site-frame";

/** Never settles: a section that waits on it is left as the server rendered it until the app replaces the page. */
const appsOwn = new Promise<never>(() => undefined);

/** A section whose code is the app's: as the server rendered it, links and forms working as HTML. */
function AsRendered(): ReactNode {
  return use(appsOwn);
}

/** The session, asked for once as the page starts (GET /api/auth/get-session, as the app's session query asks). */
let session: { pending: boolean; user: SessionUser | null } = { pending: true, user: null };
const sessionListeners = new Set<() => void>();
const subscribeToSession = (onChange: () => void) => {
  sessionListeners.add(onChange);
  return () => sessionListeners.delete(onChange);
};

function GuestCart() {
  return <CartButton count={countOf(useGuestCart())} />;
}

/** The navigation bar for a visitor (a signed-in one gets the app: their cart is on the server). */
function FirstLoadNavbar() {
  const pending = useSyncExternalStore(
    subscribeToSession,
    () => session.pending,
    () => true,
  );
  return (
    <NavbarView
      user={null}
      isPending={pending}
      onSignOut={() => undefined}
      cart={
        <HydrationPart>
          <GuestCart />
        </HydrationPart>
      }
    />
  );
}

const firstLoad = (
  <StrictMode>
    <SiteFrame navbar={<FirstLoadNavbar />} footer={<AsRendered />}>
      <HomeFrame parts={{ categories: <AsRendered />, ourTools: <AsRendered />, infoStrip: <AsRendered />, reviews: <AsRendered />, looks: <AsRendered /> }} />
    </SiteFrame>
    <Mounted />
  </StrictMode>
);

type App = typeof AppModule;
let appCode: Promise<App> | undefined;
const loadApp = () => (appCode ??= import("./start"));

/** undefined: the first load holds the page; null: the app takes it over where it is; a path: the page the visitor asked for. */
let destination: string | null | undefined;

/** The first load's listeners on the root, removed once the app has the page: its own links and forms are its own. */
const listening = new AbortController();

/** The app replaces the first load, at `to` (pushed on the history, as a link of the app does) or where the page is. */
function takeOver(root: Root, to: string | null): void {
  const first = destination === undefined;
  // A second click while the app comes: the latest one wins.
  destination = to ?? destination ?? null;
  if (!first) return;
  loadApp()
    .then(async (app) => {
      const path = destination ?? window.location.pathname;
      await app.preloadFor(new URL(path, window.location.href).pathname).catch(() => undefined);
      const target = destination ?? null;
      if (target !== null) window.history.pushState(null, "", target);
      listening.abort();
      app.renderApp(root, session.pending ? undefined : session.user);
      if (target === null) return;
      // A new page starts at its top, or at the anchor it names (app/layout.tsx's ScrollOnNavigation leaves the first page it renders where it is).
      const { hash } = window.location;
      if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
      else window.scrollTo(0, 0);
    })
    .catch((error: unknown) => {
      // The app's chunk did not come (the store redeployed meanwhile): the page the visitor asked for, from the server.
      console.error(error);
      if (destination) window.location.assign(destination);
    });
}

/** A same-origin address the app renders as a page (not a file, not the API); null for anything else. */
function pageAddress(url: URL): string | null {
  if (url.origin !== window.location.origin || /^\/api\/|\.\w+$/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The link a click follows, when the app should follow it: a plain click on a link to another page of the store. */
function followedLink(event: Event): string | null {
  if (event.defaultPrevented) return null;
  if (event instanceof MouseEvent && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)) return null;
  const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== "_self") || anchor.hasAttribute("download")) return null;
  const url = new URL(anchor.href);
  // Within this page: the skip link, the carousel's arrows.
  if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return null;
  return pageAddress(url);
}

/** The address a GET form of the page sends (the home page's 'Request For Quote'), when the app should show it. */
function sentForm(event: SubmitEvent): string | null {
  const form = event.target;
  if (event.defaultPrevented || !(form instanceof HTMLFormElement) || form.method !== "get" || (form.target && form.target !== "_self")) return null;
  const url = new URL(form.action, window.location.href);
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form, event.submitter)) if (typeof value === "string") params.append(name, value);
  url.search = params.toString();
  return pageAddress(url);
}

export function startHome(): void {
  const container = document.getElementById("root");
  if (!container) throw new Error("#root is missing from index.html");
  let root: Root | undefined;
  startTransition(() => void (root = hydrateRoot(container, firstLoad)));
  const app = (to: string | null) => {
    if (root) takeOver(root, to);
  };

  // React's own listeners on the root come first (the carousel's arrows, the menu): what they
  // handled is left alone (defaultPrevented). The rest is the visitor moving on.
  const { signal } = listening;
  container.addEventListener(
    "click",
    (event) => {
      const to = followedLink(event);
      if (to === null) return;
      event.preventDefault();
      app(to);
    },
    { signal },
  );
  container.addEventListener(
    "submit",
    (event) => {
      const to = sentForm(event);
      if (to === null) return;
      event.preventDefault();
      app(to);
    },
    { signal },
  );
  // About to move on: the app's code is asked for, so the click finds it there.
  const intent = (event: Event) => {
    const target = event.target instanceof Element ? event.target.closest("a[href], form") : null;
    if (target) void loadApp().catch(() => undefined);
  };
  for (const type of ["pointerover", "focusin", "touchstart"] as const) container.addEventListener(type, intent, { passive: true, signal });

  // A page whose data failed on the server shows its error, and its retry is the app's.
  const failed = /"status":"error"/.test(document.getElementById(PAGE_STATE_ID)?.textContent ?? "");
  if (failed) app(null);

  fetch("/api/auth/get-session", { credentials: "same-origin", headers: { accept: "application/json" } })
    .then(async (response) => (response.ok ? ((await response.json()) as SessionResponse | null) : null))
    .catch(() => null)
    .then((answer) => {
      session = { pending: false, user: answer?.user ?? null };
      for (const listener of sessionListeners) listener();
      // A signed-in visitor: their cart (and a guest cart to join to it) is the app's.
      if (session.user) app(null);
    })
    .catch((error: unknown) => console.error(error));
}
