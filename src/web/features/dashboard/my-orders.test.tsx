import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Order } from "../../../contract/schemas";
import MyOrders from "./my-orders";

const line = { toolId: "t1", name: "Bench Vice", quantity: 2, unitPrice: 40, lineTotal: 80, subtotal: 80, discount: 8, shipping: 9.5, tax: 12.23, total: 93.73 };
const placed: Order = {
  _id: "o2",
  number: 2,
  toolId: "t1",
  name: "Bench Vice",
  quantity: 2,
  unitPrice: 40,
  subtotal: 80,
  discount: 8,
  shipping: 9.5,
  tax: 12.23,
  total: 93.73,
  status: "pending",
  address: "5 Kauri Road",
  city: "Wellington",
  region: "",
  postalCode: "6011",
  country: "NZ",
  phone: "555",
  paymentMethod: "cash_on_delivery",
  shippingMethod: "m1",
  shippingMethodName: "Courier",
  promoCode: "SAVE10",
  taxRate: { name: "GST", rateBasisPoints: 1500 },
  taxExemptCertificate: null,
  invoiceNumber: "INV-2026-000002",
  creditNoteNumber: null,
  paymentProblem: null,
  payment: null,
  paymentHoldUntil: null,
  note: "",
  createdAt: "2026-11-26T01:00:00.000Z",
  lines: [line],
  history: [{ status: "pending", at: "2026-11-26T01:00:00.000Z", by: "customer" }],
};
/** An order from before the structured address: its whole address in the street line, no code, no tax. */
const old: Order = {
  ...placed,
  _id: "o1",
  number: 1,
  subtotal: 80,
  discount: 0,
  shipping: 0,
  tax: 0,
  total: 80,
  address: "7 Anvil Row, Brooklyn NY 11201",
  city: "",
  postalCode: "",
  country: "",
  shippingMethod: "pickup",
  shippingMethodName: "Pickup at the store",
  promoCode: null,
  taxRate: null,
  invoiceNumber: null,
  lines: [{ ...line, discount: 0, shipping: 0, tax: 0, total: 80 }],
};

function open(orders: Order[]) {
  vi.stubGlobal("fetch", async () => new Response(JSON.stringify(orders), { status: 200, headers: { "content-type": "application/json" } }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MyOrders />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("My Orders' money and delivery", () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("shows each order's subtotal, discount with its code, shipping by its method, tax with its rate, and total", async () => {
    open([placed, old]);
    const rows = await screen.findAllByTestId("order-row");
    const row = rows.find((r) => r.getAttribute("data-order-id") === "o2") as HTMLElement;
    const totals = within(row).getByTestId("order-row-totals");
    expect(totals).toHaveTextContent("Subtotal$80.00");
    expect(totals).toHaveTextContent("Discount (SAVE10)-$8.00");
    expect(totals).toHaveTextContent("Shipping (Courier)$9.50");
    expect(totals).toHaveTextContent("Tax (GST, 15%)$12.23");
    expect(within(row).getByTestId("order-row-total")).toHaveTextContent("$93.73");
    expect(within(row).getByTestId("order-row-delivery")).toHaveTextContent("Courier · 5 Kauri Road, Wellington, 6011, New Zealand");
  });

  it("shows an old order's single address line as it was typed", async () => {
    open([old]);
    expect(await screen.findByTestId("order-row-delivery")).toHaveTextContent("Pickup at the store · 7 Anvil Row, Brooklyn NY 11201");
    expect(screen.getByTestId("order-row-total")).toHaveTextContent("$80.00");
  });
});
