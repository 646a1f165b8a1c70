import { lazy, Suspense } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { BrowserRouter, Link, Route, Routes, useLocation } from "react-router";
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

  // The console's router is the browser's: the address is the window's.
  const open = (at: string) => {
    window.history.replaceState(null, "", at);
    return render(
      <BrowserRouter>
        <Filters />
      </BrowserRouter>,
    );
  };
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

  it("drops a search still waiting when the admin has clicked away to a row, whose page is still loading", async () => {
    // The row's page, loading (its code not yet there): the router keeps the list on screen meanwhile.
    const Order = lazy(() => new Promise<never>(() => {}));
    window.history.replaceState(null, "", "/admin/orders");
    render(
      <BrowserRouter>
        <Suspense fallback={<p>Loading</p>}>
          <Routes>
            <Route
              path="/admin/orders"
              element={
                <>
                  <Filters />
                  <Link to="/admin/orders/7">#7</Link>
                </>
              }
            />
            <Route path="/admin/orders/7" element={<Order />} />
          </Routes>
        </Suspense>
      </BrowserRouter>,
    );
    type("dri");
    fireEvent.click(screen.getByRole("link", { name: "#7" }));
    await act(async () => {
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
      await Promise.resolve();
    });
    expect(`${window.location.pathname}${window.location.search}`).toBe("/admin/orders/7");
  });
});
