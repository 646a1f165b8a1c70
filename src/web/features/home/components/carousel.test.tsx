import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Carousel } from "./carousel";

const visibleTitle = () => screen.getByRole("heading", { level: 2 }).textContent;

describe("Carousel", () => {
  it("moves by anchors and wraps first ↔ last", async () => {
    render(<Carousel />);
    expect(visibleTitle()).toBe("Tools that last a lifetime");
    const prev = screen.getByRole("link", { name: "Previous slide" });
    expect(prev).toHaveAttribute("href", "#slide3");
    await userEvent.click(prev);
    expect(visibleTitle()).toBe("Cut through the season");
    await userEvent.click(screen.getByRole("link", { name: "Next slide" }));
    expect(visibleTitle()).toBe("Tools that last a lifetime");
    await userEvent.click(screen.getByRole("link", { name: "Next slide" }));
    await userEvent.click(screen.getByRole("link", { name: "Next slide" }));
    expect(visibleTitle()).toBe("Cut through the season");
    await userEvent.click(screen.getByRole("link", { name: "Next slide" }));
    expect(visibleTitle()).toBe("Tools that last a lifetime");
  });
});
