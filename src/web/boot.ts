/**
 * The only script a server-rendered page names in its HTML (src/server/pages/render.ts puts it
 * in place of the app's entry and its module preloads). Once the page's first frame is painted,
 * it asks for the app's files at low priority, in an order where each comes after what it
 * imports (`data-modules`, ordered by the server), and has them run one after another, each in
 * a task of its own.
 *
 * - After the first paint, at low priority: the server's HTML is the whole page already (its
 *   largest picture is decoded with that frame); the app's code (about 100 KB) only makes it
 *   interactive. Asked for earlier, it would share a slow phone network with the first screen.
 * - One task each: the browser may paint and answer input between them, instead of one long
 *   task for all the code.
 * - Script elements, not import(): asked for while the page's pictures still load, they hold the
 *   window's load event until they have run, as the entry's own script tag would.
 */
function start(): void {
  for (const src of document.querySelector<HTMLScriptElement>("script[data-modules]")?.dataset.modules?.split(" ") ?? []) {
    // async = false: inserted scripts run in the order they were inserted.
    document.head.append(Object.assign(document.createElement("script"), { type: "module", src, async: false, fetchPriority: "low" }));
  }
}

// A timer set in a frame's callback runs once that frame is drawn.
requestAnimationFrame(() => setTimeout(start));
