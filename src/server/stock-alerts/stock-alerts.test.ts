/**
 * Back-in-stock alerts (issue 42, decision 0019) against a real SMTP server started by the test:
 * a signed-in customer's one click, a visitor's confirmed address, wrong and expired links, the
 * limits, unsubscribing, the refusals, and each subscriber mailed once whatever brought the stock
 * back, also with two workers (PGlite) and two instances on one Postgres database.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { linkIn, startSmtpStandIn, type SmtpStandIn } from "../../../tests/support/smtp";
import type { AdminTool } from "../../contract/admin-schemas";
import type { Order } from "../../contract/schemas";
import { buildApp } from "../app";
import { loadConfig } from "../config";
import { mailOutbox, stockAlerts } from "../db/schema";
import { prepareStore } from "../start-up";
import { startMailWorker } from "../mail/worker";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { alertRound, flushDueAlerts } from "./service";
import { STOCK_ALERT_LIMITS } from "./routes";
import { STOCK_ALERT_TEXT } from "../../contract/texts/stock-alerts";
import { confirmToken } from "./tokens";

const ADMIN = "alerts-boss@toolyard.example";
const PUBLIC_URL = "http://localhost:3999";
const SECRET = "test-secret-test-secret-test-secret-0123";

describe.each(drivers())("back-in-stock alerts on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpStandIn;
  let admin: Client;
  let address = 1;
  /** A client from an address of its own: the limits per client address stay each test's own. */
  const visitor = () => new Client(t.app, `10.42.${Math.floor(address / 250)}.${(address++ % 250) + 1}`);

  const newTool = async (availableQuantity = 0, minimumQuantity = 1) => {
    const res = await admin.post("/api/tool", {
      name: `Alert tool ${Math.random().toString(36).slice(2, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price: 20,
      availableQuantity,
      minimumQuantity,
      description: "For the alert tests.",
      category: "power-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { _id: string; name: string };
  };
  const customer = async () => {
    const email = uniqueEmail("alert");
    const c = visitor();
    expect((await c.signUp("Alert Fan", email)).statusCode).toBe(200);
    return { c, email };
  };
  const restock = async (toolId: string, delta: number) => {
    const res = await admin.post(`/api/admin/tools/${toolId}/stock`, { delta, reason: delta > 0 ? "restock" : "correction", note: "alert test" });
    expect(res.statusCode, res.body).toBe(200);
  };
  const drain = async () => {
    for (let i = 0; i < 20 && (await t.app.mail.worker.runOnce()) > 0; i++);
  };
  const waiting = async (toolId: string) => {
    const res = await admin.get(`/api/admin/tools/${toolId}`);
    expect(res.statusCode).toBe(200);
    return (res.json() as { tool: AdminTool }).tool.alertsWaiting;
  };
  const outboxTo = async (email: string, kind: string) =>
    (await t.app.store.db.select().from(mailOutbox).where(sql`${mailOutbox.to} = ${email} and ${mailOutbox.kind} = ${kind}`)).length;
  const rowsFor = async (toolId: string) => t.app.store.db.select().from(stockAlerts).where(sql`${stockAlerts.toolId} = ${toolId}`);
  /** A visitor's request, its confirmation mail and the link's token. */
  const requestAndRead = async (toolId: string, email: string, c = visitor()) => {
    const res = await c.post(`/api/tool/${toolId}/stock-alerts`, { email });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toEqual({ toolId, status: "confirmation_sent" });
    await drain();
    const mail = await smtp.waitFor(email, "Confirm your alert");
    const link = linkIn(mail, `${PUBLIC_URL}/tools/${toolId}?stockAlert=confirm&token=`);
    return { mail, token: new URL(link).searchParams.get("token") ?? "" };
  };

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000" });
    admin = new Client(t.app, "10.42.255.1");
    await admin.signUp("Boss", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("signed in, one click subscribes the account's own address (twice is once); the restock mails it once with the tool's and an unsubscribe link", async () => {
    const tool = await newTool(0);
    const { c, email } = await customer();
    expect((await c.get(`/api/me/stock-alerts/${tool._id}`)).json()).toEqual({ toolId: tool._id, status: "none" });
    for (let i = 0; i < 2; i++) {
      const res = await c.put(`/api/me/stock-alerts/${tool._id}`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ toolId: tool._id, status: "subscribed" });
    }
    expect((await c.get(`/api/me/stock-alerts/${tool._id}`)).json()).toEqual({ toolId: tool._id, status: "subscribed" });
    expect(await rowsFor(tool._id)).toHaveLength(1);
    expect(await waiting(tool._id)).toBe(1);
    // The console's list shows it too.
    const list = (await admin.get(`/api/admin/tools?q=${encodeURIComponent(tool.name)}`)).json() as AdminTool[];
    expect(list.find((x) => x._id === tool._id)?.alertsWaiting).toBe(1);

    await restock(tool._id, 5);
    await drain();
    const alert = await smtp.waitFor(email, `${tool.name} is back in stock`);
    expect(alert.text).toContain(`${PUBLIC_URL}/tools/${tool._id}`);
    expect(alert.html).toContain(`href="${PUBLIC_URL}/tools/${tool._id}"`);
    expect(linkIn(alert, `${PUBLIC_URL}/tools/${tool._id}?stockAlert=unsubscribe&token=`)).toBeTruthy();
    expect(await waiting(tool._id)).toBe(0);
    expect((await c.get(`/api/me/stock-alerts/${tool._id}`)).json()).toEqual({ toolId: tool._id, status: "none" });

    // Sold out and back again: the subscription is done, nobody is mailed twice.
    await restock(tool._id, -5);
    await restock(tool._id, 3);
    await drain();
    expect(await outboxTo(email, "stock-alert-back")).toBe(1);
    expect(smtp.to(email).filter((m) => m.subject.includes("is back in stock"))).toHaveLength(1);
  });

  it("stops the signed-in customer's own alert from the tool's page", async () => {
    const tool = await newTool(0);
    const { c, email } = await customer();
    expect((await c.put(`/api/me/stock-alerts/${tool._id}`, {})).statusCode).toBe(200);
    const res = await c.delete(`/api/me/stock-alerts/${tool._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ toolId: tool._id, status: "none" });
    expect(await waiting(tool._id)).toBe(0);
    await restock(tool._id, 2);
    await drain();
    expect(await outboxTo(email, "stock-alert-back")).toBe(0);
  });

  it("a visitor's address is subscribed only once the mailed link is confirmed; a cancelled order's stock coming back mails it", async () => {
    const tool = await newTool(2);
    const buyer = await customer();
    const order = (await buyer.c.post("/api/order", { toolId: tool._id, quantity: 2 })).json() as Order;
    expect(order.status).toBe("pending");

    const email = uniqueEmail("visitor");
    const { mail, token } = await requestAndRead(tool._id, email);
    expect(mail.text).toContain(`${PUBLIC_URL}/tools/${tool._id}`);
    // Not subscribed before the link is opened.
    expect(await waiting(tool._id)).toBe(0);
    expect((await rowsFor(tool._id)).map((r) => r.status)).toEqual(["pending"]);

    const confirmed = await visitor().post("/api/stock-alerts/confirm", { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ toolId: tool._id, toolName: tool.name, status: "subscribed", inStock: false });
    // Opening it twice is harmless.
    expect((await visitor().post("/api/stock-alerts/confirm", { token })).json()).toMatchObject({ status: "subscribed" });
    expect(await waiting(tool._id)).toBe(1);

    expect((await buyer.c.delete(`/api/order/${order._id}`)).statusCode).toBe(200);
    await drain();
    const alert = await smtp.waitFor(email, `${tool.name} is back in stock`);
    expect(alert.text).toContain(`${PUBLIC_URL}/tools/${tool._id}`);
    expect(await outboxTo(email, "stock-alert-back")).toBe(1);
    // The mail's unsubscribe link now says the alert is over.
    const unsubscribe = new URL(linkIn(alert, `${PUBLIC_URL}/tools/${tool._id}?stockAlert=unsubscribe&token=`)).searchParams.get("token");
    expect((await visitor().get(`/api/stock-alerts/unsubscribe?token=${unsubscribe}`)).json()).toMatchObject({ status: "sent", inStock: true });
  });

  it("an address already waiting gets no second confirmation, and the answer is the same", async () => {
    const tool = await newTool(0);
    const { c, email } = await customer();
    expect((await c.put(`/api/me/stock-alerts/${tool._id}`, {})).statusCode).toBe(200);
    const res = await visitor().post(`/api/tool/${tool._id}/stock-alerts`, { email });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ toolId: tool._id, status: "confirmation_sent" });
    expect(await outboxTo(email, "stock-alert-confirm")).toBe(0);
    expect(await rowsFor(tool._id)).toHaveLength(1);
  });

  it("a wrong, altered or expired confirmation link is refused with a clear error, and subscribes nobody", async () => {
    const tool = await newTool(0);
    const email = uniqueEmail("visitor");
    const { token } = await requestAndRead(tool._id, email);
    const [id = ""] = token.split(".");
    for (const wrong of ["nonsense", `${token}x`, `${id}.99999999999.${token.split(".")[2]}`, confirmToken("another-secret-another-secret-another-s", id, new Date(Date.now() + 3600_000))]) {
      const res = await visitor().post("/api/stock-alerts/confirm", { token: wrong });
      expect(res.statusCode, wrong).toBe(400);
      expect(res.json()).toMatchObject({ error: "INVALID_TOKEN" });
    }
    const expired = await visitor().post("/api/stock-alerts/confirm", { token: confirmToken(SECRET, id, new Date(Date.now() - 1000)) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ error: "TOKEN_EXPIRED" });
    const empty = await visitor().post("/api/stock-alerts/confirm", { token: "" });
    expect(empty.statusCode).toBe(400);
    expect((empty.json() as { details: { path: string }[] }).details.map((d) => d.path)).toContain("body.token");
    expect((await rowsFor(tool._id)).map((r) => r.status)).toEqual(["pending"]);
    expect(await waiting(tool._id)).toBe(0);
  });

  it("an unconfirmed subscription goes once its link has expired (the mail worker's round, racing sweeps delete it once); its links then say so", async () => {
    const tool = await newTool(0);
    const late = uniqueEmail("never");
    const again = uniqueEmail("again");
    const { mail, token } = await requestAndRead(tool._id, late);
    await requestAndRead(tool._id, again);
    const expire = (email: string) =>
      t.app.store.db.execute(sql`update ${stockAlerts} set confirm_expires_at = now() - interval '1 second' where tool_id = ${tool._id} and email = ${email}`);
    // The second address asks again after its link expired: a new link, with a new day, keeps its row.
    await expire(again);
    expect((await visitor().post(`/api/tool/${tool._id}/stock-alerts`, { email: again })).statusCode).toBe(202);
    await drain();
    await vi.waitFor(() => expect(smtp.to(again).filter((m) => m.subject.includes("Confirm your alert"))).toHaveLength(2));
    await expire(late);
    expect((await rowsFor(tool._id)).map((r) => r.email).sort()).toEqual([again, late].sort());

    const settings = { publicUrl: PUBLIC_URL, secret: SECRET };
    const other = startMailWorker(t.app.store.db, t.config.mail, t.app.log, { autostart: false, produce: () => alertRound(t.app.store.db, settings) });
    await Promise.all([t.app.mail.worker.runOnce(), other.runOnce()]);
    await other.stop();
    expect((await rowsFor(tool._id)).map((r) => [r.email, r.status])).toEqual([[again, "pending"]]);

    // The expired link says it expired (not that it is wrong), and confirms nothing.
    const [id = ""] = token.split(".");
    const expired = await visitor().post("/api/stock-alerts/confirm", { token: confirmToken(SECRET, id, new Date(Date.now() - 1000)) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ error: "TOKEN_EXPIRED", message: STOCK_ALERT_TEXT.tokenExpired });
    // Its mail's unsubscribe link: there is nothing to stop, and it says why.
    const stop = new URL(linkIn(mail, `${PUBLIC_URL}/tools/${tool._id}?stockAlert=unsubscribe&token=`)).searchParams.get("token") ?? "";
    for (const res of [await visitor().get(`/api/stock-alerts/unsubscribe?token=${stop}`), await visitor().post("/api/stock-alerts/unsubscribe", { token: stop })]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: "ALERT_GONE", message: STOCK_ALERT_TEXT.alertGone });
    }
    expect((await rowsFor(tool._id)).map((r) => r.email)).toEqual([again]);
    // The address that asked again confirms with its new link.
    const fresh = new URL(linkIn(smtp.to(again)[1] ?? mail, `${PUBLIC_URL}/tools/${tool._id}?stockAlert=confirm&token=`)).searchParams.get("token") ?? "";
    expect((await visitor().post("/api/stock-alerts/confirm", { token: fresh })).json()).toMatchObject({ status: "subscribed" });
    expect(await waiting(tool._id)).toBe(1);
    // A new request for the first address starts over.
    await requestAndRead(tool._id, late);
    expect((await rowsFor(tool._id)).find((r) => r.email === late)?.status).toBe("pending");
  });

  it("refuses an invalid e-mail (400 naming the field), an unknown tool (404), a tool in stock (409 IN_STOCK), and saves nothing", async () => {
    const soldOut = await newTool(0);
    const stocked = await newTool(5);
    // Three in stock but a minimum of five: it cannot be ordered, so one may subscribe to it.
    const belowMinimum = await newTool(3, 5);
    const c = visitor();
    for (const email of ["not-an-email", "", "a@b"]) {
      const res = await c.post(`/api/tool/${soldOut._id}/stock-alerts`, { email });
      expect(res.statusCode, email).toBe(400);
      expect(res.json()).toMatchObject({ error: "VALIDATION" });
      expect((res.json() as { details: { path: string }[] }).details.map((d) => d.path)).toContain("body.email");
    }
    const unknown = await c.post("/api/tool/no-such-tool/stock-alerts", { email: uniqueEmail("v") });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "NOT_FOUND" });
    const inStock = await c.post(`/api/tool/${stocked._id}/stock-alerts`, { email: uniqueEmail("v") });
    expect(inStock.statusCode).toBe(409);
    expect(inStock.json()).toMatchObject({ error: "IN_STOCK" });
    const { c: member } = await customer();
    const own = await member.put(`/api/me/stock-alerts/${stocked._id}`, {});
    expect(own.statusCode).toBe(409);
    expect(own.json()).toMatchObject({ error: "IN_STOCK" });
    expect((await member.put("/api/me/stock-alerts/no-such-tool", {})).statusCode).toBe(404);
    expect((await visitor().put(`/api/me/stock-alerts/${soldOut._id}`, {})).statusCode).toBe(401);
    expect(await rowsFor(soldOut._id)).toHaveLength(0);
    expect(await rowsFor(stocked._id)).toHaveLength(0);
    expect((await member.put(`/api/me/stock-alerts/${belowMinimum._id}`, {})).statusCode).toBe(200);
  });

  it("limits confirmation requests per e-mail address and per client address (429 with Retry-After), saving nothing past them", async () => {
    const tool = await newTool(0);
    const email = uniqueEmail("flood");
    for (let i = 0; i < STOCK_ALERT_LIMITS.perEmail; i++) {
      expect((await visitor().post(`/api/tool/${tool._id}/stock-alerts`, { email })).statusCode).toBe(202);
    }
    const refused = await visitor().post(`/api/tool/${tool._id}/stock-alerts`, { email });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: "RATE_LIMITED" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await outboxTo(email, "stock-alert-confirm")).toBe(STOCK_ALERT_LIMITS.perEmail);

    const one = visitor();
    const flood = Array.from({ length: STOCK_ALERT_LIMITS.perClient + 1 }, () => uniqueEmail("flood"));
    const statuses = [];
    for (const e of flood) statuses.push((await one.post(`/api/tool/${tool._id}/stock-alerts`, { email: e })).statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(STOCK_ALERT_LIMITS.perClient);
    expect(statuses.at(-1)).toBe(429);
    const last = flood.at(-1) ?? "";
    expect((await rowsFor(tool._id)).some((r) => r.email === last)).toBe(false);
    expect(await outboxTo(last, "stock-alert-confirm")).toBe(0);
  });

  it("the unsubscribe link's page changes nothing; its POST stops the alert (from any device, no sign-in)", async () => {
    const tool = await newTool(0);
    const email = uniqueEmail("leaver");
    const { mail, token } = await requestAndRead(tool._id, email);
    expect((await visitor().post("/api/stock-alerts/confirm", { token })).statusCode).toBe(200);
    const stop = new URL(linkIn(mail, `${PUBLIC_URL}/tools/${tool._id}?stockAlert=unsubscribe&token=`)).searchParams.get("token") ?? "";
    const preview = await visitor().get(`/api/stock-alerts/unsubscribe?token=${stop}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ toolId: tool._id, toolName: tool.name, status: "subscribed", inStock: false });
    expect(await waiting(tool._id)).toBe(1);
    const bad = await visitor().post("/api/stock-alerts/unsubscribe", { token: `${stop.split(".")[0]}.forged` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "INVALID_TOKEN" });
    const ended = await visitor().post("/api/stock-alerts/unsubscribe", { token: stop });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ status: "ended" });
    expect((await visitor().post("/api/stock-alerts/unsubscribe", { token: stop })).json()).toMatchObject({ status: "ended" });
    expect(await waiting(tool._id)).toBe(0);
    await restock(tool._id, 4);
    await drain();
    expect(await outboxTo(email, "stock-alert-back")).toBe(0);
  });

  it("a confirmation opened after the tool came back mails the alert at once", async () => {
    const tool = await newTool(0);
    const email = uniqueEmail("late");
    const { token } = await requestAndRead(tool._id, email);
    await restock(tool._id, 1);
    const res = await visitor().post("/api/stock-alerts/confirm", { token });
    expect(res.json()).toMatchObject({ status: "subscribed", inStock: true });
    await drain();
    expect((await smtp.waitFor(email, `${tool.name} is back in stock`)).text).toContain(`/tools/${tool._id}`);
  });

  it("racing workers mail each subscriber exactly once", async () => {
    const tool = await newTool(0);
    const fans = await Promise.all(Array.from({ length: 6 }, () => customer()));
    for (const { c } of fans) expect((await c.put(`/api/me/stock-alerts/${tool._id}`, {})).statusCode).toBe(200);
    await restock(tool._id, 10);
    const settings = { publicUrl: PUBLIC_URL, secret: SECRET };
    const other = startMailWorker(t.app.store.db, t.config.mail, t.app.log, { autostart: false, produce: () => flushDueAlerts(t.app.store.db, settings) });
    await Promise.all([t.app.mail.worker.runOnce(), other.runOnce(), t.app.mail.worker.runOnce(), other.runOnce()]);
    await other.stop();
    await drain();
    for (const { email } of fans) {
      await smtp.waitFor(email, "is back in stock");
      expect(await outboxTo(email, "stock-alert-back")).toBe(1);
      expect(smtp.to(email).filter((m) => m.subject.includes("is back in stock"))).toHaveLength(1);
    }
  });

  it.runIf(driver === "postgres")("two instances on one Postgres database mail each subscriber exactly once", async () => {
    const second = await buildApp(
      loadConfig({
        NODE_ENV: "test",
        AUTH_SECRET: SECRET,
        PUBLIC_URL,
        DATA_DIR: "memory://",
        DATABASE_URL: t.config.databaseUrl as string,
        SMTP_URL: smtp.url,
        MAIL_POLL_MS: "3600000",
      }),
    );
    await prepareStore(second);
    await second.ready();
    try {
      const tool = await newTool(0);
      const fans = await Promise.all(Array.from({ length: 8 }, () => customer()));
      // Half subscribe on one instance, half on the other; a visitor confirms on the second.
      for (const [i, { c, email }] of fans.entries()) {
        const on = i % 2 === 0 ? c : new Client(second, "10.42.254.1");
        if (i % 2 === 0) expect((await on.put(`/api/me/stock-alerts/${tool._id}`, {})).statusCode).toBe(200);
        else {
          expect((await on.post(`/api/tool/${tool._id}/stock-alerts`, { email })).statusCode).toBe(202);
        }
      }
      for (const [i, { email }] of fans.entries()) {
        if (i % 2 === 0) continue;
        const [row] = await t.app.store.db.select().from(stockAlerts).where(sql`${stockAlerts.toolId} = ${tool._id} and ${stockAlerts.email} = ${email}`);
        const token = confirmToken(SECRET, row?.id ?? "", new Date(Date.now() + 3600_000));
        expect((await new Client(second, "10.42.254.2").post("/api/stock-alerts/confirm", { token })).statusCode).toBe(200);
      }
      expect(await waiting(tool._id)).toBe(fans.length);
      await restock(tool._id, 3);
      await Promise.all([t.app.mail.worker.runOnce(), second.mail.worker.runOnce(), t.app.mail.worker.runOnce(), second.mail.worker.runOnce()]);
      for (let i = 0; i < 5; i++) await Promise.all([t.app.mail.worker.runOnce(), second.mail.worker.runOnce()]);
      for (const { email } of fans) {
        await smtp.waitFor(email, "is back in stock");
        expect(await outboxTo(email, "stock-alert-back")).toBe(1);
        expect(smtp.to(email).filter((m) => m.subject.includes("is back in stock"))).toHaveLength(1);
      }
      expect(await waiting(tool._id)).toBe(0);
    } finally {
      await second.close();
    }
  });
});
