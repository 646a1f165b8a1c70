import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../db/schema";
import { ApiError } from "../http/errors";
import { changeStock, ledgerStock } from "../stock/ledger";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { flagPayment, numberPaidInvoice, payInvoices } from ".";

const ADMIN = "transitions@toolyard.example";

/** The transitions other folders ask of orders/ refuse what breaks their rule with a 409, writing nothing (issue 49). */
describe.each(drivers())("order transitions on %s", (driver) => {
  let t: TestApp;
  let admin: Client;

  const refusal = async (run: Promise<unknown>): Promise<{ status: number; code: string }> => {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    const { statusCode, code } = error as ApiError;
    return { status: statusCode, code };
  };
  const newTool = async (availableQuantity: number) => {
    const res = await admin.post("/api/tool", {
      name: `Transition tool ${Math.random().toString(36).slice(2, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 10,
      availableQuantity,
      minimumQuantity: 1,
      description: "For tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json()._id as string;
  };
  const placed = async () => {
    const c = new Client(t.app);
    expect((await c.signUp("Buyer", uniqueEmail("transitions"))).statusCode).toBe(200);
    const res = await c.post("/api/order", { toolId: await newTool(10), quantity: 2 });
    expect(res.statusCode).toBe(201);
    const [row] = await t.app.store.db.select().from(schema.orders).where(eq(schema.orders.id, res.json()._id as string));
    if (!row) throw new Error("order not stored");
    return row;
  };
  const orderRow = async (id: string) => (await t.app.store.db.select().from(schema.orders).where(eq(schema.orders.id, id)))[0];

  beforeAll(async () => {
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN });
    admin = new Client(t.app);
    await admin.signUp("Admin", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("flags a payment problem only on a card order", async () => {
    const order = await placed();
    expect(order.paymentMethod).not.toBe("card");
    expect(await refusal(t.app.store.db.transaction((tx) => flagPayment(tx, order.id, "REFUND_FAILED")))).toEqual({ status: 409, code: "NOT_A_CARD_ORDER" });
    expect((await orderRow(order.id))?.paymentProblem).toBeNull();
  });

  it("numbers a card order's invoice only once it is paid, and once", async () => {
    const order = await placed();
    // As a card order waiting for its payment is: no invoice yet.
    await t.app.store.db.update(schema.orders).set({ paymentMethod: "card", status: "awaiting_payment", invoiceNumber: null }).where(eq(schema.orders.id, order.id));
    expect(await refusal(t.app.store.db.transaction((tx) => numberPaidInvoice(tx, { id: order.id, invoiceNumber: null })))).toEqual({ status: 409, code: "ORDER_NOT_PAID" });
    expect((await orderRow(order.id))?.invoiceNumber).toBeNull();
    await t.app.store.db.update(schema.orders).set({ status: "paid" }).where(eq(schema.orders.id, order.id));
    const first = await t.app.store.db.transaction((tx) => numberPaidInvoice(tx, { id: order.id, invoiceNumber: null }));
    expect(first).toMatch(/^INV-/);
    expect(await t.app.store.db.transaction((tx) => numberPaidInvoice(tx, { id: order.id, invoiceNumber: null }))).toBe(first);
    expect((await orderRow(order.id))?.invoiceNumber).toBe(first);
  });

  it("applies an account's payment only to open terms invoices, never beyond their total", async () => {
    const order = await placed();
    // Not a terms invoice: refused, nothing paid.
    expect(await refusal(t.app.store.db.transaction((tx) => payInvoices(tx, [{ orderId: order.id, cents: 100 }])))).toEqual({ status: 409, code: "INVOICE_NOT_OPEN" });
    await t.app.store.db.update(schema.orders).set({ paymentMethod: "terms", invoiceNumber: `INV-T-${order.number}` }).where(eq(schema.orders.id, order.id));
    for (const cents of [0, -5, order.totalCents + 1]) {
      expect(await refusal(t.app.store.db.transaction((tx) => payInvoices(tx, [{ orderId: order.id, cents }])))).toEqual({ status: 409, code: "INVOICE_NOT_OPEN" });
    }
    expect((await orderRow(order.id))?.paidCents).toBe(0);
    await t.app.store.db.transaction((tx) => payInvoices(tx, [{ orderId: order.id, cents: order.totalCents - 1 }]));
    expect((await orderRow(order.id))?.paidCents).toBe(order.totalCents - 1);
    expect(await refusal(t.app.store.db.transaction((tx) => payInvoices(tx, [{ orderId: order.id, cents: 2 }])))).toEqual({ status: 409, code: "INVOICE_NOT_OPEN" });
    expect((await orderRow(order.id))?.paidCents).toBe(order.totalCents - 1);
  });

  it("changes stock only with its movements: the tool's stock is the sum of its ledger", async () => {
    const toolId = await newTool(5);
    const after = await t.app.store.db.transaction((tx) =>
      changeStock(tx, [
        { toolId, delta: -3, reason: "quote_hold", note: "Q-1" },
        { toolId, delta: 1, reason: "quote_release", note: "Q-1" },
      ]),
    );
    expect(after.get(toolId)).toBe(3);
    expect(await ledgerStock(t.app.store.db, toolId)).toBe(3);
  });
});
