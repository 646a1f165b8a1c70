import { HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { flushSync } from "react-dom";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { BrowserRouter } from "react-router";
import type { SessionUser } from "../../contract/schemas";
import { preloadBelowTheFold } from "../features/home";
import { sessionQuery } from "../lib/session";
import { CatchUpWithAddress } from "./catch-up-with-address";
import { preloadFooter } from "./layout";
import { PAGE_STATE_ID, readPageState } from "./page-state";
import { Mounted, wholeStylesheet } from "./mounted";
import { makeQueryClient, Providers } from "./providers";
import { AppRoutes, preloadPage } from "./router";

/**
 * The app's tree. `catchUp`: on a page it takes over as it loads (CatchUpWithAddress); not when
 * it takes over from the home page's first load, whose router starts at the address as it is
 * (and whose first render may itself move on, to /login, with a state a catch-up would drop).
 */
function app(client: QueryClient, catchUp = true) {
  return (
    <StrictMode>
      <BrowserRouter>
        <Providers client={client}>
          <HydrationBoundary state={readPageState(client, document)}>
            <AppRoutes />
            {catchUp && <CatchUpWithAddress />}
            <Mounted />
          </HydrationBoundary>
        </Providers>
      </BrowserRouter>
    </StrictMode>
  );
}

/*
 * The app itself, loaded by the entry (../main.tsx): once the first screen is painted on a page
 * the server rendered, at once on a page the browser renders. Public pages come rendered from
 * the server (entry-server.tsx): take them over. Signed-in pages come empty. Hydrating as a
 * transition lets React do it in slices, yielding to the browser between them, so a phone keeps
 * painting and answering meanwhile. Until React has committed the page, it works as plain HTML:
 * links and GET forms (the catalogue's filters, search, price range and pager), the carousel's
 * anchors, the menu's popover; a value typed or chosen meanwhile is taken over by its control
 * (lib/typed-early.ts). The page's chunk is asked for at once, and the page renders without
 * waiting once it is there. (The home page's first load is home-start.tsx's, without this app.)
 */
export function startApp(): void {
  const root = document.getElementById("root");
  if (!root) throw new Error("#root is missing from index.html");
  const client = makeQueryClient();
  if (root.hasChildNodes() && document.getElementById(PAGE_STATE_ID)) {
    // A chunk that fails to load: the page's error boundary says so when it renders.
    preloadPage(window.location.pathname).catch(() => undefined);
    // The footer's too, though it is below the first screen: until React has hydrated it, every
    // move in the app (a link, a filter) waits for its chunk, as a move changes the address every
    // boundary left to hydrate may read. It was asked for only when hydration reached it, at the
    // end of the page: with its chunk held 12 s, a category chosen as the app took /tools over
    // showed 12 s late (issue 54).
    preloadFooter().catch(() => undefined);
    startTransition(() => void hydrateRoot(root, app(client)));
  } else void wholeStylesheet().then(() => createRoot(root).render(app(client)));
}

/**
 * What the page at `pathname` renders from code of its own, loaded (its chunk, the footer's; the
 * home page's sections below the first screen), so that the app shows it whole at once when it
 * takes the page over from the home page's first load.
 */
export function preloadFor(pathname: string): Promise<unknown> {
  return Promise.all([preloadPage(pathname), preloadFooter(), pathname === "/" ? preloadBelowTheFold() : undefined]);
}

/**
 * The app taking over a page the home page's first load hydrated (home-start.tsx), in one
 * render, at the address the window has now: React replaces that first load's tree with the
 * app's. `user`: the session as the first load read it (not asked for again).
 */
export function renderApp(root: Root, user: SessionUser | null | undefined): void {
  const client = makeQueryClient();
  if (user !== undefined) client.setQueryData(sessionQuery.queryKey, user);
  flushSync(() => root.render(app(client, false)));
}
