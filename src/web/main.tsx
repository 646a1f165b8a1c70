import { StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { CatchUpWithAddress } from "./app/catch-up-with-address";
import { seedFromPage } from "./app/page-state";
import { makeQueryClient, Providers } from "./app/providers";
import { AppRoutes, preloadPage } from "./app/router";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

/**
 * Marks the root once React has taken it over: browser tests wait for it before clicking, and
 * the no-JavaScript carousel rules step aside (styles.css).
 */
function Mounted() {
  useEffect(() => {
    root?.setAttribute("data-hydrated", "");
  }, []);
  return null;
}

const client = makeQueryClient();
const serverRendered = seedFromPage(client, document) && root.hasChildNodes();
const app = (
  <StrictMode>
    <BrowserRouter>
      <Providers client={client}>
        <AppRoutes />
        <CatchUpWithAddress />
        <Mounted />
      </Providers>
    </BrowserRouter>
  </StrictMode>
);

/*
 * Public pages come rendered from the server (entry-server.tsx): take them over. Signed-in
 * pages come empty. Hydrating as a transition lets React do it in slices, yielding to the
 * browser between them, so a phone keeps painting and answering meanwhile. Until React has
 * committed the page, it works as plain HTML: links and GET forms (the catalogue's filters,
 * search, price range and pager), the carousel's anchors, the menu's popover. The page's chunk is asked for at once
 * (the page's loader has it on its way already) and the page renders without waiting once it
 * is there.
 */
if (serverRendered) {
  // A chunk that fails to load: the page's error boundary says so when it renders.
  preloadPage(window.location.pathname).catch(() => undefined);
  startTransition(() => void hydrateRoot(root, app));
} else createRoot(root).render(app);
