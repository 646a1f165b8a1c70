import { StrictMode, useEffect } from "react";
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
if (serverRendered) hydrateRoot(root, app);
else createRoot(root).render(app);
