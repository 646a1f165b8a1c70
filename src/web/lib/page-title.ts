/**
 * Each page's own title in the browser tab, history and bookmarks, and its own description.
 * The home page's are index.html's (read before any page changes them: written in one place).
 */
import { useEffect } from "react";
import { TEXT } from "../../contract/texts/site";

const descriptionTag = () => document.querySelector('meta[name="description"]');
let home: [title: string, description: string] | undefined;

/**
 * `usePageTitle()` for the home page; `usePageTitle("Cart")` reads "Cart · Toolyard";
 * `null` while the page's data loads leaves the title as it is.
 */
export function usePageTitle(title?: string | null, description?: string): void {
  useEffect(() => {
    if (title === null) return;
    home ??= [document.title, descriptionTag()?.getAttribute("content") ?? ""];
    document.title = title ? `${title} · ${TEXT.brand}` : home[0];
    descriptionTag()?.setAttribute("content", description ?? home[1]);
  }, [title, description]);
}
