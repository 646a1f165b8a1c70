/**
 * The only script a server-rendered page loads at once (src/server/pages/render.ts puts it in
 * place of the app's entry): it asks for the app's code once the page has shown its content.
 *
 * The server's HTML is the whole page already; the app's code (about 100 KB) only makes it
 * interactive. Fetched together with the page, on a slow phone network it would share the
 * bandwidth with the first screen's pictures and hold back the largest paint. So: first the
 * page and its pictures (the window's load event), then a frame, then the app. All its files
 * are asked for at once (`data-modules`: the chunks the entry imports, then the entry;
 * `data-preload`: the route's own chunks), and run one after another, each in a task of its
 * own, so that a phone's main thread is never blocked by all of them in one long task. A page
 * whose pictures are slow waits at most START_LATEST_MS.
 */
const START_LATEST_MS = 3000;

const { modules = "", preload = "" } = document.querySelector<HTMLScriptElement>("script[data-modules]")?.dataset ?? {};
const order = modules.split(" ").filter(Boolean);
let started = false;

/** The next task: what ran before is done, and the browser may paint or answer input in between. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

async function start(): Promise<void> {
  if (started || order.length === 0) return;
  started = true;
  // Module scripts and module preloads are same-origin CORS requests by default: no crossorigin needed.
  for (const href of [...order, ...preload.split(" ").filter(Boolean)]) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "modulepreload", href }));
  }
  for (const href of order) {
    await import(/* @vite-ignore */ href);
    await nextTask();
  }
}

/** After the next frame is painted: a timer set in a frame's callback runs once that frame is drawn. */
const afterPaint = () => requestAnimationFrame(() => setTimeout(() => void start()));

if (document.readyState === "complete") afterPaint();
else addEventListener("load", afterPaint, { once: true });
setTimeout(() => void start(), START_LATEST_MS);
