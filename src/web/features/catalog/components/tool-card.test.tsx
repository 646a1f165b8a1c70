import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ToolCard } from "./tool-card";

describe("ToolCard", () => {
  it("shows image, name, dollar price, description and Book Now to /purchase/<_id>", () => {
    render(
      <MemoryRouter>
        <ToolCard
          tool={{
            _id: "abc-123",
            name: "Ride-On Tractor",
            image: "/images/tools/ride-on-mower.svg",
            price: 2199,
            availableQuantity: 8,
            minimumQuantity: 1,
            description: "Cuts big lawns.",
            category: "lawn-mowers",
            priceTiers: [],
            rating: { average: 4.3, count: 7 },
            sku: "TY-1",
            gtin: null,
            brand: null,
            categoryPath: [{ slug: "lawn-mowers", name: "Lawn Mowers" }],
            images: ["/images/tools/ride-on-mower.svg"],
            specs: [],
            product: null,
            optionValues: {},
            variants: [],
            priceFrom: 2199,
            variantCount: 1,
          }}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole("img", { name: "Ride-On Tractor" })).toHaveAttribute("src", "/images/tools/ride-on-mower.svg");
    expect(screen.getByText("$2,199.00")).toBeInTheDocument();
    expect(screen.getByText("Cuts big lawns.")).toBeInTheDocument();
    // The spec calls it a button; it stays a real link underneath.
    const bookNow = screen.getByRole("button", { name: "Book Now" });
    expect(bookNow.tagName).toBe("A");
    expect(bookNow).toHaveAttribute("href", "/purchase/abc-123");
    // The name leads to the tool's public page.
    expect(screen.getByRole("link", { name: "Ride-On Tractor" })).toHaveAttribute("href", "/tools/abc-123");
    // Its rating (issue 42): the average to one decimal and how many reviews, said in words too.
    expect(screen.getByTestId("tool-rating")).toHaveTextContent("★ 4.3 (7)");
    expect(screen.getByText("Rated 4.3 out of 5, 7 reviews")).toBeInTheDocument();
  });
});
