import { useEffect, useRef } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { NavKitProvider, type NavKit } from "../lib/nav-kit";
import { preloadable } from "../lib/preloadable";
import { Navbar } from "./navbar";
import { SiteFrame } from "./site-frame";

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
const Footer = preloadable(() => import("./footer").then((m) => ({ default: m.Footer })));

/** Loads the footer's chunk (the app taking a page over from the home page's first load: start.tsx). */
export const preloadFooter = (): Promise<unknown> => Footer.preload();

/** The shared parts' links are the router's (lib/nav-kit.tsx). */
const ROUTER_LINKS: NavKit = { Link, NavLink };

export function Layout() {
  return (
    <NavKitProvider value={ROUTER_LINKS}>
      <ScrollOnNavigation />
      <SiteFrame navbar={<Navbar />} footer={<Footer />}>
        <Outlet />
      </SiteFrame>
    </NavKitProvider>
  );
}
