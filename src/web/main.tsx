/**
 * The app's entry, as Vite's own `<script type="module">` tag loads it: when to ask for the app
 * itself (./app/start.tsx, with React: about 100 KB). On a page the server rendered, that tag is
 * added at the window's load event (server/pages/deferred-entry.ts); on a page the browser
 * renders, it is in index.html's head as built.
 *
 * A page the server rendered (entry-server.tsx) is whole and works as plain HTML: links, GET
 * forms, the menu's popover, the carousel's anchors. The app only takes it over. So its code is
 * asked for once the first screen is painted: this entry runs from the window's load event (the
 * first screen's pictures are in), or once deferred-entry.ts stopped waiting for it (a picture that
 * does not come), and asks for the app after the two frames that follow. Asked for with the page,
 * it shared a slow phone's network with the largest picture and held it back: Lighthouse's LCP on
 * the home page, `/tools` and a tool page was 1.4–2.1 s with it, 1.1–1.4 s without (decision 0011).
 * A hidden tab, which paints no frames, asks at once.
 *
 * A page the browser renders itself (a signed-in page: #root comes empty) asks at once, for the
 * app and for the whole stylesheet together: the app waits for the sheet before it renders.
 *
 * A rendered page carries the rules it uses in its head (pages/render.ts); the app asks for the
 * whole sheet once it has taken the page over (app/stylesheet.ts says why). A browser without
 * JavaScript gets the sheet from a `<noscript>` link.
 */
import { startPreloads } from "./app/preloads";

function start(): void {
  startPreloads();
  // A chunk that fails to load (the store redeployed meanwhile): the page stays the server's HTML,
  // which keeps working as links and forms.
  import("./app/start").catch((error: unknown) => console.error(error));
}

function afterFirstScreen(): void {
  if (document.visibilityState === "hidden") start();
  // A frame callback runs before its frame is painted, and the picture that frame shows is
  // presented a little later still: asked for from there, the app came a few milliseconds before
  // the largest paint in some Lighthouse runs, and counted into it. The next frame's callback
  // runs once that frame is on screen.
  else requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start)));
}

if (!document.getElementById("root")?.hasChildNodes()) {
  // The same import as the app's (app/start.tsx): Vite's helper fetches the sheet once.
  import("./app/stylesheet").catch(() => undefined);
  start();
} else {
  // deferred-entry.ts has waited for the load event already: no second wait here.
  afterFirstScreen();
}
