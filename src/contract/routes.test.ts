import { describe, expect, it } from "vitest";
import { matchPage } from "./routes";

describe("matchPage", () => {
  it("finds the page of a path and its params", () => {
    expect(matchPage("/")).toEqual({ pattern: "/", params: {} });
    expect(matchPage("/tools")).toEqual({ pattern: "/tools", params: {} });
    expect(matchPage("/tools/abc-1")).toEqual({ pattern: "/tools/:id", params: { id: "abc-1" } });
    expect(matchPage("/tools/a%20b")).toEqual({ pattern: "/tools/:id", params: { id: "a b" } });
    expect(matchPage("/dashboard/orders/o1")).toEqual({ pattern: "/dashboard/orders/:id", params: { id: "o1" } });
    expect(matchPage("/dashboard/")).toEqual({ pattern: "/dashboard", params: {} });
  });

  it("knows no page for other paths", () => {
    for (const path of ["/nope", "/tools/a/b", "/dashboard/nothing", "/checkout/confirmation", "/robots"]) expect(matchPage(path), path).toBeNull();
  });
});
