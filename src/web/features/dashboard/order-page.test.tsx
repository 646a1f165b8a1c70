/**
 * A card order's page (issue 32): the payment in words, 'Pay now' while it is open, and, while
 * the order awaits its payment, the waiting line and a fresh ask every ~2 s until the webhook has
 * moved it on. `?payment=return` in the address decides nothing.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Order } from "../../../contract/schemas";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { cardOrder, PAY_URL } from "../../test-orders";
import OrderPage from "./order-page";

const awaiting = cardOrder();

/** The API answers each GET of the order with the next of `answers` (the last one from then on). */
function serve(answers: Order[]) {
  let asked = 0;
  vi.stubGlobal("fetch", async (url: string) => {
    const json = (data: unknown, status = 200) => new Response(JSON.stringify(data), { status, headers: { "content-type": "application/json" } });
    if (url === "/api/order/o1") return json(answers[Math.min(asked++, answers.length - 1)]);
    return json({ error: "NOT_FOUND", message: url }, 404);
  });
  return { asked: () => asked };
}

function open(at = "/dashboard/orders/o1?payment=return") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="/dashboard/orders/:id" element={<OrderPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a card order's page", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("waits for the payment with 'Pay now', whatever the return URL says, then shows what the webhook did", async () => {
    const paid: Order = {
      ...awaiting,
      status: "paid",
      payment: { status: "paid", url: null, refundError: null },
      history: [...awaiting.history, { status: "paid", at: "2026-11-26T02:31:00.000Z", by: "store" }],
    };
    const api = serve([awaiting, paid]);
    open();
    expect(await screen.findByTestId("order-status")).toHaveTextContent(ORDER_TEXT.status.awaiting_payment);
    expect(screen.getByTestId("order-payment-method")).toHaveTextContent(ORDER_TEXT.paymentMethod.card);
    expect(screen.getByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.open);
    expect(screen.getByRole("status")).toHaveTextContent(PAYMENT_TEXT.waiting);
    expect(screen.getByRole("link", { name: PAYMENT_TEXT.payNow })).toHaveAttribute("href", PAY_URL);
    // The customer may not cancel it: only the store (or its owner) does.
    expect(screen.queryByRole("button", { name: ORDER_TEXT.cancel })).toBeNull();

    // About 2 s later the page asks again and shows the order as the webhook left it.
    await waitFor(() => expect(screen.getByTestId("order-status")).toHaveTextContent(ORDER_TEXT.status.paid), { timeout: 5_000 });
    expect(screen.getByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.paid);
    expect(screen.queryByRole("link", { name: PAYMENT_TEXT.payNow })).toBeNull();
    expect(screen.queryByText(PAYMENT_TEXT.waiting)).toBeNull();
    // Paid, it stops asking.
    const asked = api.asked();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(api.asked()).toBe(asked);
  });

  it("shows a cancelled card order's payment and the notes its history carries", async () => {
    const note = PAYMENT_TEXT.refunded("$14.75", "re_1");
    serve([
      {
        ...awaiting,
        status: "cancelled",
        payment: { status: "refunded", url: null, refundError: null },
        history: [...awaiting.history, { status: "paid", at: "2026-11-26T02:31:00.000Z", by: "store" }, { status: "cancelled", at: "2026-11-26T02:40:00.000Z", by: "admin", note }],
      },
    ]);
    open("/dashboard/orders/o1");
    expect(await screen.findByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.refunded);
    expect(screen.getByTestId("history-note")).toHaveTextContent(note);
    expect(screen.getAllByTestId("history-event")).toHaveLength(3);
    expect(screen.queryByRole("link", { name: PAYMENT_TEXT.payNow })).toBeNull();
  });
});
