/**
 * The checkout's card option (issue 32): offered only when the store lists it
 * (`GET /api/payments/methods`), and a card order's 201 sends the browser to the provider's page
 * instead of the confirmation.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Cart, Profile } from "../../../contract/schemas";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import CheckoutPage from "./checkout-page";
import type * as paymentMethods from "./payment-methods";
import { openPaymentPage } from "./payment-methods";

// jsdom cannot leave the page: the way out is watched instead.
vi.mock("./payment-methods", async (original) => ({ ...(await original<typeof paymentMethods>()), openPaymentPage: vi.fn() }));

const cart: Cart = {
  lines: [{ toolId: "t1", name: "Tape Measure", image: "", unitPrice: 14.75, quantity: 1, minimumQuantity: 1, availableQuantity: 9, lineTotal: 14.75, problem: null }],
  subtotal: 14.75,
  discount: 0,
  shipping: 0,
  tax: 0,
  total: 14.75,
  count: 1,
  version: "v1",
  tradeDiscountPercent: 0,
};
// No city or country: pickup, and no estimate to wait for.
const profile: Profile = { displayName: "Ada", email: "ada@example.com", address: "3 Ledger Street", city: "", region: "", postalCode: "", country: "", phone: "555 0142", taxExemptCertificate: null };
const PAY_URL = "https://pay.example/pay/cs_test_1";

let checkouts: Array<Record<string, unknown>> = [];

/** `methods`: what GET /api/payments/methods answers; null for a failure. */
function serve(methods: string[] | null) {
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/cart") return json(cart);
    if (url === "/api/me/profile") return json(profile);
    if (url === "/api/payments/methods") return methods ? json({ methods, holdMinutes: 30 }) : json({ error: "INTERNAL", message: "busy" }, 503);
    if (url === "/api/checkout") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      checkouts.push(body);
      const order = { _id: "o1", number: 12, status: body.paymentMethod === "card" ? "awaiting_payment" : "pending" };
      return json({ order, priceChanged: false, ...(body.paymentMethod === "card" ? { payment: { url: PAY_URL } } : {}) }, 201);
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
          <Route path="/checkout/confirmation/:id" element={<p>confirmation</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const paymentOptions = () => screen.getAllByRole("radio").filter((r) => r.getAttribute("name") === "paymentMethod");
const labelOf = (method: "cash_on_delivery" | "bank_transfer" | "card") => new RegExp(`^${ORDER_TEXT.paymentMethod[method]}`);

describe("the checkout's card option", () => {
  beforeEach(() => {
    checkouts = [];
    vi.mocked(openPaymentPage).mockClear();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("is offered when the store lists it, after the other two with their labels as before", async () => {
    serve(["cash_on_delivery", "bank_transfer", "card"]);
    open();
    await waitFor(() => expect(paymentOptions()).toHaveLength(3));
    expect(paymentOptions().map((r) => r.getAttribute("value"))).toEqual(["cash_on_delivery", "bank_transfer", "card"]);
    expect(screen.getByRole("radio", { name: labelOf("card") })).toBeInTheDocument();
    expect(screen.getByText(ORDER_TEXT.paymentHint.card)).toBeInTheDocument();
  });

  it("is not offered when the store does not list it, nor when the list cannot be had", async () => {
    serve(["cash_on_delivery", "bank_transfer"]);
    open();
    expect(await screen.findByRole("radio", { name: labelOf("bank_transfer") })).toBeInTheDocument();
    await waitFor(() => expect(paymentOptions().map((r) => r.getAttribute("value"))).toEqual(["cash_on_delivery", "bank_transfer"]));
    cleanup();

    serve(null);
    open();
    expect(await screen.findByRole("radio", { name: labelOf("cash_on_delivery") })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(paymentOptions().map((r) => r.getAttribute("value"))).toEqual(["cash_on_delivery", "bank_transfer"]);
  });

  it("sends a card order's customer to the payment page, not to the confirmation", async () => {
    serve(["cash_on_delivery", "bank_transfer", "card"]);
    open();
    fireEvent.click(await screen.findByRole("radio", { name: labelOf("card") }));
    fireEvent.click(screen.getByRole("button", { name: "Place order" }));
    await waitFor(() => expect(openPaymentPage).toHaveBeenCalledWith(PAY_URL));
    expect(checkouts).toHaveLength(1);
    expect(checkouts[0]?.paymentMethod).toBe("card");
    expect(screen.queryByText("confirmation")).toBeNull();
    // On its way: the button says so and cannot place the order twice.
    expect(screen.getByRole("button", { name: PAYMENT_TEXT.redirecting })).toBeDisabled();
  });

  it("goes on to the confirmation for the other methods, as before", async () => {
    serve(["cash_on_delivery", "bank_transfer", "card"]);
    open();
    fireEvent.click(await screen.findByRole("radio", { name: labelOf("bank_transfer") }));
    fireEvent.click(screen.getByRole("button", { name: "Place order" }));
    expect(await screen.findByText("confirmation")).toBeInTheDocument();
    expect(openPaymentPage).not.toHaveBeenCalled();
  });
});
