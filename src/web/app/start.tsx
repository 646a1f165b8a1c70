import { HydrationBoundary } from "@tanstack/react-query";
import { StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { CatchUpWithAddress } from "./catch-up-with-address";
import { readPageState } from "./page-state";
import { makeQueryClient, Providers } from "./providers";
import { AppRoutes, preloadPage } from "./router";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

/** The whole stylesheet (./stylesheet.ts). One that does not load leaves the page its own rules. */
const wholeStylesheet = () => import("./stylesheet").catch((error: unknown) => console.error(error));

/**
 * Marks the root once React has taken it over: browser tests wait for it before clicking, and
 * the no-JavaScript carousel rules step aside (styles.css). Then the whole stylesheet is asked
 * for, for what the app shows beyond the page as rendered.
 */
function Mounted() {
  useEffect(() => {
    root?.setAttribute("data-hydrated", "");
    void wholeStylesheet();
  }, []);
  return null;
}

const client = makeQueryClient();
const pageState = readPageState(client, document);
const serverRendered = pageState !== undefined && root.hasChildNodes();
const app = (
  <StrictMode>
    <BrowserRouter>
      <Providers client={client}>
        <HydrationBoundary state={pageState}>
          <AppRoutes />
          <CatchUpWithAddress />
          <Mounted />
        </HydrationBoundary>
      </Providers>
    </BrowserRouter>
  </StrictMode>
);

/*
 * The app itself, loaded by the entry (../main.tsx): once the first screen is painted on a page
 * the server rendered, at once on a page the browser renders. Public pages come rendered from
 * the server (entry-server.tsx): take them over. Signed-in pages come empty. Hydrating as a
 * transition lets React do it in slices, yielding to the browser between them, so a phone keeps
 * painting and answering meanwhile. Until React has committed the page, it works as plain HTML:
 * links and GET forms (the catalogue's filters, search, price range and pager), the carousel's
 * anchors, the menu's popover; a value typed or chosen meanwhile is taken over by its control
 * (lib/typed-early.ts). The page's chunk is asked for at once, and the page renders without
 * waiting once it is there.
 */
if (serverRendered) {
  // A chunk that fails to load: the page's error boundary says so when it renders.
  preloadPage(window.location.pathname).catch(() => undefined);
  startTransition(() => void hydrateRoot(root, app));
} else void wholeStylesheet().then(() => createRoot(root).render(app));
