import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CartEstimate, CartEstimateInput } from "../../../contract/money-schemas";
import type { Cart, Profile } from "../../../contract/schemas";
import CheckoutPage from "./checkout-page";

// The estimate waits for typing to pause (400 ms) before it asks: room for that on a busy machine.
configure({ asyncUtilTimeout: 5_000 });

const cart: Cart = {
  lines: [{ toolId: "t1", name: "Bench Vice", image: "", unitPrice: 40, quantity: 2, minimumQuantity: 1, availableQuantity: 9, lineTotal: 80, problem: null }],
  subtotal: 80,
  discount: 0,
  shipping: 0,
  tax: 0,
  total: 80,
  count: 2,
  version: "v1",
  tradeDiscountPercent: 0,
};
const profile: Profile = {
  displayName: "Ada",
  email: "ada@example.com",
  address: "7 Anvil Row",
  city: "Albany",
  region: "NY",
  postalCode: "12207",
  country: "US",
  phone: "555 0100",
  taxExemptCertificate: null,
};
const PICKUP_OPTION = { id: "pickup", name: "Pickup at the store", price: 0 };
const COURIER = { id: "courier", name: "Courier", price: 9.5 };

/** What the estimate answers for an input: a courier serves New York; 8 % tax on delivery. */
function answer(input: CartEstimateInput): CartEstimate {
  const served = input.country === "US";
  const courier = served && input.shippingMethod === "courier";
  const discount = input.promoCode === "SAVE10" ? 8 : 0;
  const shipping = courier ? COURIER.price : 0;
  const tax = courier ? Math.round((80 - discount + shipping) * 8) / 100 : 0;
  const problems = input.promoCode && input.promoCode !== "SAVE10" ? [{ code: "PROMO_EXPIRED" as const, message: "This promotion code has expired" }] : [];
  return { subtotal: 80, discount, shipping, tax, total: 80 - discount + shipping + tax, shippingOptions: served ? [PICKUP_OPTION, COURIER] : [PICKUP_OPTION], problems };
}

let estimates: CartEstimateInput[] = [];
let checkouts: Array<Record<string, unknown>> = [];
/** How many estimates fail before they answer; what the checkout answers. */
let failEstimates = 0;
let checkoutAnswer: { status: number; body: unknown } = { status: 409, body: { error: "CART_CHANGED", message: "Stop here" } };

function serve(withProfile: Profile) {
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : {};
    const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/cart") return json(cart);
    if (url === "/api/me/profile") return json(withProfile);
    if (url === "/api/cart/estimate") {
      estimates.push(body as unknown as CartEstimateInput);
      if (failEstimates > 0) {
        failEstimates -= 1;
        return json({ error: "INTERNAL", message: "The store is busy" }, 503);
      }
      return json(answer(body as unknown as CartEstimateInput));
    }
    if (url === "/api/checkout") {
      checkouts.push(body);
      return json(checkoutAnswer.body, checkoutAnswer.status);
    }
    return json({ error: "NOT_FOUND", message: url }, 404);
  });
}

