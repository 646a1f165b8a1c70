import { StrictMode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { seedFromPage } from "./app/page-state";
import { makeQueryClient, Providers } from "./app/providers";
import { AppRoutes } from "./app/router";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

/** Marks the root once React has taken it over (browser tests wait for it before clicking). */
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
        <Mounted />
      </Providers>
    </BrowserRouter>
  </StrictMode>
);

// Public pages come rendered from the server (entry-server.tsx): take them over. Signed-in pages come empty.
// Hydrating inside a transition lets React yield to the browser every few milliseconds (a
// default-priority hydration runs to the end in one task): the page stays responsive while it is
// taken over, and a click on a part not yet hydrated hydrates that part first.
if (serverRendered)
  startTransition(() => {
    hydrateRoot(root, app);
  });
else createRoot(root).render(app);
