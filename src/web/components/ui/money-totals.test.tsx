import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MoneyTotals, orderMoneyLabels, percentOf } from "./money-totals";

afterEach(cleanup);

const order = { promoCode: null, shippingMethodName: "Pickup at the store", taxRate: null, taxExemptCertificate: null };

describe("MoneyTotals", () => {
  it("shows subtotal, discount taken off, shipping, tax and total", () => {
    render(<MoneyTotals amounts={{ subtotal: 100, discount: 10, shipping: 7.5, tax: 8.08, total: 105.58 }} totalTestId="checkout-total" />);
    expect(screen.getByTestId("money-subtotal")).toHaveTextContent("Subtotal$100.00");
    expect(screen.getByTestId("money-discount")).toHaveTextContent("Discount-$10.00");
    expect(screen.getByTestId("money-shipping")).toHaveTextContent("Shipping$7.50");
    expect(screen.getByTestId("money-tax")).toHaveTextContent("Tax$8.08");
    expect(screen.getByTestId("checkout-total")).toHaveTextContent("$105.58");
  });

  it("says no discount as $0.00", () => {
    render(<MoneyTotals amounts={{ subtotal: 5, discount: 0, shipping: 0, tax: 0, total: 5 }} totalTestId="cart-total" />);
    expect(screen.getByTestId("money-discount-amount")).toHaveTextContent(/^\$0\.00$/);
  });
});

describe("orderMoneyLabels", () => {
  it("names the code, the shipping method and the tax rate with its percent", () => {
    expect(orderMoneyLabels({ ...order, promoCode: "SPRING10", shippingMethodName: "Courier", taxRate: { name: "NY sales tax", rateBasisPoints: 888 } })).toEqual({
      discount: "Discount (SPRING10)",
      shipping: "Shipping (Courier)",
      tax: "Tax (NY sales tax, 8.88%)",
    });
  });

  it("says why a tax-exempt order has no tax, and plain words where nothing is known", () => {
    expect(orderMoneyLabels({ ...order, taxExemptCertificate: "EX-42" }).tax).toBe("Tax exempt: certificate EX-42");
    expect(orderMoneyLabels({ ...order, shippingMethodName: "" })).toEqual({ discount: "Discount", shipping: "Shipping", tax: "Tax" });
  });

  it("writes basis points as a percent", () => {
    expect(percentOf(875)).toBe("8.75%");
    expect(percentOf(2000)).toBe("20%");
    expect(percentOf(0)).toBe("0%");
  });
});
