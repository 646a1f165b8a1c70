import { createElement, lazy, type ComponentType, type ReactElement } from "react";

/**
 * A page in a chunk of its own, like `React.lazy`, that can also be loaded ahead of rendering
 * (`preload`). Once loaded it renders at once, without suspending: app/start.tsx asks for the
 * server-rendered page's chunk as it starts hydrating (the page's preloads have it on its way
 * already), so React can hydrate that page in the same pass as the rest once it is there. Before that (a page reached by a link) it suspends like `React.lazy`. A chunk that
 * fails to load fails every render of the page after, as with `React.lazy`: the page's error
 * boundary shows it.
 */
export interface Preloadable {
  (): ReactElement;
  /** Loads the chunk; resolves to its page (the route table's test checks which module that is). */
  preload(): Promise<ComponentType>;
}

export function preloadable(load: () => Promise<{ default: ComponentType }>): Preloadable {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () => (loading ??= load().then((module) => (loaded = module.default)));
  const Suspending = lazy(async () => ({ default: await preload() }));
  const Page = () => createElement(loaded ?? Suspending);
  Page.preload = preload;
  return Page;
}
