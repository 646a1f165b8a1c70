import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { cardDetails } from "./card-details";
import { ToolCard } from "./tool-card";

describe("ToolCard", () => {
  afterEach(cleanup);

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
    // No details asked for (the home page), and a tool in no product: nothing of options or brands.
    expect(screen.queryByTestId("tool-variants")).toBeNull();
    expect(screen.queryByTestId("tool-brand")).toBeNull();
  });

  it("shows, with the catalogue's details, a product's brand, its number of options and 'from' its lowest price when that is not the price shown", () => {
    const saw = {
      _id: "saw-18",
      name: 'Petrol Chainsaw 45 cc, 18"',
      image: "/images/tools/petrol-chainsaw.svg",
      price: 349,
      availableQuantity: 8,
      minimumQuantity: 1,
      description: "A saw.",
      category: "chainsaws" as const,
      priceTiers: [],
      rating: { average: 0, count: 0 },
      sku: "TY-2",
      gtin: null,
      brand: { slug: "timberwolf", name: "Timberwolf" },
      categoryPath: [{ slug: "chainsaws", name: "Chainsaws" }],
      images: ["/images/tools/petrol-chainsaw.svg"],
      specs: [],
      product: { _id: "p1", name: "Saw", options: [{ name: "Bar length", values: ['16"', '18"', '20"'] }] },
      optionValues: { "Bar length": '18"' },
      variants: [
        { _id: "saw-16", sku: "a", gtin: null, optionValues: { "Bar length": '16"' }, price: 329, availableQuantity: 3 },
        { _id: "saw-18", sku: "b", gtin: null, optionValues: { "Bar length": '18"' }, price: 349, availableQuantity: 3 },
        { _id: "saw-20", sku: "c", gtin: null, optionValues: { "Bar length": '20"' }, price: 369, availableQuantity: 3 },
      ],
      priceFrom: 329,
      variantCount: 3,
    };
    const { rerender } = render(
      <MemoryRouter>
        <ToolCard tool={saw} details={cardDetails} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("tool-brand")).toHaveTextContent("Timberwolf");
    expect(screen.getByTestId("tool-price")).toHaveTextContent("$349.00");
    expect(screen.getByTestId("tool-variants")).toHaveTextContent("3 options · from $329.00");
    // The cheapest shown: its price is the lowest, no "from".
    rerender(
      <MemoryRouter>
        <ToolCard tool={{ ...saw, price: 329 }} details={cardDetails} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("tool-variants")).toHaveTextContent(/^3 options$/);
    // All at one price: the number of options only.
    rerender(
      <MemoryRouter>
        <ToolCard tool={{ ...saw, price: 329, variants: saw.variants.map((v) => ({ ...v, price: 329 })) }} details={cardDetails} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId("tool-variants")).toHaveTextContent(/^3 options$/);
  });
});
