import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS, PAGE_SIZE_MAX } from "../../contract/constants";
import { toolSchema, type Review, type Tool } from "../../contract/schemas";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

describe.each(drivers())("catalogue API on %s", (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists the seeded tools with a total count and the spec's fields", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/tool" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-total-count"]).toBe("16");
    const tools = res.json();
    expect(tools).toHaveLength(12);
    for (const tool of tools) expect(toolSchema.strict().parse(tool)).toEqual(tool);
    expect(tools[0]).toMatchObject({ name: "Forged Steel Claw Hammer 16 oz", price: 24.99, minimumQuantity: 2 });
  });

  it("filters by category and pages", async () => {
    const page1 = await t.app.inject({ method: "GET", url: "/api/tool?category=chainsaws&limit=3" });
    expect(page1.headers["x-total-count"]).toBe("4");
    expect(page1.json()).toHaveLength(3);
    const page2 = await t.app.inject({ method: "GET", url: "/api/tool?category=chainsaws&limit=3&page=2" });
    expect(page2.json()).toHaveLength(1);
    for (const tool of [...page1.json(), ...page2.json()]) expect(tool.category).toBe("chainsaws");
    const pastTheEnd = await t.app.inject({ method: "GET", url: "/api/tool?page=9" });
    expect(pastTheEnd.json()).toEqual([]);
    expect(pastTheEnd.headers["x-total-count"]).toBe("16");
  });

  it("searches names and descriptions, case-insensitively, with wildcards taken literally", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/tool?q=CHAIN" });
    const names = res.json().map((tool: Tool) => tool.name);
    expect(names).toContain('Petrol Chainsaw 45 cc, 18"');
    expect(res.headers["x-total-count"]).toBe("3");
    const wildcard = await t.app.inject({ method: "GET", url: "/api/tool?q=%25" });
    expect(wildcard.json()).toEqual([]);
    expect(wildcard.headers["x-total-count"]).toBe("0");
  });

  it("returns one tool by id and 404 JSON for unknown or malformed ids", async () => {
    const [first] = (await t.app.inject({ method: "GET", url: "/api/tool?limit=1" })).json();
    const one = await t.app.inject({ method: "GET", url: `/api/tool/${first._id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(first);
    for (const id of ["00000000-0000-0000-0000-000000000000", "not-an-id", "%27%3B%20drop%20table", "x".repeat(100)]) {
      const res = await t.app.inject({ method: "GET", url: `/api/tool/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: "NOT_FOUND", message: "No tool with that id." });
    }
  });

  it.each([
    "/api/tool?page=0",
    `/api/tool?limit=${PAGE_SIZE_MAX + 1}`,
    "/api/tool?limit=abc",
    "/api/tool?category=boats",
    `/api/tool?q=${"x".repeat(LIMITS.search + 1)}`,
    "/api/review?page=-1",
  ])("answers 400 with the error shape for %s", async (url) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe("VALIDATION");
    expect(typeof body.message).toBe("string");
    expect(body.details.length).toBeGreaterThan(0);
  });

  it("lists reviews newest first", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/review" });
    expect(res.statusCode).toBe(200);
    const reviews = res.json();
    expect(reviews.length).toBeGreaterThanOrEqual(6);
    expect(res.headers["x-total-count"]).toBe(String(reviews.length));
    const times = reviews.map((r: Review) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(Object.keys(reviews[0]).sort()).toEqual(["_id", "createdAt", "description", "name", "rating"]);
  });

  it("reports health and serves the OpenAPI document", async () => {
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.json()).toEqual({ status: "ok", db: "ok" });
    const docs = await t.app.inject({ method: "GET", url: "/api/docs/json" });
    expect(docs.statusCode).toBe(200);
    const paths = Object.keys(docs.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(["/api/tool", "/api/tool/{id}", "/api/review", "/api/health", "/api/tool/facets", "/api/admin/catalogue.csv", "/api/admin/catalogue/imports", "/api/admin/catalogue/imports/{id}"]),
    );
    const ui = await t.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it("refuses NUL characters as invalid input instead of failing in the database", async () => {
    for (const url of ["/api/tool?q=%00", "/api/tool/%00", "/api/tool?q=a%00b"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toBe("VALIDATION");
    }
    const signUp = await t.app.inject({
      method: "POST",
      url: "/api/auth/sign-up/email",
      payload: { name: "a\u0000b", email: "nul@example.com", password: "Str0ng!pass" },
    });
    expect(signUp.statusCode).toBe(400);
  });

  it("answers unknown API paths and methods with JSON 404, never 5xx", async () => {
    for (const url of ["/api/nope", "/api/auth/nope"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe("NOT_FOUND");
    }
    // Malformed JSON, from a visitor (turned away before the body is read) and from a customer.
    const badJson = { method: "POST", url: "/api/review", headers: { "content-type": "application/json" }, payload: "{not json" } as const;
    expect((await t.app.inject(badJson)).statusCode).toBe(401);
    const customer = new Client(t.app);
    expect((await customer.signUp("Bad Json", uniqueEmail("badjson"))).statusCode).toBe(200);
    const fromCustomer = await customer.request(badJson);
    expect(fromCustomer.statusCode).toBe(400);
    expect(fromCustomer.json().error).toBe("BAD_REQUEST");
  });

  it("keeps tool writes for admins", async () => {
    const post = await t.app.inject({ method: "POST", url: "/api/tool", payload: {} });
    expect(post.statusCode).toBe(401);
    const put = await t.app.inject({ method: "PUT", url: "/api/tool/x", payload: { availableQuantity: 0 } });
    expect(put.statusCode).toBe(401);
    const del = await t.app.inject({ method: "DELETE", url: "/api/tool/x" });
    expect(del.statusCode).toBe(401);
  });
});