function open() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={["/checkout"]}>
        <Routes>
          <Route path="/checkout" element={<CheckoutPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const totalShown = () => screen.getByTestId("checkout-total").textContent;
const options = () => screen.getAllByTestId("shipping-option").map((o) => o.getAttribute("data-method-id"));

describe("the checkout's money", () => {
  beforeEach(() => {
    estimates = [];
    checkouts = [];
    failEstimates = 0;
    checkoutAnswer = { status: 409, body: { error: "CART_CHANGED", message: "Stop here" } };
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("prefills the address from My Profile, asks the estimate for it, and offers pickup first with the store's place", async () => {
    serve(profile);
    open();
    await waitFor(() => expect(options()).toEqual(["pickup", "courier"]));
    expect(estimates[0]).toEqual({ country: "US", region: "NY", postalCode: "12207", city: "Albany", shippingMethod: "pickup" });
    expect(screen.getByLabelText("City")).toHaveValue("Albany");
    expect(screen.getByLabelText("Country")).toHaveValue("US");
    expect(screen.getByLabelText("State / Region")).toHaveValue("NY");
    expect(screen.getByLabelText("Postal code")).toHaveValue("12207");
    const pickup = screen.getAllByTestId("shipping-option")[0] as HTMLElement;
    expect(within(pickup).getByRole("radio")).toBeChecked();
    expect(within(pickup).getByTestId("pickup-place")).toHaveTextContent("12 Forge Lane, Brooklyn, NY 11201");
    expect(screen.getByText("Courier").closest("label")).toHaveTextContent("$9.50");
  });

  it("prices the chosen method, and the order carries the address, the method and the estimate's total", async () => {
    serve(profile);
    open();
    const courier = await screen.findByRole("radio", { name: /Courier/ });
    fireEvent.click(courier);
    await waitFor(() => expect(totalShown()).toBe("$96.66"));
    expect(estimates.at(-1)).toMatchObject({ shippingMethod: "courier" });
    expect(screen.getByTestId("money-shipping")).toHaveTextContent("Shipping (Courier)$9.50");
    const place = screen.getByRole("button", { name: "Place order" });
    await waitFor(() => expect(place).toBeEnabled());
    fireEvent.click(place);
    await waitFor(() => expect(checkouts).toHaveLength(1));
    expect(checkouts[0]).toMatchObject({
      address: "7 Anvil Row",
      city: "Albany",
      region: "NY",
      postalCode: "12207",
      country: "US",
      shippingMethod: "courier",
      cartVersion: "v1",
      expectedTotal: 96.66,
    });
    expect(checkouts[0]).not.toHaveProperty("promoCode");
  });

  it("says when no delivery method serves the address, and keeps pickup", async () => {
    serve({ ...profile, country: "DE", region: "", postalCode: "10115", city: "Berlin" });
    open();
    expect(await screen.findByTestId("no-shipping")).toHaveTextContent("No delivery method serves this address");
    expect(options()).toEqual(["pickup"]);
  });

  it("shows the estimate's word on a code at the field, and takes a good code off the total", async () => {
    serve(profile);
    open();
    await waitFor(() => expect(options()).toEqual(["pickup", "courier"]));
    const code = screen.getByLabelText("Promotion code");
    fireEvent.change(code, { target: { value: "old5" } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(await screen.findByTestId("promo-problem")).toHaveTextContent("This promotion code has expired");
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(estimates.at(-1)).toMatchObject({ promoCode: "OLD5" });
    // What was typed stays.
    expect(code).toHaveValue("old5");

    fireEvent.change(code, { target: { value: "save10" } });
    fireEvent.keyDown(code, { key: "Enter" });
    expect(await screen.findByTestId("promo-applied")).toHaveTextContent("Code SAVE10 applied");
    expect(screen.getByTestId("money-discount")).toHaveTextContent("Discount (SAVE10)-$8.00");
    expect(totalShown()).toBe("$72.00");
    expect(checkouts).toHaveLength(0);
  });

  it("asks nothing until the address is complete: pickup with the cart's own totals", async () => {
    serve({ ...profile, city: "", region: "", postalCode: "", country: "" });
    open();
    expect(await screen.findByText(/Fill in the city, country, state and postal code/)).toBeInTheDocument();
    expect(options()).toEqual(["pickup"]);
    expect(totalShown()).toBe("$80.00");
    // Choosing a country with states offers them in a list; a postal code that fits makes the address complete.
    fireEvent.change(screen.getByLabelText("Country"), { target: { value: "US" } });
    expect(screen.getByLabelText("State / Region").tagName).toBe("SELECT");
    fireEvent.change(screen.getByLabelText("State / Region"), { target: { value: "NY" } });
    expect(estimates).toHaveLength(0);
    fireEvent.change(screen.getByLabelText("Postal code"), { target: { value: "10001" } });
    await waitFor(() => expect(estimates).toHaveLength(1));
    expect(estimates[0]).toMatchObject({ country: "US", region: "NY", postalCode: "10001" });
  });

  it("says when the totals could not be worked out, and asks again on Try again", async () => {
    failEstimates = 2; // the query's own retry fails too
    serve(profile);
    open();
    expect(await screen.findByText(/The totals could not be updated\./)).toHaveTextContent("The store is busy");
    expect(screen.getByRole("button", { name: "Place order" })).toBeEnabled();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(options()).toEqual(["pickup", "courier"]));
    expect(screen.queryByText(/The totals could not be updated/)).toBeNull();
  });

  it("shows a code the checkout refused (used up meanwhile) at the field, with what was typed kept", async () => {
    checkoutAnswer = { status: 409, body: { error: "PROMO_USED_UP", message: "This promotion code has been used up" } };
    serve(profile);
    open();
    await waitFor(() => expect(options()).toEqual(["pickup", "courier"]));
    const code = screen.getByLabelText("Promotion code");
    fireEvent.change(code, { target: { value: "SAVE10" } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    await screen.findByTestId("promo-applied");
    const place = screen.getByRole("button", { name: "Place order" });
    await waitFor(() => expect(place).toBeEnabled());
    fireEvent.click(place);
    expect(await screen.findByTestId("promo-problem")).toHaveTextContent("This promotion code has been used up");
    expect(checkouts[0]).toMatchObject({ promoCode: "SAVE10", expectedTotal: 72 });
    expect(code).toHaveValue("SAVE10");
    expect(screen.getByLabelText("City")).toHaveValue("Albany");
  });
});
