/**
 * Input that comes before the page's code has run. A server-rendered page is on screen (and
 * clickable) before React has taken it over, and React drops a click on a part it has not taken
 * over yet: the shopper's 'Next' or choice of sort did nothing, and a browser test that clicked
 * right after the page loaded failed now and then (decision 0011).
 *
 * This script, inline at the top of every server-rendered page, holds such input instead: a
 * click on a button or a choice in a select that React does not manage yet (the element has no
 * React props) is stopped before React sees it, and done again, in order, once React manages the
 * element and has had a task to commit it. What React already manages passes untouched; links
 * keep working as links. Input held for 10 s (the code never came) is let go.
 *
 * The Content-Security-Policy allows this one inline script by its hash (plugins/security.ts).
 */
import { createHash } from "node:crypto";

export const EARLY_INPUT_SCRIPT = `(function () {
  var held = [];
  var timer = 0;
  var waited = 0;
  function managed(el) {
    return Object.keys(el).some(function (key) { return key.indexOf("__reactProps$") === 0; });
  }
  function hold(event) {
    var target = event.target;
    var el = target && target.closest ? target.closest(event.type === "click" ? "button" : "select") : null;
    if (!el || managed(el)) return;
    event.stopPropagation();
    event.preventDefault();
    held.push({ type: event.type, el: el, value: el.value, ready: false });
    if (!timer) timer = setInterval(replay, 50);
  }
  function replay() {
    waited += 1;
    while (held.length > 0) {
      var first = held[0];
      if (!first.el.isConnected) { held.shift(); continue; }
      if (!managed(first.el)) break;
      if (!first.ready) { first.ready = true; break; }
      held.shift();
      if (first.type === "click") {
        first.el.click();
      } else {
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, "value").set.call(first.el, first.value);
        first.el.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }
    if (held.length === 0 || waited > 200) {
      held = [];
      clearInterval(timer);
      timer = 0;
      waited = 0;
    }
  }
  addEventListener("click", hold, true);
  addEventListener("change", hold, true);
})();`;

/** The script's hash as the Content-Security-Policy names it. */
export const EARLY_INPUT_CSP_HASH = `'sha256-${createHash("sha256").update(EARLY_INPUT_SCRIPT).digest("base64")}'`;
