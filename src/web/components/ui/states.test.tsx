import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QueryView } from "./states";

const base = { data: undefined, isPending: false, isError: false, error: null, refetch: vi.fn() };
const view = (query: Parameters<typeof QueryView<string[]>>[0]["query"]) =>
  render(
    <QueryView query={query} isEmpty={(d: string[]) => d.length === 0} empty="Nothing yet">
      {(d) => <ul>{d.map((x) => <li key={x}>{x}</li>)}</ul>}
    </QueryView>,
  );

describe("QueryView", () => {
  it("shows a loading status while pending", () => {
    view({ ...base, isPending: true });
    expect(screen.getByRole("status")).toHaveTextContent("Loading…");
  });

  it("shows the error with a retry that refetches", async () => {
    const refetch = vi.fn();
    view({ ...base, isError: true, error: new Error("Server down"), refetch });
    expect(screen.getByRole("alert")).toHaveTextContent("Server down");
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it("shows the empty state, then the content", () => {
    const { rerender } = view({ ...base, data: [] });
    expect(screen.getByText("Nothing yet")).toBeInTheDocument();
    rerender(
      <QueryView query={{ ...base, data: ["a", "b"] }} isEmpty={(d: string[]) => d.length === 0} empty="Nothing yet">
        {(d) => <ul>{d.map((x) => <li key={x}>{x}</li>)}</ul>}
      </QueryView>,
    );
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
  });
});
