/** For component tests: a card order as the API answers it (issue 32), one line, picked up at the store. */
import type { Order } from "../contract/schemas";

export const PAY_URL = "https://pay.example/pay/cs_test_1";

/** Placed and awaiting its payment, the payment page open; `changes` make it what a test needs. */
export function cardOrder(changes: Partial<Order> = {}): Order {
  const line = { toolId: "t1", name: "Tape Measure", quantity: 1, unitPrice: 14.75, lineTotal: 14.75, subtotal: 14.75, discount: 0, shipping: 0, tax: 0, total: 14.75 };
  return {
    _id: "o1",
    number: 12,
    toolId: line.toolId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    total: 14.75,
    subtotal: 14.75,
    discount: 0,
    shipping: 0,
    tax: 0,
    status: "awaiting_payment",
    address: "3 Ledger Street",
    city: "",
    region: "",
    postalCode: "",
    country: "",
    phone: "555 0142",
    paymentMethod: "card",
    shippingMethod: "pickup",
    shippingMethodName: "Pickup at the store",
    promoCode: null,
    taxRate: null,
    taxExemptCertificate: null,
    invoiceNumber: "INV-2026-000012",
    creditNoteNumber: null,
    paymentProblem: null,
    payment: { status: "open", url: PAY_URL, refundError: null },
    paymentHoldUntil: "2026-11-26T03:00:00.000Z",
    note: "",
    createdAt: "2026-11-26T02:30:00.000Z",
    lines: [line],
    history: [{ status: "awaiting_payment", at: "2026-11-26T02:30:00.000Z", by: "customer" }],
    ...changes,
  };
}
