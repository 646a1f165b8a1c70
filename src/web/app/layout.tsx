import { lazy, useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router";
import { TEXT } from "../../contract/texts/site";
import { HydrationPart } from "../lib/responsive";
import { Navbar } from "./navbar";

/**
 * A new page starts at the top, unless the link points at an anchor (/legal#privacy): then the
 * anchor is scrolled into view, as soon as it exists (its page may still be loading).
 * The page the browser opened is left where the browser put it: a server-rendered page may
 * have been scrolled (and clicked) before the app took it over, and the browser has already
 * scrolled to an anchor it had. Only an anchor still to come (on a page the app renders) is
 * waited for.
 */
export function ScrollOnNavigation() {
  const { pathname, hash } = useLocation();
  const opened = useRef<string | null>(`${pathname}${hash}`);
  useEffect(() => {
    const first = opened.current === `${pathname}${hash}`;
    if (!first) opened.current = null;
    if (first && (!hash || document.getElementById(decodeURIComponent(hash.slice(1))))) return undefined;
    if (!hash) {
      window.scrollTo(0, 0);
      return undefined;
    }
    const id = decodeURIComponent(hash.slice(1));
    const reveal = () => {
      const target = document.getElementById(id);
      target?.scrollIntoView();
      return target !== null;
    };
    if (reveal()) return undefined;
    const observer = new MutationObserver(() => {
      if (reveal()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = window.setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      window.clearTimeout(giveUp);
    };
  }, [pathname, hash]);
  return null;
}

// Last on every page: its own small chunk, off the first download (a server-rendered page shows it at once).
const Footer = lazy(() => import("./footer").then((m) => ({ default: m.Footer })));

export function Layout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        {TEXT.a11y.skipToContent}
      </a>
      <ScrollOnNavigation />
      <Navbar />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <HydrationPart>
        <Footer />
      </HydrationPart>
    </div>
  );
}
