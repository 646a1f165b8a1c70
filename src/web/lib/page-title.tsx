/**
 * Each page's own title in the browser tab, history and bookmarks, and its own description, as
 * React 19's document metadata: the page renders `<title>` and `<meta name="description">`
 * (PageTitle) and React puts them into the head, in the browser and in the server's HTML alike
 * (pages/render.ts takes them from the start of the rendered HTML into the template's head).
 * On the server the page also records them, with its picture, JSON-LD and status, into
 * PageHeadContext: the server writes the OpenGraph, Twitter, canonical and JSON-LD tags from
 * that (they need the store's public address, which only the server knows, and only crawlers
 * and link previews read them, from the server's HTML).
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

const fullTitle = (title: string | undefined) => (title ? `${title} · ${TEXT.brand}` : TEXT.meta.title);

/** The title this browser shows: a page whose title waits for its data keeps it meanwhile. */
let shown: string | undefined;

/**
 * `<PageTitle />` for the home page; `<PageTitle title="Cart" />` reads "Cart · Toolyard";
 * `title={null}` while the page's data loads leaves the title as it is.
 */
export function PageTitle({ title, description }: { title?: string | null; description?: string }) {
  const head = useContext(PageHeadContext);
  const full = title === null ? shown : fullTitle(title);
  // An effect: the browser's only (one module serves every request on the server).
  useEffect(() => {
    if (title !== null) shown = full;
  }, [title, full]);
  if (title === null) return full === undefined ? null : <title>{full}</title>;
  const text = description ?? TEXT.meta.description;
  head?.record({ title: full, description: text });
  return (
    <>
      <title>{full}</title>
      <meta name="description" content={text} />
    </>
  );
}

/** More of the page's head (picture, JSON-LD) or its status, for the server's HTML. */
export function usePageHead(extra: Omit<PageHead, "title" | "description">): void {
  const head = useContext(PageHeadContext);
  head?.record(extra);
}
