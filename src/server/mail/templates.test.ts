/** The order-placed message names how the order is paid; a card order's, written when it is paid, says so (issues 32, 40). */
import { describe, expect, it } from "vitest";
import { ORDER_TEXT } from "../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { templates, type MailOrder } from "./templates";

const order: MailOrder = {
  id: "o1",
  number: 7,
  userId: "u1",
  totalCents: 1475,
  paymentMethod: "bank_transfer",
  lines: [{ toolName: "Tape Measure", quantity: 1, lineTotalCents: 1475 }],
};

describe("the order-placed message", () => {
  it("names the payment method and its hint", () => {
    const { text, html } = templates.orderPlaced(order, "http://shop.test");
    expect(text).toContain(ORDER_TEXT.paymentMethod.bank_transfer);
    expect(html).toContain(ORDER_TEXT.paymentMethod.bank_transfer);
    expect(text).not.toContain(PAYMENT_TEXT.status.open);
  });

  it("says a card order is paid: it is written when the payment is (issue 40)", () => {
    const { text, html } = templates.orderPlaced({ ...order, paymentMethod: "card" }, "http://shop.test");
    expect(text).toContain(PAYMENT_TEXT.status.paid);
    expect(html).toContain(PAYMENT_TEXT.status.paid);
    expect(text).not.toContain(PAYMENT_TEXT.status.open);
    expect(text).not.toContain(ORDER_TEXT.paymentHint.card);
  });
});
