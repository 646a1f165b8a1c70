import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE_MAX } from "../../contract/constants";
import { orderSchema, type Order, type Tool } from "../../contract/schemas";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "stock@toolyard.example";

describe.each(drivers())("orders API on %s", (driver) => {
  let t: TestApp;
  let admin: Client;

  const newTool = async (availableQuantity: number, minimumQuantity = 1, price = 19.99) => {
    const res = await admin.post("/api/tool", {
      name: `Test tool ${Math.random().toString(36).slice(2, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity,
      minimumQuantity,
      description: "For tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json()._id as string;
  };
  const stock = async (id: string) => (await t.app.inject({ method: "GET", url: `/api/tool/${id}` })).json().availableQuantity as number;
  const customer = async (name = "Customer") => {
    const c = new Client(t.app);
    expect((await c.signUp(name, uniqueEmail("buyer"))).statusCode).toBe(200);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN });
    admin = new Client(t.app);
    await admin.signUp("Admin", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("places an order: stock taken, price and delivery details copied", async () => {
    const toolId = await newTool(10, 2, 24.99);
    const c = await customer("Grace");
    expect((await c.put("/api/me/profile", { address: "1 Main St, Springfield", phone: "+1 555 0100" })).statusCode).toBe(200);
    const res = await c.post("/api/order", { toolId, quantity: 3 });
    expect(res.statusCode).toBe(201);
    const order = orderSchema.parse(res.json());
    expect(order).toMatchObject({ toolId, quantity: 3, unitPrice: 24.99, total: 74.97, status: "pending", address: "1 Main St, Springfield", phone: "+1 555 0100" });
    expect(await stock(toolId)).toBe(7);
    // A later price change does not rewrite the order.
    await admin.put(`/api/tool/${toolId}`, { price: 99 });
    const [listed] = (await c.get("/api/order")).json();
    expect(listed).toMatchObject({ _id: order._id, unitPrice: 24.99, total: 74.97 });
  });

  it("keeps the (cached) catalogue list in step with orders, cancels and admin edits", async () => {
    const toolId = await newTool(10);
    const listed = async () => {
      const res = await t.app.inject({ method: "GET", url: `/api/tool?limit=${PAGE_SIZE_MAX}&category=power-tools` });
      return (res.json() as Tool[]).find((tool) => tool._id === toolId);
    };
    expect((await listed())?.availableQuantity).toBe(10);
    const c = await customer();
    const order = (await c.post("/api/order", { toolId, quantity: 3 })).json();
    expect((await listed())?.availableQuantity).toBe(7);
    await c.delete(`/api/order/${order._id}`);
    expect((await listed())?.availableQuantity).toBe(10);
    await admin.put(`/api/tool/${toolId}`, { price: 5 });
    expect((await listed())?.price).toBe(5);
    await admin.delete(`/api/tool/${toolId}`);
    expect(await listed()).toBeUndefined();
  });

  it("checks minimum and stock on the server", async () => {
    const toolId = await newTool(5, 2);
    const c = await customer();
    const below = await c.post("/api/order", { toolId, quantity: 1 });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({ error: "BELOW_MINIMUM", message: "The minimum order for this tool is 2." });
    const over = await c.post("/api/order", { toolId, quantity: 6 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toEqual({ error: "NOT_ENOUGH_STOCK", message: "Not enough stock: only 5 left.", available: 5 });
    const unknown = await c.post("/api/order", { toolId: "no-such-tool", quantity: 2 });
    expect(unknown.statusCode).toBe(404);
    for (const quantity of [0, -1, 1.5, "3", null]) {
      const res = await c.post("/api/order", { toolId, quantity });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(res.json().error).toBe("VALIDATION");
    }
    expect(await stock(toolId)).toBe(5);
    expect((await new Client(t.app).post("/api/order", { toolId, quantity: 2 })).statusCode).toBe(401);
  });

  it("lists only the caller's orders, and someone else's order id is not found", async () => {
    const toolId = await newTool(20);
    const alice = await customer("Alice");
    const bob = await customer("Bob");
    const aliceOrder = (await alice.post("/api/order", { toolId, quantity: 1 })).json();
    await bob.post("/api/order", { toolId, quantity: 2 });
    const aliceList = await alice.get("/api/order");
    expect(aliceList.json().map((o: Order) => o._id)).toEqual([aliceOrder._id]);
    expect(aliceList.headers["x-total-count"]).toBe("1");
    const steal = await bob.delete(`/api/order/${aliceOrder._id}`);
    expect(steal.statusCode).toBe(404);
    expect(steal.json().error).toBe("NOT_FOUND");
    expect(await stock(toolId)).toBe(17);
    expect((await new Client(t.app).get("/api/order")).statusCode).toBe(401);
  });

  it("cancels a pending order and returns its stock exactly once", async () => {
    const toolId = await newTool(10);
    const c = await customer();
    const order = (await c.post("/api/order", { toolId, quantity: 4 })).json();
    expect(await stock(toolId)).toBe(6);
    const first = await c.delete(`/api/order/${order._id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().status).toBe("cancelled");
    expect(await stock(toolId)).toBe(10);
    const again = await c.delete(`/api/order/${order._id}`);
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe("cancelled");
    expect(await stock(toolId)).toBe(10);
    expect((await c.delete("/api/order/unknown-id")).statusCode).toBe(404);
  });

  it("never oversells under hundreds of parallel orders from several users", async () => {
    const initial = 150;
    const toolId = await newTool(initial);
    const buyers = await Promise.all(Array.from({ length: 6 }, (_, i) => customer(`Buyer ${i}`)));
    const attempts = Array.from({ length: 300 }, (_, i) => ({ buyer: buyers[i % buyers.length] as Client, quantity: 1 + (i % 3) }));
    const results = await Promise.all(attempts.map(({ buyer, quantity }) => buyer.post("/api/order", { toolId, quantity })));
    const accepted = results.filter((r) => r.statusCode === 201).map((r) => r.json().quantity as number);
    const rejected = results.filter((r) => r.statusCode !== 201);
    expect(rejected.every((r) => r.statusCode === 409)).toBe(true);
    expect(rejected.length).toBeGreaterThan(0);
    const remaining = await stock(toolId);
    expect(remaining).toBeGreaterThanOrEqual(0);
    expect(remaining + accepted.reduce((a, b) => a + b, 0)).toBe(initial);
    // Demand (600) exceeds stock: what is left is smaller than any order that was refused.
    expect(remaining).toBeLessThan(3);
  });

  it("returns stock once when two cancels race", async () => {
    const initial = 40;
    const toolId = await newTool(initial);
    const c = await customer();
    const placed = await Promise.all(Array.from({ length: 10 }, () => c.post("/api/order", { toolId, quantity: 2 })));
    expect(await stock(toolId)).toBe(initial - 20);
    const cancels = await Promise.all(placed.flatMap((r) => [c.delete(`/api/order/${r.json()._id}`), c.delete(`/api/order/${r.json()._id}`)]));
    expect(cancels.every((r) => r.statusCode === 200)).toBe(true);
    expect(await stock(toolId)).toBe(initial);
  });

  it("saves the profile's address and phone and validates them", async () => {
    const c = await customer("Pat Doe");
    const empty = await c.get("/api/me/profile");
    expect(empty.json()).toMatchObject({ displayName: "Pat Doe", address: "", phone: "" });
    const saved = await c.put("/api/me/profile", { address: "22 Elm Rd", phone: "(555) 123-4567" });
    expect(saved.json()).toMatchObject({ displayName: "Pat Doe", address: "22 Elm Rd", phone: "(555) 123-4567" });
    expect((await c.get("/api/me/profile")).json().address).toBe("22 Elm Rd");
    const bad = await c.put("/api/me/profile", { address: "x", phone: "call me maybe" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "VALIDATION", message: "Use digits, spaces and + ( ) - . only" });
    // A client may send one field; the other keeps its value. Read-only fields sent back are ignored.
    const partial = await c.put("/api/me/profile", { phone: "555 0199", displayName: "Someone Else", email: "x@example.com" });
    expect(partial.json()).toEqual({
      displayName: "Pat Doe",
      email: expect.stringContaining("buyer"),
      address: "22 Elm Rd",
      city: "",
      region: "",
      postalCode: "",
      country: "",
      phone: "555 0199",
      taxExemptCertificate: null,
    });
    // Signed out: the spec's words (§8).
    for (const res of [await new Client(t.app).get("/api/me/profile"), await new Client(t.app).put("/api/me/profile", { address: "x" })]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: "UNAUTHORIZED", message: "No user is logged in" });
    }
  });

  it("adds reviews for signed-in users only, validated, newest first, stored as text", async () => {
    const c = await customer("Reviewer");
    const bad = await c.post("/api/review", { name: "R", rating: 6, description: "" });
    expect(bad.statusCode).toBe(400);
    const html = '<img src=x onerror="alert(1)">';
    const res = await c.post("/api/review", { name: "Reviewer", rating: 4, description: html });
    expect(res.statusCode).toBe(201);
    const [newest] = (await t.app.inject({ method: "GET", url: "/api/review?limit=1" })).json();
    expect(newest).toMatchObject({ name: "Reviewer", rating: 4, description: html });
    // The list was just read (and cached): the next review still shows at once.
    expect((await c.post("/api/review", { name: "Reviewer", rating: 2, description: "Second thoughts" })).statusCode).toBe(201);
    const [latest] = (await t.app.inject({ method: "GET", url: "/api/review?limit=1" })).json();
    expect(latest).toMatchObject({ rating: 2, description: "Second thoughts" });
    expect((await new Client(t.app).post("/api/review", { name: "A", rating: 5, description: "x" })).statusCode).toBe(401);
  });
});
