/**
 * The app's entry, as Vite's own `<script type="module">` tag loads it: it asks for the app itself
 * (./app/start.tsx, with React: about 100 KB), or on the home page for its first load
 * (./app/home-start.tsx, React without the router and the data layer), and for the route's chunks
 * (./app/preloads.ts).
 *
 * A page the server rendered (entry-server.tsx) is whole and works as plain HTML: links, GET
 * forms, the menu's popover, the carousel's anchors. The app only takes it over. So its code is
 * asked for once the first screen is painted: the entry's tags wait in the page until the window's
 * load event has come and the first paint is on screen (server/pages/deferred-entry.ts, decision
 * 0011), and the entry asks at once.
 *
 * A page the browser renders itself (a signed-in page: #root comes empty) has the tag in its head
 * as built, and asks for the app and for the whole stylesheet together: the app waits for the
 * sheet before it renders. A rendered page carries the rules it uses in its head
 * (pages/render.ts); the app asks for the whole sheet once it has taken the page over
 * (app/stylesheet.ts says why). A browser without JavaScript gets the sheet from a `<noscript>` link.
 */
import { startPreloads } from "./app/preloads";

if (!document.getElementById("root")?.hasChildNodes()) {
  // The same import as the app's (app/start.tsx): Vite's helper fetches the sheet once.
  import("./app/stylesheet").catch(() => undefined);
}
startPreloads();
// A chunk that fails to load (the store redeployed meanwhile): the page stays the server's HTML,
// which keeps working as links and forms.
// The home page as the server rendered it has a first load of its own, without the router and the
// data layer (app/home-start.tsx, decision 0025); every other page gets the app.
if (window.location.pathname === "/" && document.getElementById("root")?.hasChildNodes()) {
  import("./app/home-start").then((home) => home.startHome(), (error: unknown) => console.error(error));
} else import("./app/start").then((app) => app.startApp(), (error: unknown) => console.error(error));
