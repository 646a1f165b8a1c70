/**
 * Mail end to end against a real SMTP server started by the test (tests/support/smtp.ts):
 * order mail, a mail server that is down (nothing lost, nothing twice), two workers, a
 * refusing or hanging server, and no SMTP_URL at all.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../../tests/support/smtp";
import { ORDER_TEXT } from "../../contract/texts/orders";
import { mailOutbox } from "../db/schema";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { startMailWorker } from "./worker";

const ADMIN = "boss@toolyard.example";
const PUBLIC_URL = "http://localhost:3999";

describe.each(drivers())("mail on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpStandIn;
  let admin: Client;

  const newTool = async (availableQuantity = 100) => {
    const res = await admin.post("/api/tool", {
      name: `Mail tool ${Math.random().toString(36).slice(2, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 12.5,
      availableQuantity,
      minimumQuantity: 1,
      description: "For tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json()._id as string;
  };
  const customer = async () => {
    const email = uniqueEmail("mail");
    const c = new Client(t.app);
    expect((await c.signUp("Mail Buyer", email)).statusCode).toBe(200);
    return { c, email };
  };
  const outbox = async () => t.app.store.db.select().from(mailOutbox);
  /** Every pending message is due now (skips the backoff's wait). */
  const dueNow = () => t.app.store.db.execute(sql`update ${mailOutbox} set next_attempt_at = now() where status = 'pending'`);
  /**
   * Rounds until nothing is pending. A send the SMTP timeout (1 s here) cut off on a busy machine
   * is pending again after its backoff, as in the shop; the test makes it due at once rather than
   * wait, so a slow round never looks like a lost message.
   */
  const drain = async () => {
    for (let i = 0; i < 20; i++) {
      if ((await t.app.mail.worker.runOnce()) > 0) continue;
      if (!(await outbox()).some((m) => m.status === "pending")) return;
      await dueNow();
    }
  };

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    // The timer never fires during a test: the test runs the worker's rounds itself.
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000", MAIL_TIMEOUT_SECONDS: "1", MAIL_MAX_ATTEMPTS: "3" });
    admin = new Client(t.app);
    await admin.signUp("Boss", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("an order sends the customer its lines, total and payment, the admins a notice; shipped and cancelled follow", async () => {
    const toolId = await newTool();
    const { c, email } = await customer();
    const order = (await c.post("/api/order", { toolId, quantity: 3 })).json();
    // The message is in the outbox as soon as the order exists (same transaction).
    expect((await outbox()).filter((m) => m.to === email && m.kind === "order-placed")).toHaveLength(1);
    await drain();
    const placed = await smtp.waitFor(email, `#${order.number}`);
    expect(placed.from).toContain("shop@localhost");
    expect(placed.text).toContain(`3 × ${order.name}`);
    expect(placed.text).toContain("$37.50");
    expect(placed.text).toContain("Pay on delivery");
    expect(placed.text).toContain(`${PUBLIC_URL}/dashboard/orders/${order._id}`);
    expect(placed.html).toContain(`href="${PUBLIC_URL}/dashboard/orders/${order._id}"`);
    const notice = await smtp.waitFor(ADMIN, `New order #${order.number}`);
    expect(notice.text).toContain(`${PUBLIC_URL}/admin/orders/${order._id}`);

    for (const status of ["paid", "shipped"]) {
      expect((await admin.post(`/api/admin/orders/${order._id}/status`, { status })).statusCode).toBe(200);
    }
    await drain();
    expect((await smtp.waitFor(email, "is on its way")).text).toContain(`#${order.number}`);

    const second = (await c.post("/api/order", { toolId, quantity: 1 })).json();
    expect((await c.delete(`/api/order/${second._id}`)).statusCode).toBe(200);
    await drain();
    expect((await smtp.waitFor(email, "was cancelled")).subject).toContain(`#${second.number}`);
  });

  it("a checkout sends the customer the order's number, lines, total and payment, the admins a notice", async () => {
    const [saw, drill] = [await newTool(), await newTool()];
    const { c, email } = await customer();
    await c.put(`/api/cart/lines/${saw}`, { quantity: 2 });
    await c.put(`/api/cart/lines/${drill}`, { quantity: 1 });
    const cart = (await c.get("/api/cart")).json() as { version: string };
    const res = await c.request({
      method: "POST",
      url: "/api/checkout",
      payload: { address: "1 Main St", phone: "+1 555 0100", paymentMethod: "bank_transfer", cartVersion: cart.version },
      headers: { "idempotency-key": randomUUID() },
    });
    expect(res.statusCode).toBe(201);
    const { order } = res.json() as { order: { _id: string; number: number; invoiceNumber: string; lines: { name: string; quantity: number }[] } };
    // Written by the statement that wrote the order, with the number the order got.
    expect((await outbox()).filter((m) => m.to === email && m.kind === "order-placed")).toHaveLength(1);
    await drain();
    const placed = await smtp.waitFor(email, `#${order.number}`);
    for (const line of order.lines) expect(placed.text).toContain(`${line.quantity} × ${line.name}`);
    expect(placed.text).toContain("$37.50");
    expect(placed.text).toContain(ORDER_TEXT.paymentMethod.bank_transfer);
    expect(placed.text).toContain(`${PUBLIC_URL}/dashboard/orders/${order._id}`);
    // The invoice travels with the customer's message, rendered when it is sent.
    expect(placed.attachments.map((a) => [a.filename, a.contentType, a.content.subarray(0, 5).toString()])).toEqual([[`${order.invoiceNumber}.pdf`, "application/pdf", "%PDF-"]]);
    expect((await smtp.waitFor(ADMIN, `New order #${order.number}`)).text).toContain(`${PUBLIC_URL}/admin/orders/${order._id}`);
  });

  it("a mail server that is down delays mail and loses none; back up, each message arrives exactly once", async () => {
    const toolId = await newTool();
    const buyers = await Promise.all([customer(), customer(), customer()]);
    await drain();
    const before = smtp.messages.length;
    await smtp.stop();
    const orders: { number: number }[] = [];
    for (const { c } of buyers) orders.push((await c.post("/api/order", { toolId, quantity: 1 })).json());
    await t.app.mail.worker.runOnce();
    const waiting = (await outbox()).filter((m) => m.status === "pending" && m.kind === "order-placed" && buyers.some((b) => b.email === m.to));
    expect(waiting).toHaveLength(3);
    expect(waiting.every((m) => m.attempts === 1 && m.lastError)).toBe(true);

    await smtp.start();
    // Two workers (two instances) race for the same messages.
    const other = startMailWorker(t.app.store.db, t.config.mail, t.app.log, { autostart: false });
    await dueNow();
    await Promise.all([t.app.mail.worker.runOnce(), other.runOnce(), t.app.mail.worker.runOnce(), other.runOnce()]);
    await other.stop();
    await drain();
    for (const [i, { email }] of buyers.entries()) {
      const got = smtp.to(email).filter((m) => m.subject.includes(`#${orders[i]?.number}`));
      expect(got).toHaveLength(1);
    }
    const notices = smtp.to(ADMIN).filter((m) => orders.some((o) => m.subject.startsWith(`New order #${o.number} `)));
    expect(notices).toHaveLength(3);
    expect(smtp.messages.length - before).toBe(6);
    expect((await outbox()).filter((m) => m.status === "pending")).toHaveLength(0);
  });

  it("a server that refuses or hangs fails the attempt (with its reason), retries with backoff, then gives up as failed", async () => {
    const toolId = await newTool();
    const { c, email } = await customer();
    await drain();
    smtp.mode = "hang";
    await c.post("/api/order", { toolId, quantity: 1 });
    const started = Date.now();
    await t.app.mail.worker.runOnce();
    expect(Date.now() - started).toBeLessThan(8000);
    let row = (await outbox()).find((m) => m.to === email && m.kind === "order-placed");
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row?.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    smtp.mode = "refuse";
    await dueNow();
    await t.app.mail.worker.runOnce();
    await dueNow();
    await t.app.mail.worker.runOnce();
    row = (await outbox()).find((m) => m.to === email && m.kind === "order-placed");
    expect(row).toMatchObject({ status: "failed", attempts: 3 });
    expect(row?.lastError).toMatch(/550|Mailbox unavailable/);
    smtp.mode = "accept";
    await drain();
  });

  it("lists the outbox for admins only", async () => {
    const res = await admin.get("/api/admin/mail");
    expect(res.statusCode).toBe(200);
    const items = res.json() as { status: string; to: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(Number(res.headers["x-total-count"])).toBeGreaterThanOrEqual(items.length);
    expect(items.some((m) => m.status === "sent")).toBe(true);
    expect(items.some((m) => m.status === "failed")).toBe(true);
    const failed = (await admin.get("/api/admin/mail?status=failed")).json() as { status: string }[];
    expect(failed.every((m) => m.status === "failed")).toBe(true);
    const { c } = await customer();
    expect((await c.get("/api/admin/mail")).statusCode).toBe(403);
  });
});

describe("mail without SMTP_URL", () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestApp("pglite", { MAIL_POLL_MS: "3600000" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps the message and writes its text, links included, to the log", async () => {
    const worker = startMailWorker(t.app.store.db, t.config.mail, {
      info: (_obj: unknown, msg: string) => lines.push(msg),
      warn: () => undefined,
    } as never, { autostart: false });
    await t.app.store.db.insert(mailOutbox).values({ to: "a@example.com", subject: "Hi", text: "Open http://localhost:3999/reset-password?token=abc", html: "<p>x</p>", kind: "test" });
    expect(await worker.runOnce()).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    await worker.stop();
    expect(lines.join("\n")).toContain("http://localhost:3999/reset-password?token=abc");
    const [row] = await t.app.store.db.select().from(mailOutbox);
    expect(row?.status).toBe("pending");
    expect(row?.lastError).toContain("SMTP_URL");
  });
});
