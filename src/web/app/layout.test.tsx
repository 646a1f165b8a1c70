import { act, render } from "@testing-library/react";
import { MemoryRouter, useNavigate, type NavigateFunction } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ScrollOnNavigation } from "./layout";

describe("ScrollOnNavigation", () => {
  let navigate: NavigateFunction | undefined;
  function Navigator() {
    navigate = useNavigate();
    return null;
  }
  const scrollTo = vi.fn();
  beforeEach(() => {
    scrollTo.mockClear();
    vi.stubGlobal("scrollTo", scrollTo);
  });
  afterEach(() => vi.unstubAllGlobals());

  const open = (at: string) =>
    render(
      <MemoryRouter initialEntries={[at]}>
        <ScrollOnNavigation />
        <Navigator />
      </MemoryRouter>,
    );

  it("leaves the page the browser opened where it is (the shopper may have scrolled it already)", () => {
    open("/tools");
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it("brings a page reached in the app to the top, and the page first opened too when it is reached again", async () => {
    open("/tools");
    await act(() => navigate?.("/about"));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    await act(() => navigate?.("/tools"));
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });

  it("scrolls to an anchor that the page the browser opened does not have yet, once it comes", async () => {
    const scrolled = vi.fn();
    open("/legal#privacy");
    const anchor = Object.assign(document.createElement("h2"), { id: "privacy", scrollIntoView: scrolled });
    await act(async () => {
      document.body.append(anchor);
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(scrolled).toHaveBeenCalled();
    anchor.remove();
  });
});
