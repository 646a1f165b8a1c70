import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "../../contract/schemas";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "revalidation-admin@example.com";

/**
 * Revalidation (decision 0013) belongs to the public reads alone: a write's answer, even in the
 * same routes file, and a personal answer carry no ETag, and a matching If-None-Match never
 * turns them into a 304.
 */
describe.each(drivers())("revalidation on %s", (driver) => {
  let t: TestApp;
  let admin: Client;
  let tool: Tool;
  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.31.0.1");
    expect((await admin.signUp("Owner", ADMIN)).statusCode).toBe(200);
    [tool] = (await admin.get("/api/tool?limit=1")).json() as [Tool];
  });
  afterAll(async () => {
    await t?.close();
  });

  it("tags a public read, and not an admin's change to the same tool", async () => {
    const read = await admin.get(`/api/tool/${tool._id}`);
    const tag = read.headers.etag as string;
    expect(tag).toMatch(/^W\/".+"$/);
    const changed = await admin.request({
      method: "PUT",
      url: `/api/tool/${tool._id}`,
      payload: { availableQuantity: tool.availableQuantity },
      headers: { "if-none-match": tag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toBeUndefined();
    expect(changed.json()).toMatchObject({ _id: tool._id });
  });

  it("tags no review posted and no personal answer", async () => {
    const customer = new Client(t.app, "10.31.0.2");
    await customer.signUp("Reviewer", uniqueEmail("revalidation"));
    const posted = await customer.post("/api/review", { name: "Reviewer", rating: 5, description: "Sharp and true." });
    expect(posted.statusCode).toBe(201);
    expect(posted.headers.etag).toBeUndefined();
    const cart = await customer.get("/api/cart");
    expect(cart.statusCode).toBe(200);
    expect(cart.headers["cache-control"]).toBe("private, no-store");
    expect(cart.headers.etag).toBeUndefined();
  });
});
