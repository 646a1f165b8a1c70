import { render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { CatchUpWithAddress } from "./catch-up-with-address";

function Shown() {
  const { pathname, search } = useLocation();
  return <p>{`shown ${pathname}${search}`}</p>;
}

describe("CatchUpWithAddress", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("shows the page the address names when it changed before the router listened (Back during hydration)", async () => {
    window.history.replaceState(null, "", "/tools?page=1");
    render(
      <MemoryRouter initialEntries={["/tools?page=2"]}>
        <Shown />
        <CatchUpWithAddress />
      </MemoryRouter>,
    );
    await waitFor(() => expect(screen.getByText("shown /tools?page=1")).toBeInTheDocument());
  });

  it("leaves the page alone when the address is the one shown", async () => {
    window.history.replaceState(null, "", "/tools?page=2");
    render(
      <MemoryRouter initialEntries={["/tools?page=2"]}>
        <Shown />
        <CatchUpWithAddress />
      </MemoryRouter>,
    );
    // One more turn for an effect that would navigate.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText("shown /tools?page=2")).toBeInTheDocument();
  });
});
