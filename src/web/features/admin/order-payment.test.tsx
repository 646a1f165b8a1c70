/**
 * The console's order page for a card order (issue 32): the payment's state, a refused refund's
 * reason and the payment problem in words, the history's notes; a cancel whose refund the
 * provider refuses says why on the page and shows the payment as it is now.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminOrder } from "../../../contract/admin-schemas";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { makeQueryClient } from "../../app/providers";
import { cardOrder } from "../../test-orders";
import { OrderPage } from "./orders";

const paid: AdminOrder = {
  ...cardOrder({
    status: "paid",
    address: "8 Refund Row",
    payment: { status: "paid", url: null, refundError: null },
    history: [
      { status: "awaiting_payment", at: "2026-11-26T02:30:00.000Z", by: "customer" },
      { status: "paid", at: "2026-11-26T02:31:00.000Z", by: "store" },
    ],
  }),
  customer: { id: "u1", name: "Pat", email: "pat@example.com" },
};

const REASON = "This charge is under dispute.";
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The order as the API has it now; a cancel is refused (the refund) and leaves the payment failed. */
function serve() {
  let order: AdminOrder = paid;
  const posts: unknown[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    if (url === "/api/admin/orders/o1" && (init.method ?? "GET") === "GET") return json(order);
    if (url === "/api/admin/orders/o1/status" && init.method === "POST") {
      posts.push(JSON.parse(String(init.body)));
      order = { ...order, paymentProblem: "REFUND_FAILED", payment: { status: "refund_failed", url: null, refundError: REASON } };
      return json({ error: "REFUND_REFUSED", message: PAYMENT_TEXT.refundRefused(REASON) }, 409);
    }
    return json({ error: "NOT_FOUND", message: url }, 404);
  });
  return { posts };
}

function show() {
  render(
    <QueryClientProvider client={makeQueryClient()}>
      <MemoryRouter initialEntries={["/admin/orders/o1"]}>
        <Routes>
          <Route path="/admin/orders/:id" element={<OrderPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("the console's card order", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(cleanup);

  it("shows the payment's state; a refused refund keeps the order paid, says why, and shows the payment's problem in words", async () => {
    const api = serve();
    const user = userEvent.setup();
    show();
    expect(await screen.findByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.paid);
    expect(screen.queryByTestId("payment-problem")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Cancelled" }));
    expect(await screen.findByTestId("refund-refused")).toHaveTextContent(PAYMENT_TEXT.refundRefused(REASON));
    expect(api.posts).toEqual([{ status: "cancelled" }]);
    await waitFor(() => expect(screen.getByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.refund_failed));
    expect(screen.getByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.refundError(REASON));
    expect(screen.getByTestId("payment-problem")).toHaveTextContent(PAYMENT_TEXT.problems.REFUND_FAILED ?? "");
    expect(screen.getByTestId("payment-problem")).toHaveTextContent("REFUND_FAILED");
    expect(screen.getByTestId("order-status")).toHaveTextContent("Paid");
  });

  it("shows the notes the history carries (a refund, a late payment's)", async () => {
    const note = PAYMENT_TEXT.lateRefunded("$14.75");
    vi.stubGlobal("fetch", async () =>
      json({
        ...paid,
        status: "cancelled",
        paymentProblem: "LATE_PAYMENT_REFUNDED",
        payment: { status: "refunded", url: null, refundError: null },
        history: [...paid.history.slice(0, 1), { status: "cancelled", at: "2026-11-26T03:00:00.000Z", by: "store", note: PAYMENT_TEXT.holdExpired }, { status: "cancelled", at: "2026-11-26T03:01:00.000Z", by: "store", note }],
      }),
    );
    show();
    const history = await screen.findByTestId("order-history");
    expect(history).toHaveTextContent(PAYMENT_TEXT.holdExpired);
    expect(history).toHaveTextContent(note);
    expect(screen.getByTestId("order-payment-status")).toHaveTextContent(PAYMENT_TEXT.status.refunded);
    expect(screen.getByTestId("payment-problem")).toHaveTextContent(PAYMENT_TEXT.problems.LATE_PAYMENT_REFUNDED ?? "");
  });
});
