import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Carousel } from "./carousel";

/** The shown slide's title: the others carry the `hidden` class (jsdom applies no stylesheet). */
const visibleTitle = () => {
  const shown = screen.getAllByTestId("carousel-slide").filter((slide) => !slide.classList.contains("hidden"));
  expect(shown).toHaveLength(1);
  return shown[0]?.querySelector("h2")?.textContent;
};

/** The shown slide's own 'Next slide' arrow. */
const nextOfShown = () => {
  const shown = screen.getAllByTestId("carousel-slide").find((slide) => !slide.classList.contains("hidden"));
  const next = shown?.querySelector<HTMLAnchorElement>('a[aria-label="Next slide"]');
  if (!next) throw new Error("no shown slide with a 'Next slide' arrow");
  return next;
};

describe("Carousel", () => {
  it("moves by anchors and wraps first ↔ last", async () => {
    render(<Carousel />);
    expect(visibleTitle()).toBe("Tools that last a lifetime");
    const prev = screen.getAllByRole("link", { name: "Previous slide" })[0] as HTMLElement;
    expect(prev).toHaveAttribute("href", "#slide3");
    await userEvent.click(prev);
    expect(visibleTitle()).toBe("Cut through the season");
    await userEvent.click(nextOfShown());
    expect(visibleTitle()).toBe("Tools that last a lifetime");
    await userEvent.click(nextOfShown());
    await userEvent.click(nextOfShown());
    expect(visibleTitle()).toBe("Cut through the season");
    await userEvent.click(nextOfShown());
    expect(visibleTitle()).toBe("Tools that last a lifetime");
  });
});
