import { describe, expect, it } from "vitest";
import { addToQuantity } from "./quantity";

describe("addToQuantity", () => {
  it.each(["", "  ", "0", "-3", "1.5", "abc"])("refuses %j with the spec's words", (entered) => {
    expect(addToQuantity(2, entered, 10)).toEqual({ ok: false, message: "Please enter valid data" });
  });
  it("raises the quantity by the entered amount", () => {
    expect(addToQuantity(2, "3", 10)).toEqual({ ok: true, quantity: 5 });
    expect(addToQuantity(2, "8", 10)).toEqual({ ok: true, quantity: 10 });
  });
  it("never passes the available stock", () => {
    expect(addToQuantity(2, "9", 10)).toEqual({ ok: false, message: "Only 10 in stock: the quantity cannot go higher." });
  });
});
