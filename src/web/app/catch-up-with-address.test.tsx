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

  /** The router showing `shown` while the browser's address is `address`. */
  const open = (address: string, shown: string) => {
    window.history.replaceState(null, "", address);
    render(
      <MemoryRouter initialEntries={[shown]}>
        <Shown />
        <CatchUpWithAddress />
      </MemoryRouter>,
    );
  };

  it("shows the page the address names when it changed before the router listened (Back during hydration)", async () => {
    open("/tools?page=1", "/tools?page=2");
    await waitFor(() => expect(screen.getByText("shown /tools?page=1")).toBeInTheDocument());
  });

  it("leaves the page alone when the address is the one shown", async () => {
    open("/tools?page=2", "/tools?page=2");
    // One more turn for an effect that would navigate.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText("shown /tools?page=2")).toBeInTheDocument();
  });
});
