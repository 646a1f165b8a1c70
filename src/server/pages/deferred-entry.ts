/**
 * When a server-rendered page asks for the app's entry: once its first screen is on screen, not
 * while it loads.
 *
 * The entry is Vite's own tags, as built (its `<script type="module">` and the modulepreload of
 * Vite's import helper). In the page's head, the browser fetched both while the first screen's
 * pictures loaded, and Lighthouse counted them into the largest paint: the home page's LCP was
 * 1.53–1.77 s with them in the head or at the end of the body, 1.16–1.17 s without them
 * (decision 0011). So a rendered page carries them in an inert `<template>`, and this script,
 * inline at the end of the body, puts a copy of them into the head once the window's load event
 * has come and the first paint is on screen (ENTRY_WAIT_MS at the latest: a picture that never
 * comes). A copy, because a script element the parser put into a template never runs; its clone
 * does, like any script added to a page. The entry then asks for the app at once
 * (src/web/main.tsx). A page the browser renders (signed-in) keeps Vite's tags as built.
 *
 * The Content-Security-Policy allows this one inline script by its hash (plugins/security.ts).
 */
import { createHash } from "node:crypto";

/** The inert template that holds Vite's entry tags on a rendered page. */
export const ENTRY_TEMPLATE_ID = "toolyard-entry";
/** How long the entry waits for the page's load event and first paint at most. */
export const ENTRY_WAIT_MS = 3000;

/**
 * Runs in the browser, as the inline script's whole text (its source, by `toString`): it must
 * name nothing outside itself.
 *
 * The load event can come before the first screen is painted (on a fast machine), and a frame's
 * picture is presented a frame or more after its frame callback ran (the compositor's own time):
 * tags added at the load event, or two frames after it, were still fetched before the largest
 * paint in some runs. The browser reports the first contentful paint once it is on screen (Paint
 * Timing): the tags are added two frames after both that report and the load event. A hidden tab
 * paints nothing and reports no paint: at its load event.
 */
function addEntryOnLoad(templateId: string, waitMs: number): void {
  const template = document.getElementById(templateId);
  if (!(template instanceof HTMLTemplateElement)) return;
  let added = false;
  const add = () => {
    if (added) return;
    added = true;
    document.head.append(document.importNode(template.content, true));
  };
  setTimeout(add, waitMs);
  let loaded = document.readyState === "complete";
  let painted = false;
  const addOncePainted = () => {
    if (!loaded) return;
    if (document.visibilityState === "hidden") add();
    else if (painted) requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(add)));
  };
  new PerformanceObserver((entries, observer) => {
    if (!entries.getEntriesByName("first-contentful-paint").length) return;
    observer.disconnect();
    painted = true;
    addOncePainted();
  }).observe({ type: "paint", buffered: true });
  if (loaded) addOncePainted();
  else {
    window.addEventListener(
      "load",
      () => {
        loaded = true;
        addOncePainted();
      },
      { once: true },
    );
  }
}

/** The inline script's text. */
export const ENTRY_ON_LOAD_SCRIPT = `(${addEntryOnLoad.toString()})(${JSON.stringify(ENTRY_TEMPLATE_ID)}, ${ENTRY_WAIT_MS});`;

/** The script's hash as the Content-Security-Policy names it. */
export const ENTRY_ON_LOAD_CSP_SOURCE = `'sha256-${createHash("sha256").update(ENTRY_ON_LOAD_SCRIPT).digest("base64")}'`;
