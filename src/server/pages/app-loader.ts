/**
 * The app's code on a server-rendered page. The server's HTML is the whole page already; the
 * app's code (about 100 KB) only makes it interactive. Named in the head, the code would share a
 * slow phone's network with the first screen's stylesheet and pictures, and Chrome would run it
 * before painting anything. So the page names none of it: this script, inline at the end of the
 * body, asks for it once the first paint is on the screen (the `first-contentful-paint` entry;
 * a frame callback comes before its frame is shown, and code asked for then was seen to arrive
 * before the paint) and the first screen's pictures are decoded and painted too, at low priority.
 * (Asked for between the two, the code was counted into the largest paint: Lighthouse gave
 * `/` and a tool page an LCP of 1.84–1.91 s in 2 of 24 runs, against 0.76–1.11 s, decision 0011.)
 *
 * - `data-modules` on the script element lists the files in an order where each comes after
 *   what it imports (render.ts). Inserted with `async = false`, they run in that order, each in
 *   a task of its own: the browser may paint and answer input between them.
 * - Script elements rather than `import()`: inserted while the page's pictures still load, they
 *   hold the window's load event until they have run, as the entry's own tag did.
 * - A page opened in a background tab paints no frame until it is shown: there it asks at once,
 *   and a page hidden before its first frame, or whose first pictures are slow, asks after 2 s
 *   at the latest.
 * - Until the app has taken the page over, the page works as plain HTML: its links and GET
 *   forms do what they say (a click before then is a full page load, not lost).
 * - The page carries only the part of the stylesheet its HTML uses (./critical-css.ts); once the
 *   app has taken the page over (main.tsx marks `#root` with `data-hydrated`), this script links
 *   the whole sheet (`data-rest` on that style element), for what the app shows later.
 *
 * The Content-Security-Policy allows this inline script by its hash (plugins/security.ts).
 */
import { createHash } from "node:crypto";

export const APP_LOADER_SCRIPT = `(function () {
  var modules = (document.currentScript.getAttribute("data-modules") || "").split(" ");
  var started = false;
  function start() {
    if (started) return;
    started = true;
    modules.forEach(function (src) {
      if (!src) return;
      var script = document.createElement("script");
      script.type = "module";
      script.src = src;
      script.async = false;
      script.fetchPriority = "low";
      document.head.appendChild(script);
    });
  }
  var entryTypes = window.PerformanceObserver ? PerformanceObserver.supportedEntryTypes || [] : [];
  function afterNextFrame(then) {
    requestAnimationFrame(function () { requestAnimationFrame(function () { setTimeout(then); }); });
  }
  // The first screen's pictures: the largest paint is often the biggest of them, shown after
  // the first paint (text), and code asked for before it is shown shares its network. So the
  // code waits until they are decoded and the biggest has a largest-paint entry (it is on the
  // screen), or a larger paint than it can be has one (a heading, say). Else 100 ms after
  // decoding is the limit.
  function afterFirstScreen() {
    var width = window.innerWidth, height = window.innerHeight, pictures = [], biggest = null, biggestArea = 0;
    Array.prototype.forEach.call(document.images, function (img) {
      if (img.loading === "lazy") return;
      var box = img.getBoundingClientRect();
      var area = Math.max(0, Math.min(box.right, width) - Math.max(box.left, 0)) * Math.max(0, Math.min(box.bottom, height) - Math.max(box.top, 0));
      if (area === 0) return;
      pictures.push(img);
      if (area > biggestArea) {
        biggest = img;
        biggestArea = area;
      }
    });
    if (!biggest || entryTypes.indexOf("largest-contentful-paint") < 0 || !biggest.decode) return afterNextFrame(start);
    var decoded = false, shown = false;
    var observer = new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (entry) {
        if (entry.element === biggest || entry.size >= biggestArea) shown = true;
      });
      if (decoded && shown) go();
    });
    function go() {
      observer.disconnect();
      setTimeout(start);
    }
    observer.observe({ type: "largest-contentful-paint", buffered: true });
    Promise.all(pictures.map(function (img) { return img.decode().catch(function () {}); })).then(function () {
      decoded = true;
      if (shown) go();
      else setTimeout(go, 100);
    });
  }
  if (document.visibilityState === "hidden") start();
  else if (entryTypes.indexOf("paint") >= 0) {
    // The first paint as shown on the screen: later than the frame's own work, which a frame callback would see.
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      setTimeout(afterFirstScreen);
    }).observe({ type: "paint", buffered: true });
  } else afterNextFrame(start);
  // A tab hidden before its first frame draws none until it is shown, and a picture may never
  // load: do not wait for either.
  setTimeout(start, 2000);
  var rest = document.querySelector("style[data-rest]");
  var root = document.getElementById("root");
  if (!rest || !root) return;
  new MutationObserver(function (changes, observer) {
    if (!root.hasAttribute("data-hydrated")) return;
    observer.disconnect();
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = rest.getAttribute("data-rest");
    document.head.appendChild(link);
  }).observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
})();`;

/** The script's hash as the Content-Security-Policy names it. */
export const APP_LOADER_CSP_HASH = `'sha256-${createHash("sha256").update(APP_LOADER_SCRIPT).digest("base64")}'`;
