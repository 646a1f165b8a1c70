/**
 * Input that comes before the page's code has run. A server-rendered page is on screen (and
 * clickable, and can be typed into) before React has taken it over: its code comes only once
 * the page is painted (./app-loader.ts), and React hydrates it in slices (main.tsx). React drops
 * a click on a part it has not committed yet, and takes over a typed-in field with what it last
 * rendered, so the shopper's 'Next', choice of sort or typed search did nothing (decision 0011).
 *
 * This script, inline at the top of every server-rendered page, holds such input instead, and
 * does it again once React manages the element and has had a task to commit it. Once something
 * is held, what comes after it is held too, even where React is ready, so that all of it is done
 * in the order it came (text typed, then 'Apply'):
 * - a click on a button, checkbox or radio, or on a link within the page (the carousel's arrows,
 *   which React moves in place): stopped before anything sees it, then `click()`;
 * - a choice in a select: stopped, then the value set and a `change` event;
 * - typing in a text field or text area: left as it is (the field shows it), then the last text
 *   set again so that React sees a change, and an `input` event;
 * - a form sent without a button (Enter in its only field): stopped, then `requestSubmit()`;
 * - a click on a link while other input is held: stopped, then `click()`, so that it does not
 *   leave the page before what came first is done (otherwise links work as links).
 * React manages an element once it has committed the page (main.tsx marks `#root` with
 * `data-hydrated`) and has committed the element too: a part whose code was still on its way
 * is hydrated later, in slices, and React gives the element its fiber and props before it
 * commits the part; a click replayed in between was dropped (React finds no mounted target), as
 * 'Next' on /tools once in 80 (bench/early-clicks.mjs). The check is React's own
 * (getNearestMountedFiber, React 19). While nothing is held, what React already manages passes
 * untouched, so nothing is handled twice. Input held for 20 s (the code never came) is let go,
 * and so is input on a part that React has still not taken over 3 s after the rest of the page,
 * so that what came after it is not held up.
 *
 * The Content-Security-Policy allows this one inline script by its hash (plugins/security.ts).
 */
import { createHash } from "node:crypto";

export const EARLY_INPUT_SCRIPT = `(function () {
  var held = [];
  var timer = 0;
  var waited = 0;
  var replaying = false;
  var TEXT = "textarea, input:not([type=checkbox]):not([type=radio])";
  var CLICKED = "button, input[type=checkbox], input[type=radio], a[href^='#']";
  function hydrated() {
    var root = document.getElementById("root");
    return !!root && root.hasAttribute("data-hydrated");
  }
  function managed(el) {
    if (!hydrated()) return false;
    var fiber = null;
    Object.keys(el).forEach(function (key) { if (key.indexOf("__reactFiber$") === 0) fiber = el[key]; });
    if (!fiber) return false;
    // Committed, as React's own getNearestMountedFiber tells: no fiber on the way up that was
    // never committed is still being placed or hydrated (flags Placement 2 | Hydrating 4096).
    for (var node = fiber; node && !node.alternate; node = node.return) if (node.flags & 4098) return false;
    while (fiber.return) fiber = fiber.return;
    return fiber.tag === 3;
  }
  function heldElement(event) {
    var target = event.target;
    if (!target || !target.closest) return null;
    if (event.type === "click") return target.closest(held.length > 0 ? CLICKED + ", a[href]" : CLICKED);
    if (event.type === "change") return target.closest("select");
    if (event.type === "submit") return target;
    return target.matches(TEXT) ? target : null;
  }
  function hold(event) {
    if (replaying) return;
    var el = heldElement(event);
    if (!el) {
      // A text field's change (on leaving it) would tell React its text before the input held before it.
      if (event.type === "change" && held.length > 0 && event.target.matches && event.target.matches(TEXT)) event.stopPropagation();
      return;
    }
    // Once something is held, what comes after it waits too, even where React is ready: in order.
    if (held.length === 0 && managed(el)) return;
    event.stopPropagation();
    if (event.type === "input") {
      var last = held[held.length - 1];
      if (last && last.type === "input" && last.el === el) last.value = el.value;
      else held.push({ type: "input", el: el, value: el.value, ready: false, waits: 0 });
    } else {
      event.preventDefault();
      held.push({ type: event.type, el: el, value: el.value, ready: false, waits: 0 });
    }
    if (!timer) timer = setInterval(replay, 50);
  }
  function setValue(el, value) {
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value").set.call(el, value);
  }
  function redo(item) {
    var el = item.el;
    if (item.type === "click") {
      el.click();
    } else if (item.type === "submit") {
      el.requestSubmit();
    } else if (item.type === "change") {
      setValue(el, item.value);
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else {
      // Through React's own setter first: React compares what it sees with the last value set.
      el.value = item.value === "" ? " " : "";
      setValue(el, item.value);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  function replay() {
    waited += 1;
    while (held.length > 0) {
      var first = held[0];
      if (!first.el.isConnected) { held.shift(); continue; }
      if (!managed(first.el)) {
        // A part React has still not taken over 3 s after the page: let that input go, not all after it.
        if (hydrated() && ++first.waits > 60) { held.shift(); continue; }
        break;
      }
      if (!first.ready) { first.ready = true; break; }
      held.shift();
      replaying = true;
      try { redo(first); } finally { replaying = false; }
    }
    if (held.length === 0 || waited > 400) {
      held = [];
      clearInterval(timer);
      timer = 0;
      waited = 0;
    }
  }
  addEventListener("click", hold, true);
  addEventListener("change", hold, true);
  addEventListener("input", hold, true);
  addEventListener("submit", hold, true);
})();`;

/** The script's hash as the Content-Security-Policy names it. */
export const EARLY_INPUT_CSP_HASH = `'sha256-${createHash("sha256").update(EARLY_INPUT_SCRIPT).digest("base64")}'`;
