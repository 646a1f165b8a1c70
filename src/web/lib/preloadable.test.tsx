import { Suspense } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { preloadable, type Preloadable } from "./preloadable";

const page = (text: string) => ({ default: () => <p>{text}</p> });
const inSuspense = (Page: Preloadable) =>
  renderToString(
    <Suspense fallback={<i>loading</i>}>
      <Page />
    </Suspense>,
  );

describe("preloadable", () => {
  it("suspends like React.lazy until its chunk has loaded", () => {
    const Page = preloadable(() => new Promise(() => undefined));
    expect(inSuspense(Page)).toContain("loading");
  });

  it("renders at once, without suspending, once preloaded", async () => {
    const Page = preloadable(() => Promise.resolve(page("the page")));
    await Page.preload();
    const html = inSuspense(Page);
    expect(html).toContain("the page");
    expect(html).not.toContain("loading");
  });

  it("loads its chunk once, however often it is preloaded or rendered", async () => {
    const load = vi.fn(() => Promise.resolve(page("once")));
    const Page = preloadable(load);
    await Promise.all([Page.preload(), Page.preload()]);
    inSuspense(Page);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("passes a chunk that failed to load on to its caller", async () => {
    const Page = preloadable(() => Promise.reject(new Error("chunk missing")));
    await expect(Page.preload()).rejects.toThrow("chunk missing");
  });
});
