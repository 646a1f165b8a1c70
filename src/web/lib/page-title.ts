/**
 * Each page's own title in the browser tab, history and bookmarks, and its own description.
 * In the browser an effect writes them into the document; on the server (entry-server.tsx)
 * the same calls write them into the page's head while it renders, so the HTML carries
 * them too (one place for each page's title, both sides).
 */
import { createContext, useContext, useEffect } from "react";
import { TEXT } from "../../contract/texts/site";

/** What a page says about itself to the server's HTML: head tags and the response status. */
export interface PageHead {
  /** The full `<title>`; undefined is the home page's. */
  title?: string;
  description?: string;
  /** A picture for link previews (OpenGraph, Twitter). */
  image?: string;
  /** schema.org data, written as JSON-LD. */
  jsonLd?: Record<string, unknown>;
  /** 404 when the page is the 404 page (an unknown path, an unknown tool). */
  status?: number;
}

/** Where a page records its head while the server renders it (null in the browser). */
export interface PageHeadRecorder {
  record(part: PageHead): void;
}

/** Set by the server's render only; null in the browser. */
export const PageHeadContext = createContext<PageHeadRecorder | null>(null);

const descriptionTag = () => document.querySelector('meta[name="description"]');

const fullTitle = (title: string | undefined) => (title ? `${title} · ${TEXT.brand}` : TEXT.meta.title);

/**
 * `usePageTitle()` for the home page; `usePageTitle("Cart")` reads "Cart · Toolyard";
 * `null` while the page's data loads leaves the title as it is.
 */
export function usePageTitle(title?: string | null, description?: string): void {
  const head = useContext(PageHeadContext);
  if (head && title !== null) head.record({ title: fullTitle(title), description: description ?? TEXT.meta.description });
  useEffect(() => {
    if (title === null) return;
    document.title = fullTitle(title);
    descriptionTag()?.setAttribute("content", description ?? TEXT.meta.description);
  }, [title, description]);
}

/** More of the page's head (picture, JSON-LD) or its status, for the server's HTML. */
export function usePageHead(extra: Omit<PageHead, "title" | "description">): void {
  const head = useContext(PageHeadContext);
  head?.record(extra);
}
