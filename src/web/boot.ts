/**
 * The only script a server-rendered page names in its HTML (src/server/pages/render.ts puts it
 * in place of the app's entry and its module preloads). It asks for the app's files at low
 * priority, in an order where each comes after what it imports (`data-modules`, ordered by the
 * server), and has them run one after another, each in a task of its own.
 *
 * - Low priority: the server's HTML is the whole page already; the app's code (about 100 KB)
 *   only makes it interactive. At the browser's default (high) priority it would share a slow
 *   phone network with the first screen's pictures, and hold back the first paint.
 * - One task each: the browser may paint and answer input between them, instead of one long
 *   task for all the code.
 * - Script elements, not import(): asked for while the page loads, they hold the window's load
 *   event until they have run, as the entry's own script tag would.
 */
for (const src of document.querySelector<HTMLScriptElement>("script[data-modules]")?.dataset.modules?.split(" ") ?? []) {
  // async = false: inserted scripts run in the order they were inserted.
  document.head.append(Object.assign(document.createElement("script"), { type: "module", src, async: false, fetchPriority: "low" }));
}
