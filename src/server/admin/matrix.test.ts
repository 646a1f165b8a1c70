/**
 * The endpoint × role matrix: every /api/admin/* route the app itself registers (collected
 * with an onRoute hook as the app registers them, so a route added later is in the matrix without anyone listing it)
 * answers 401 to a visitor and 403 to a signed-in customer, and an admin gets past the guard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "matrix-admin@toolyard.example";

interface Endpoint {
  method: string;
  url: string;
}

/** A concrete URL for a route: any id will do, the guard answers before the handler looks. */
const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, "00000000-0000-0000-0000-000000000000");

describe.each(drivers())("every /api/admin route by role on %s", (driver) => {
  let t: TestApp;
  const endpoints: Endpoint[] = [];
  let customer: Client;
  let admin: Client;

  beforeAll(async () => {
    t = await startTestApp(
      driver,
      { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" },
      {
        onRoute: (route) => {
          if (!route.url.startsWith("/api/admin")) return;
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          for (const method of methods) if (method !== "HEAD") endpoints.push({ method, url: route.url });
        },
      },
    );
    customer = new Client(t.app, "10.40.0.2");
    expect((await customer.signUp("Customer", uniqueEmail("matrix"))).statusCode).toBe(200);
    admin = new Client(t.app, "10.40.0.1");
    expect((await admin.signUp("Admin", ADMIN)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("finds the console's routes in the app (the matrix is not empty)", () => {
    const keys = endpoints.map((e) => `${e.method} ${e.url}`);
    for (const expected of [
      "GET /api/admin/tools",
      "POST /api/admin/tools",
      "PATCH /api/admin/tools/:id",
      "DELETE /api/admin/tools/:id",
      "GET /api/admin/tools/:id",
      "POST /api/admin/tools/:id/stock",
      "POST /api/admin/tools/:id/image",
      "GET /api/admin/orders",
      "GET /api/admin/orders/:id",
      "GET /api/admin/refunds",
      "POST /api/admin/orders/:id/status",
      "POST /api/admin/orders/:id/refunds",
      "POST /api/admin/orders/:id/shipments",
      "POST /api/admin/shipments/:id/status",
      "GET /api/admin/shipments/:id/packing-slip",
      "GET /api/admin/returns",
      "POST /api/admin/returns/:id/status",
      "GET /api/admin/reviews",
      "PATCH /api/admin/reviews/:id",
      "GET /api/admin/users",
      "PATCH /api/admin/users/:id",
      "GET /api/admin/summary",
      "GET /api/admin/audit",
      "GET /api/admin/tax-rates",
      "POST /api/admin/tax-rates",
      "PATCH /api/admin/tax-rates/:id",
      "DELETE /api/admin/tax-rates/:id",
      "GET /api/admin/tax-rates.csv",
      "POST /api/admin/tax-rates.csv",
      "GET /api/admin/promotions",
      "POST /api/admin/promotions",
      "PATCH /api/admin/promotions/:id",
      "GET /api/admin/shipping",
      "POST /api/admin/shipping",
      "PATCH /api/admin/shipping/:id",
      "DELETE /api/admin/shipping/:id",
      "GET /api/admin/settings",
      "PUT /api/admin/settings",
      "PATCH /api/admin/users/:id/tax-exempt",
    ]) {
      expect(keys).toContain(expected);
    }
  });

  it("answers 401 to a visitor, 403 to a customer, and lets an admin through, on every route", async () => {
    const visitor = new Client(t.app, "10.40.0.3");
    for (const { method, url } of endpoints) {
      const request = { method, url: concrete(url), ...(method === "GET" || method === "DELETE" ? {} : { payload: {} }) };
      const anonymous = await visitor.request(request);
      expect(anonymous.statusCode, `${method} ${url} as a visitor`).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: "UNAUTHORIZED" });
      const shopper = await customer.request(request);
      expect(shopper.statusCode, `${method} ${url} as a customer`).toBe(403);
      expect(shopper.json()).toMatchObject({ error: "FORBIDDEN" });
      const owner = await admin.request(request);
      expect([401, 403], `${method} ${url} as an admin`).not.toContain(owner.statusCode);
    }
  });
});
