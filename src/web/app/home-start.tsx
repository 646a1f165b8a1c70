/**
 * The home page's first load (decision 0025): React takes over the parts of the server's page
 * that answer a visitor at once, and nothing else. The navigation bar (the menu's state, the
 * cart's count from this browser, whether anyone is signed in) and the carousel are hydrated;
 * every other section stays the HTML the server rendered, a Suspense boundary React leaves as it
 * is (selective hydration), whose links and GET form work as HTML. None of this needs the router
 * or the data layer, so neither is downloaded. A link followed or a form sent is the browser's:
 * the next page comes rendered from the server with the app. A signed-in visitor, or a page whose
 * data failed on the server (its retry is the app's), gets the app at once, over this page.
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

/** The app takes the page over where it is (a signed-in visitor, a page whose data failed): once. */
let takingOver: Promise<void> | undefined;
function takeOver(root: Root): void {
  takingOver ??= import("./start")
    .then(async (app: App) => {
      await app.preloadFor(window.location.pathname).catch(() => undefined);
      app.renderApp(root, session.pending ? undefined : session.user);
    })
    // The app's chunk did not come (the store redeployed meanwhile): the page stays the server's HTML.
    .catch((error: unknown) => console.error(error));
}

export function startHome(): void {
  const container = document.getElementById("root");
  if (!container) throw new Error("#root is missing from index.html");
  let root: Root | undefined;
  startTransition(() => void (root = hydrateRoot(container, firstLoad)));
  const app = () => {
    if (root) takeOver(root);
  };
  // A link followed or a form sent from the first load is the browser's: the next page comes from
  // the server, rendered, with the app's code (decision 0011).

  // A page whose data failed on the server shows its error, and its retry is the app's.
  const failed = /"status":"error"/.test(document.getElementById(PAGE_STATE_ID)?.textContent ?? "");
  if (failed) app();

  fetch("/api/auth/get-session", { credentials: "same-origin", headers: { accept: "application/json" } })
    .then(async (response) => (response.ok ? ((await response.json()) as SessionResponse | null) : null))
    .catch(() => null)
    .then((answer) => {
      session = { pending: false, user: answer?.user ?? null };
      for (const listener of sessionListeners) listener();
      // A signed-in visitor: their cart (and a guest cart to join to it) is the app's.
      if (session.user) app();
    })
    .catch((error: unknown) => console.error(error));
}
