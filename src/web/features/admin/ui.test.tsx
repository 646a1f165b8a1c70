import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SEARCH_DEBOUNCE_MS, useDebouncedCallback, useFilters } from "./ui";

/** A console list's filters as the pages use them: a search box and a select-like filter. */
function Filters() {
  const { values, set } = useFilters(["q", "status"] as const);
  const search = useDebouncedCallback((q: string) => set("q", q), SEARCH_DEBOUNCE_MS);
  const location = useLocation();
  return (
    <>
      <input aria-label="Search" defaultValue={values.q} onChange={(e) => search(e.target.value)} />
      <button type="button" onClick={() => set("status", "active")}>
        Active
      </button>
      <output>{location.search}</output>
    </>
  );
}

describe("a console search box", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const open = (at: string) =>
    render(
      <MemoryRouter initialEntries={[at]}>
        <Filters />
      </MemoryRouter>,
    );
  const type = (text: string) => fireEvent.change(screen.getByLabelText("Search"), { target: { value: text } });
  const search = () => screen.getByRole("status").textContent;

  it("puts the text in the address once typing pauses, back on page 1", () => {
    open("/admin/users?page=3");
    for (const text of ["d", "dr", "dri"]) type(text);
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1));
    expect(search()).toBe("?page=3");
    act(() => vi.advanceTimersByTime(1));
    expect(search()).toBe("?q=dri");
    type("");
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(search()).toBe("");
  });

  it("keeps a filter chosen while the search was waiting", () => {
    open("/admin/tools");
    type("saw");
    fireEvent.click(screen.getByRole("button", { name: "Active" }));
    expect(search()).toBe("?status=active");
    act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
    expect(search()).toBe("?status=active&q=saw");
  });
});
