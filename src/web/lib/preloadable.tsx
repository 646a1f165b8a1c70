import { createElement, lazy, type ComponentType, type ReactElement } from "react";

/**
 * A page in a chunk of its own, like `React.lazy`, that can also be loaded ahead of rendering
 * (`preload`). Once loaded it renders at once, without suspending: the browser loads the
 * server-rendered page's chunk before it hydrates (main.tsx), so React can hydrate that page
 * in the same pass as the rest, and a click on it is never waiting for code that is still on
 * its way. Before that (a page reached by a link) it suspends like `React.lazy`. A chunk that
 * fails to load fails every render of the page after, as with `React.lazy`: the page's error
 * boundary shows it.
 */
export interface Preloadable {
  (): ReactElement;
  preload(): Promise<void>;
}

export function preloadable(load: () => Promise<{ default: ComponentType }>): Preloadable {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
    }));
  const Suspending = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType };
  });
  const Page = () => createElement(loaded ?? Suspending);
  Page.preload = preload;
  return Page;
}
