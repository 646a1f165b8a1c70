import { describe, expect, it } from "vitest";
import { addressLines } from "./address";

describe("addressLines", () => {
  it("shows an old single-line address as it was typed", () => {
    expect(addressLines({ address: "7 Anvil Row, Brooklyn NY 11201", city: "", region: "", postalCode: "", country: "" })).toEqual([
      "7 Anvil Row, Brooklyn NY 11201",
    ]);
  });

  it("shows the street, the town with its region and postal code, and the country's name", () => {
    expect(addressLines({ address: "7 Anvil Row", city: "Albany", region: "NY", postalCode: "12207", country: "US" })).toEqual([
      "7 Anvil Row",
      "Albany, NY 12207",
      "United States",
    ]);
  });

  it("leaves out the parts that are empty, and names a country it does not know by its code", () => {
    expect(addressLines({ address: "1 Quay", city: "Dublin", region: "", postalCode: "", country: "IE" })).toEqual(["1 Quay", "Dublin", "Ireland"]);
    expect(addressLines({ address: "1 Quay", city: "", region: "", postalCode: "", country: "ZZ" })).toEqual(["1 Quay", "ZZ"]);
  });
});
