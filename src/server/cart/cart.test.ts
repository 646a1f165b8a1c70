import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartSchema, checkoutResultSchema, orderSchema, type Cart, type Tool } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { tools } from "../db/schema";
import { CartMerges } from "./service";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";

const ADMIN = "cart-admin@toolyard.example";
const DELIVERY = { address: "1 Main St, Springfield", phone: "+1 555 0100", paymentMethod: "cash_on_delivery" as const };

describe.each(drivers())("cart and checkout API on %s", (driver) => {
  let t: TestApp;
  let admin: Client;

  const newTool = async (availableQuantity: number, minimumQuantity = 1, price = 10) => {
    const res = await admin.post("/api/tool", {
      name: `Cart tool ${randomUUID().slice(0, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity,
      minimumQuantity,
      description: "For cart tests.",
      category: "hand-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json() as Tool;
  };
  /** Stock as the database holds it (the public API hides archived tools). */
  const stock = async (id: string) => {
    const [row] = await t.app.store.db.select({ quantity: tools.availableQuantity }).from(tools).where(eq(tools.id, id));
    return row?.quantity;
  };
  const customer = async (name = "Shopper") => {
    const c = new Client(t.app, `10.20.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
    expect((await c.signUp(name, uniqueEmail("cart"))).statusCode).toBe(200);
    return c;
  };
  const cartOf = async (c: Client) => cartSchema.parse((await c.get("/api/cart")).json());
  const checkout = (c: Client, body: Record<string, unknown>, key: string | null = randomUUID()) =>
    c.request({ method: "POST", url: "/api/checkout", payload: body, headers: key === null ? {} : { "idempotency-key": key } });

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, AUTH_RATE_LIMIT_ADDRESS_MAX: "1000" });
    admin = new Client(t.app, "10.20.0.1");
    await admin.signUp("Admin", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps a signed-in customer's lines with price, totals and count; 0 or DELETE removes a line", async () => {
    const hammer = await newTool(10, 2, 12.5);
    const saw = await newTool(5, 1, 30);
    const c = await customer();
    expect(await cartOf(c)).toMatchObject({ lines: [], total: 0, count: 0 });
    expect((await c.put(`/api/cart/lines/${hammer._id}`, { quantity: 2 })).statusCode).toBe(200);
    const cart = cartSchema.parse((await c.put(`/api/cart/lines/${saw._id}`, { quantity: 1 })).json());
    expect(cart.lines).toEqual([
      { toolId: hammer._id, name: hammer.name, image: hammer.image, unitPrice: 12.5, quantity: 2, minimumQuantity: 2, availableQuantity: 10, lineTotal: 25, problem: null },
      { toolId: saw._id, name: saw.name, image: saw.image, unitPrice: 30, quantity: 1, minimumQuantity: 1, availableQuantity: 5, lineTotal: 30, problem: null },
    ]);
    expect(cart).toMatchObject({ total: 55, count: 3 });
    // The same cart from another device (another session of the same account).
    expect((await cartOf(c)).lines).toHaveLength(2);

    expect((await c.put(`/api/cart/lines/${hammer._id}`, { quantity: 0 })).json().lines).toHaveLength(1);
    expect((await c.delete(`/api/cart/lines/${saw._id}`)).json().lines).toHaveLength(0);
    await c.put(`/api/cart/lines/${saw._id}`, { quantity: 1 });
    expect((await c.delete("/api/cart")).json()).toMatchObject({ lines: [], count: 0 });
  });

  it("refuses quantities the tool cannot be ordered in, unknown and archived tools, and strangers", async () => {
    const tool = await newTool(4, 2);
    const c = await customer();
    const below = await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    expect(below.statusCode).toBe(400);
    expect(below.json()).toMatchObject({ error: "BELOW_MINIMUM", message: API_TEXT.belowMinimum(2) });
    const above = await c.put(`/api/cart/lines/${tool._id}`, { quantity: 5 });
    expect(above.statusCode).toBe(409);
    expect(above.json()).toMatchObject({ error: "NOT_ENOUGH_STOCK", available: 4 });
    for (const quantity of [-1, 1.5, "2"]) expect((await c.put(`/api/cart/lines/${tool._id}`, { quantity })).statusCode).toBe(400);
    expect((await c.put("/api/cart/lines/no-such-tool", { quantity: 1 })).statusCode).toBe(404);
    const archived = await newTool(4);
    expect((await admin.delete(`/api/tool/${archived._id}`)).statusCode).toBe(204);
    expect((await c.put(`/api/cart/lines/${archived._id}`, { quantity: 1 })).statusCode).toBe(404);
    expect((await new Client(t.app).get("/api/cart")).statusCode).toBe(401);
    expect((await cartOf(c)).lines).toEqual([]);
  });

  it("says what went wrong with a line after it was added, and how it stands", async () => {
    const sold = await newTool(5);
    const raised = await newTool(5);
    const gone = await newTool(5);
    const c = await customer();
    for (const tool of [sold, raised, gone]) await c.put(`/api/cart/lines/${tool._id}`, { quantity: 3 });
    await admin.put(`/api/tool/${sold._id}`, { availableQuantity: 2 });
    await admin.put(`/api/tool/${raised._id}`, { minimumQuantity: 4 });
    await admin.delete(`/api/tool/${gone._id}`);
    const problems = Object.fromEntries((await cartOf(c)).lines.map((l) => [l.toolId, [l.problem, l.availableQuantity, l.minimumQuantity]]));
    expect(problems).toEqual({
      [sold._id]: ["NOT_ENOUGH_STOCK", 2, 1],
      [raised._id]: ["BELOW_MINIMUM", 5, 4],
      [gone._id]: ["UNAVAILABLE", 0, 1],
    });
  });

  it("joins a signed-out visitor's cart: quantities add up, capped at the stock; gone tools are left out", async () => {
    const a = await newTool(6);
    const b = await newTool(10, 2);
    const gone = await newTool(3);
    await admin.delete(`/api/tool/${gone._id}`);
    const c = await customer();
    await c.put(`/api/cart/lines/${a._id}`, { quantity: 4 });
    const merged = cartSchema.parse(
      (
        await c.post("/api/cart/merge", {
          lines: [
            { toolId: a._id, quantity: 5 },
            { toolId: b._id, quantity: 3 },
            { toolId: gone._id, quantity: 1 },
            { toolId: "no-such-tool", quantity: 1 },
          ],
        })
      ).json(),
    );
    expect(merged.lines.map((l) => [l.toolId, l.quantity])).toEqual([
      [a._id, 6],
      [b._id, 3],
    ]);
    // The answer is the cart as it now is (the merge reads it in the same statement).
    expect(merged).toEqual(await cartOf(c));
    // A tool out of stock adds nothing; a line the merge does not name stays as it was.
    const soldOut = await newTool(1);
    await c.put(`/api/cart/lines/${soldOut._id}`, { quantity: 1 });
    await admin.put(`/api/tool/${soldOut._id}`, { availableQuantity: 0 });
    const again = cartSchema.parse((await c.post("/api/cart/merge", { lines: [{ toolId: soldOut._id, quantity: 2 }] })).json());
    expect(again.lines.map((l) => [l.toolId, l.quantity])).toEqual([
      [a._id, 6],
      [b._id, 3],
      [soldOut._id, 1],
    ]);
    expect((await c.post("/api/cart/merge", { lines: [{ toolId: a._id, quantity: 0 }] })).statusCode).toBe(400);
  });

  it("merges carts that arrive together: each customer gets their own cart, two merges of one cart both count", async () => {
    const a = await newTool(10);
    const b = await newTool(10);
    const shoppers = await Promise.all(Array.from({ length: 6 }, (_, i) => customer(`Merger ${i}`)));
    const first = shoppers[0] as Client;
    await Promise.all([
      ...shoppers.map((c, i) => c.post("/api/cart/merge", { lines: [{ toolId: a._id, quantity: 1 + i }] })),
      first.post("/api/cart/merge", { lines: [{ toolId: a._id, quantity: 2 }, { toolId: b._id, quantity: 1 }] }),
      first.post("/api/cart/merge", { lines: [{ toolId: b._id, quantity: 20 }] }),
    ]);
    const lines = async (c: Client) => Object.fromEntries((await cartOf(c)).lines.map((l) => [l.toolId, l.quantity]));
    expect(await lines(first)).toEqual({ [a._id]: 3, [b._id]: 10 });
    for (const [i, c] of shoppers.entries()) if (i > 0) expect(await lines(c)).toEqual({ [a._id]: 1 + i });
  });

  it("serves merges in batches; a merge for an account deleted meanwhile fails alone", async () => {
    const a = await newTool(10);
    const ids: string[] = [];
    for (const name of ["Early", "Late"]) {
      const c = new Client(t.app, "10.20.251.1");
      ids.push(((await c.signUp(name, uniqueEmail("merge"))).json() as { user: { id: string } }).user.id);
    }
    const [early, late] = ids as [string, string];
    const merges = new CartMerges(t.app.store.db);
    const line = (quantity: number) => ({ lines: [{ toolId: a._id, quantity }] });
    // The first merge is served at once; the next two wait and are served together, where the
    // account that does not exist fails the batch's statement on its foreign key.
    const results = await Promise.allSettled([merges.merge(early, line(1)), merges.merge("no-such-account", line(2)), merges.merge(late, line(3))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const [one, , three] = results as [PromiseFulfilledResult<Cart>, PromiseRejectedResult, PromiseFulfilledResult<Cart>];
    expect(one.value.lines.map((l) => [l.toolId, l.quantity])).toEqual([[a._id, 1]]);
    expect(three.value.lines.map((l) => [l.toolId, l.quantity])).toEqual([[a._id, 3]]);
  });

  it("checks out every line in one order: stock taken, cart emptied, lines and history kept", async () => {
    const [hammer, spanners, saw] = [await newTool(10, 1, 12.5), await newTool(8, 2, 40), await newTool(3, 1, 99.99)];
    const c = await customer("Buyer");
    await c.put(`/api/cart/lines/${hammer._id}`, { quantity: 1 });
    await c.put(`/api/cart/lines/${spanners._id}`, { quantity: 2 });
    await c.put(`/api/cart/lines/${saw._id}`, { quantity: 3 });
    const cart = await cartOf(c);
    const res = await checkout(c, { ...DELIVERY, paymentMethod: "bank_transfer", note: "Leave at the door", cartVersion: cart.version, expectedTotal: cart.total });
    expect(res.statusCode).toBe(201);
    const { order, priceChanged } = checkoutResultSchema.parse(res.json());
    expect(priceChanged).toBe(false);
    expect(order).toMatchObject({
      toolId: hammer._id,
      name: hammer.name,
      quantity: 1,
      total: 12.5 + 80 + 299.97,
      status: "pending",
      address: DELIVERY.address,
      phone: DELIVERY.phone,
      paymentMethod: "bank_transfer",
      note: "Leave at the door",
    });
    expect(order.lines).toEqual([
      // No tax rate, delivery or code in this store: each line's total is its subtotal; nothing refunded or shipped yet.
      { toolId: hammer._id, name: hammer.name, quantity: 1, unitPrice: 12.5, lineTotal: 12.5, subtotal: 12.5, discount: 0, shipping: 0, tax: 0, total: 12.5, refundedQuantity: 0, shippedQuantity: 0 },
      { toolId: spanners._id, name: spanners.name, quantity: 2, unitPrice: 40, lineTotal: 80, subtotal: 80, discount: 0, shipping: 0, tax: 0, total: 80, refundedQuantity: 0, shippedQuantity: 0 },
      { toolId: saw._id, name: saw.name, quantity: 3, unitPrice: 99.99, lineTotal: 299.97, subtotal: 299.97, discount: 0, shipping: 0, tax: 0, total: 299.97, refundedQuantity: 0, shippedQuantity: 0 },
    ]);
    expect(order.history).toEqual([{ status: "pending", at: expect.any(String), by: "customer" }]);
    expect([await stock(hammer._id), await stock(spanners._id), await stock(saw._id)]).toEqual([9, 6, 0]);
    expect((await cartOf(c)).lines).toEqual([]);

    const [listed] = (await c.get("/api/order")).json();
    expect(orderSchema.parse(listed)).toEqual(order);
    expect(orderSchema.parse((await c.get(`/api/order/${order._id}`)).json())).toEqual(order);
    const stranger = await customer();
    expect((await stranger.get(`/api/order/${order._id}`)).statusCode).toBe(404);
    expect((await stranger.delete(`/api/order/${order._id}`)).statusCode).toBe(404);
  });

  it("refuses a checkout with any bad line, says which and why, and takes nothing", async () => {
    const fine = await newTool(10);
    const short = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${fine._id}`, { quantity: 2 });
    await c.put(`/api/cart/lines/${short._id}`, { quantity: 5 });
    await admin.put(`/api/tool/${short._id}`, { availableQuantity: 3 });
    const cart = await cartOf(c);
    const res = await checkout(c, { ...DELIVERY, cartVersion: cart.version });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: "CART_PROBLEMS",
      message: API_TEXT.cartProblems,
      lines: [{ toolId: short._id, name: short.name, problem: "NOT_ENOUGH_STOCK", minimumQuantity: 1, availableQuantity: 3 }],
    });
    expect([await stock(fine._id), await stock(short._id)]).toEqual([10, 3]);
    expect((await cartOf(c)).lines).toHaveLength(2);
    expect((await c.get("/api/order")).json()).toEqual([]);
  });

  it("gives a refused checkout's key back, also when another checkout of its batch made an order", async () => {
    const tool = await newTool(10);
    const short = await newTool(10);
    const first = await customer();
    const good = await customer();
    const bad = await customer();
    await first.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    await good.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
    await bad.put(`/api/cart/lines/${short._id}`, { quantity: 5 });
    await admin.put(`/api/tool/${short._id}`, { availableQuantity: 3 });
    const key = randomUUID();
    // Sent together: while the first one's transaction runs, the other two wait for the next
    // batch, which writes one order and gives one key back.
    const [opened, placed, refused] = await Promise.all([
      checkout(first, { ...DELIVERY, cartVersion: (await cartOf(first)).version }),
      checkout(good, { ...DELIVERY, cartVersion: (await cartOf(good)).version }),
      checkout(bad, { ...DELIVERY, cartVersion: (await cartOf(bad)).version }, key),
    ]);
    expect([opened.statusCode, placed.statusCode, refused.statusCode]).toEqual([201, 201, 409]);
    expect(refused.json().error).toBe("CART_PROBLEMS");

    // The customer fixes the line and sends the same key again: a new attempt, not a replay.
    await bad.put(`/api/cart/lines/${short._id}`, { quantity: 3 });
    const retried = await checkout(bad, { ...DELIVERY, cartVersion: (await cartOf(bad)).version }, key);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers["idempotent-replayed"]).toBeUndefined();
    expect([await stock(tool._id), await stock(short._id)]).toEqual([7, 0]);
    expect((await bad.get("/api/order")).json()).toHaveLength(1);
  });

  it("refuses an empty cart, a cart changed elsewhere, bad delivery details and a missing key", async () => {
    const tool = await newTool(10);
    const c = await customer();
    const empty = await checkout(c, { ...DELIVERY, cartVersion: (await cartOf(c)).version });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().error).toBe("CART_EMPTY");

    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const seen = await cartOf(c);
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 }); // another tab
    const changed = await checkout(c, { ...DELIVERY, cartVersion: seen.version });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ error: "CART_CHANGED", message: API_TEXT.cartChanged });

    const version = (await cartOf(c)).version;
    for (const bad of [{ address: "" }, { phone: "call me" }, { paymentMethod: "bitcoin" }, { note: "x".repeat(501) }]) {
      expect((await checkout(c, { ...DELIVERY, cartVersion: version, ...bad })).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await checkout(c, { ...DELIVERY, cartVersion: version }, null)).statusCode).toBe(400);
    expect(await stock(tool._id)).toBe(10);
    expect((await c.get("/api/order")).json()).toEqual([]);
  });

  it("orders the cart as it is now when cartVersion is left out (an API client), and still refuses an empty one", async () => {
    const [first, second] = [await newTool(10), await newTool(10)];
    const c = await customer();
    expect((await checkout(c, DELIVERY)).json().error).toBe("CART_EMPTY");
    await c.put(`/api/cart/lines/${first._id}`, { quantity: 1 });
    await c.put(`/api/cart/lines/${second._id}`, { quantity: 3 }); // no version read in between
    const res = await checkout(c, DELIVERY);
    expect(res.statusCode).toBe(201);
    const { order, priceChanged } = res.json() as { order: { lines: Array<{ toolId: string; quantity: number }> }; priceChanged: boolean };
    expect(priceChanged).toBe(false);
    expect(order.lines.map((l) => [l.toolId, l.quantity]).sort()).toEqual([[first._id, 1], [second._id, 3]].sort());
    expect([await stock(first._id), await stock(second._id)]).toEqual([9, 7]);
    expect((await cartOf(c)).lines).toEqual([]);
  });

  it("makes one order of a retried or double-clicked checkout, and refuses the key with another body", async () => {
    const tool = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
    const body = { ...DELIVERY, cartVersion: (await cartOf(c)).version };
    const key = randomUUID();
    const [first, second] = await Promise.all([checkout(c, body, key), checkout(c, body, key)]);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(first.json().order._id).toBe(second.json().order._id);
    const third = await checkout(c, body, key);
    expect(third.statusCode).toBe(201);
    expect(third.headers["idempotent-replayed"]).toBe("true");
    expect(third.json().order._id).toBe(first.json().order._id);
    expect(await stock(tool._id)).toBe(8);
    expect((await c.get("/api/order")).json()).toHaveLength(1);

    const other = await checkout(c, { ...body, note: "something else" }, key);
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe("IDEMPOTENCY_KEY_REUSED");
  });

  it("orders at today's price when it changed since the page showed it, and says so", async () => {
    const tool = await newTool(10, 1, 20);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 2 });
    const cart = await cartOf(c);
    await admin.put(`/api/tool/${tool._id}`, { price: 25 });
    const res = await checkout(c, { ...DELIVERY, cartVersion: cart.version, expectedTotal: cart.total });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ priceChanged: true, order: { total: 50, lines: [{ unitPrice: 25 }] } });
  });

  it("saves the delivery details to My Profile when asked", async () => {
    const tool = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 });
    const res = await checkout(c, { ...DELIVERY, address: "9 New Rd", saveToProfile: true, cartVersion: (await cartOf(c)).version });
    expect(res.statusCode).toBe(201);
    expect((await c.get("/api/me/profile")).json()).toMatchObject({ address: "9 New Rd", phone: DELIVERY.phone });
  });

  it("cancels a many-line order: every line's stock comes back exactly once, and the history says so", async () => {
    const a = await newTool(10);
    const b = await newTool(10);
    const c = await customer();
    await c.put(`/api/cart/lines/${a._id}`, { quantity: 3 });
    await c.put(`/api/cart/lines/${b._id}`, { quantity: 4 });
    const { order } = (await checkout(c, { ...DELIVERY, cartVersion: (await cartOf(c)).version })).json() as { order: { _id: string } };
    const results = await Promise.all([c.delete(`/api/order/${order._id}`), c.delete(`/api/order/${order._id}`)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect([await stock(a._id), await stock(b._id)]).toEqual([10, 10]);
    const after = orderSchema.parse((await c.get(`/api/order/${order._id}`)).json());
    expect(after.status).toBe("cancelled");
    expect(after.history.map((h) => [h.status, h.by])).toEqual([
      ["pending", "customer"],
      ["cancelled", "customer"],
    ]);
    // My Orders reads lines and history with the order in one statement: the same order.
    expect(orderSchema.parse((await c.get("/api/order")).json()[0])).toEqual(after);
  });

  it("lets many customers check out overlapping carts at once: never oversold, never a deadlock", async () => {
    const hot = [await newTool(30), await newTool(30), await newTool(30)];
    const initial = 30;
    const buyers = await Promise.all(Array.from({ length: 16 }, (_, i) => customer(`Rush ${i}`)));
    const carts: Cart[] = [];
    for (const [i, c] of buyers.entries()) {
      // Each cart holds two or three of the hot tools, added in a different order.
      const mine = i % 2 === 0 ? [...hot].reverse() : hot.slice(i % 3 === 0 ? 1 : 0);
      for (const tool of mine) await c.put(`/api/cart/lines/${tool._id}`, { quantity: 1 + (i % 4) });
      carts.push(await cartOf(c));
    }
    const results = await Promise.all(buyers.map((c, i) => checkout(c, { ...DELIVERY, cartVersion: carts[i]?.version })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.every((s) => s === 201 || s === 409), statuses.join(",")).toBe(true);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error === "CART_PROBLEMS")).toBe(true);
    const ordered = new Map<string, number>();
    for (const r of results.filter((res) => res.statusCode === 201)) {
      for (const line of (r.json() as { order: { lines: { toolId: string; quantity: number }[] } }).order.lines) {
        ordered.set(line.toolId, (ordered.get(line.toolId) ?? 0) + line.quantity);
      }
    }
    for (const tool of hot) {
      const left = (await stock(tool._id)) ?? -1;
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left + (ordered.get(tool._id) ?? 0)).toBe(initial);
    }
  });
});
