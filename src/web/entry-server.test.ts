import { describe, expect, it } from "vitest";
import { matchPage } from "./entry-server";

// The server's matching: the browser's (match-page.ts) among the route table's pages, with its params decoded.
describe("matchPage", () => {
  it("finds the route table's page of a path and its params, decoded as the router's useParams gives them", () => {
    expect(matchPage("/")).toEqual({ path: "/", params: {} });
    expect(matchPage("/tools")).toEqual({ path: "/tools", params: {} });
    expect(matchPage("/tools/abc-1")).toEqual({ path: "/tools/:id", params: { id: "abc-1" } });
    expect(matchPage("/tools/a%20b")).toEqual({ path: "/tools/:id", params: { id: "a b" } });
    expect(matchPage("/tools/100%")).toEqual({ path: "/tools/:id", params: { id: "100%" } });
    expect(matchPage("/dashboard/orders/o1")).toEqual({ path: "/dashboard/orders/:id", params: { id: "o1" } });
    expect(matchPage("/dashboard/")).toEqual({ path: "/dashboard", params: {} });
    expect(matchPage("/admin")?.path).toBe("/admin/*");
    expect(matchPage("/admin/tools/t1")?.path).toBe("/admin/*");
  });

  it("knows no page for other paths", () => {
    for (const path of ["/nope", "/tools/a/b", "/dashboard/nothing", "/checkout/confirmation", "/robots", "/administrator"]) expect(matchPage(path), path).toBeNull();
  });
});
