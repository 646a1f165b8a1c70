import { describe, expect, it } from "vitest";
import { estimateInput, servedMethod } from "./estimate";

describe("estimateInput", () => {
  it("is null until the destination is one the store knows", () => {
    expect(estimateInput({})).toBeNull();
    expect(estimateInput({ country: "US", region: "", postalCode: "12207" })).toBeNull();
    expect(estimateInput({ country: "US", region: "NY", postalCode: "1220" })).toBeNull();
    expect(estimateInput({ country: "ZZ", region: "", postalCode: "" })).toBeNull();
  });

  it("asks for the destination, normalised, with pickup unless a method is chosen", () => {
    expect(estimateInput({ country: "us", region: "ny", postalCode: " 12207 ", city: " Albany " })).toEqual({
      country: "US",
      region: "NY",
      postalCode: "12207",
      city: "Albany",
      shippingMethod: "pickup",
    });
    expect(estimateInput({ country: "CA", region: "ON", postalCode: "k1a  0b1", shippingMethod: "m1" })).toMatchObject({ postalCode: "K1A 0B1", shippingMethod: "m1" });
  });

  it("sends a code only when there is one, upper-case", () => {
    expect(estimateInput({ country: "DE", postalCode: "10115", promoCode: "" })).not.toHaveProperty("promoCode");
    expect(estimateInput({ country: "DE", postalCode: "10115", promoCode: "spring-10" })).toMatchObject({ promoCode: "SPRING-10" });
  });
});

describe("servedMethod", () => {
  const options = [{ id: "pickup" }, { id: "courier" }];
  it("keeps a method that serves the address, and falls back to pickup otherwise", () => {
    expect(servedMethod("courier", options)).toBe("courier");
    expect(servedMethod("freight", options)).toBe("pickup");
    expect(servedMethod("courier", [{ id: "pickup" }])).toBe("pickup");
  });
});
