/**
 * Invoices and credit notes (issue 31): the gapless counter under concurrent and rolled-back
 * transactions, the PDF download and who may have it, what the document says, and the order
 * e-mail that carries it (through a real SMTP stand-in).
 */
import { inflateSync } from "node:zlib";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpStandIn, type SmtpStandIn } from "../../../tests/support/smtp";
import { formatDollars } from "../../contract/money";
import type { Order } from "../../contract/schemas";
import { API_TEXT } from "../../contract/texts/api";
import { INVOICE_TEXT, MONEY_TEXT } from "../../contract/texts/money";
import { ORDER_TEXT } from "../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { creditNotes, documentCounters, orderLines, orders, storeSettings } from "../db/schema";
import { enqueueMail } from "../mail/outbox";
import { Client, drivers, startTestApp, uniqueEmail, type TestApp } from "../test-support";
import { documentNumberSql, formatDocumentNumber, reserveDocumentNumbersSql, takeDocumentNumbers } from "./numbers";
import { loadCreditNote, loadInvoiceData, renderCreditNotePdf, renderInvoicePdf, winAnsi, type CreditNoteData } from "./pdf";

const ADMIN = "ledger@toolyard.example";

/**
 * The text a PDF shows, line by line: every content stream (inflated when pdfkit compressed it),
 * each `[...] TJ` array's hex strings decoded as WinAnsi (Latin-1 for what the tests print).
 */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString("latin1");
  const out: string[] = [];
  for (const m of raw.matchAll(/<<([^]*?)>>\s*stream\r?\n/g)) {
    const length = Number(/\/Length (\d+)/.exec(m[1] ?? "")?.[1]);
    const start = (m.index ?? 0) + m[0].length;
    let data = pdf.subarray(start, start + length);
    if ((m[1] ?? "").includes("/FlateDecode")) data = inflateSync(data);
    for (const tj of data.toString("latin1").matchAll(/\[(.*?)\] TJ/g)) {
      out.push([...(tj[1] ?? "").matchAll(/<([0-9a-f]*)>/g)].map((h) => Buffer.from(h[1] ?? "", "hex").toString("latin1")).join(""));
    }
  }
  return out.join("\n");
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

describe.each(drivers())("invoices on %s", (driver) => {
  let t: TestApp;
  let smtp: SmtpStandIn;
  let admin: Client;

  const newTool = async (price = 12.5) => {
    const res = await admin.post("/api/tool", {
      name: `Invoice tool ${Math.random().toString(36).slice(2, 8)}`,
      image: "/images/tools/jigsaw.svg",
      price,
      availableQuantity: 100,
      minimumQuantity: 1,
      description: "For tests.",
      category: "hand-tools",
    });
    expect(res.statusCode).toBe(201);
    return res.json()._id as string;
  };
  const customer = async (name = "Ada Buyer") => {
    const email = uniqueEmail("invoice");
    const c = new Client(t.app);
    expect((await c.signUp(name, email)).statusCode).toBe(200);
    return { c, email };
  };
  const place = async (c: Client, quantity = 2) => {
    const res = await c.post("/api/order", { toolId: await newTool(), quantity });
    expect(res.statusCode).toBe(201);
    return res.json() as Order;
  };
  const drain = async () => {
    for (let i = 0; i < 20 && (await t.app.mail.worker.runOnce()) > 0; i++);
  };
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    t = await startTestApp(driver, { ADMIN_EMAILS: ADMIN, SMTP_URL: smtp.url, MAIL_POLL_MS: "3600000", MAIL_TIMEOUT_SECONDS: "2" });
    admin = new Client(t.app);
    await admin.signUp("Owner", ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe("numbers", () => {
    // Years of their own, so the orders the other tests place (this year) do not count here.
    it("gives racing transactions distinct consecutive numbers, and a rolled-back one's numbers to the next", async () => {
      const { db } = t.app.store;
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let firstTook: string[] = [];
      const tookFirst = new Promise<void>((resolve) => {
        // The first transaction takes two numbers and holds the counter until the gate opens, then rolls back.
        void db
          .transaction(async (tx) => {
            firstTook = await takeDocumentNumbers(tx, "INV", 2091, 2);
            resolve();
            await gate;
            throw new Error("roll back");
          })
          .catch(() => undefined);
      });
      await tookFirst;
      expect(firstTook).toEqual(["INV-2091-000001", "INV-2091-000002"]);
      // These wait for the counter's row; the first one's numbers come back to them.
      const racing = Array.from({ length: 6 }, (_, i) => db.transaction((tx) => takeDocumentNumbers(tx, "INV", 2091, (i % 3) + 1)));
      await new Promise((r) => setTimeout(r, 50));
      release();
      const taken = (await Promise.all(racing)).flat().sort();
      expect(taken).toEqual(Array.from({ length: 12 }, (_, i) => formatDocumentNumber("INV", 2091, i + 1)));
      for (const list of await Promise.all(racing)) {
        // Each transaction's own numbers are consecutive.
        const ns = list.map((n) => Number(n.slice(-6)));
        expect(ns).toEqual(ns.map((_, i) => (ns[0] ?? 0) + i));
      }
      const [counter] = await db.select().from(documentCounters).where(eq(documentCounters.year, 2091));
      expect(counter).toMatchObject({ kind: "INV", last: 12 });
    });

    it("numbers the year in the store's time zone (default America/New_York), not UTC (issue 40)", async () => {
      const { db } = t.app.store;
      // 8 pm on 31 December 2095 in New York is already 2096 in UTC.
      const newYearsEve = new Date("2096-01-01T01:00:00Z");
      expect(await db.transaction((tx) => takeDocumentNumbers(tx, "INV", newYearsEve, 1))).toEqual(["INV-2095-000001"]);
      await db.update(storeSettings).set({ timeZone: "UTC" }).where(eq(storeSettings.id, 1));
      try {
        expect(await db.transaction((tx) => takeDocumentNumbers(tx, "INV", newYearsEve, 1))).toEqual(["INV-2096-000001"]);
      } finally {
        await db.update(storeSettings).set({ timeZone: "America/New_York" }).where(eq(storeSettings.id, 1));
      }
    });

    it("starts each year and each kind at 000001, and formats the same in SQL", async () => {
      const { db } = t.app.store;
      await db.transaction((tx) => takeDocumentNumbers(tx, "INV", 2093, 3));
      expect(await db.transaction((tx) => takeDocumentNumbers(tx, "INV", 2094, 1))).toEqual(["INV-2094-000001"]);
      expect(await db.transaction((tx) => takeDocumentNumbers(tx, "CN", 2093, 1))).toEqual(["CN-2093-000001"]);
      expect(await db.transaction((tx) => takeDocumentNumbers(tx, "INV", 2093, 1))).toEqual(["INV-2093-000004"]);
      // The fragment variant: reserve in a CTE and number the rows in the same statement.
      const result = await db.execute(sql`
        with counter as (${reserveDocumentNumbersSql("CN", 2093, 2)})
        select ${documentNumberSql("CN", 2093, sql`counter.last - 2 + g`)} as number from counter, generate_series(1, 2) g order by g`);
      expect(rowsOf<{ number: string }>(result).map((r) => r.number)).toEqual(["CN-2093-000002", "CN-2093-000003"]);
      expect(formatDocumentNumber("CN", 2093, 1234567)).toBe("CN-2093-1234567");
    });

    it("numbers orders racing for the last stock without a gap: the refused ones take none", async () => {
      const toolRes = await admin.post("/api/tool", {
        name: `Scarce tool ${Math.random().toString(36).slice(2, 8)}`,
        image: "/images/tools/jigsaw.svg",
        price: 30,
        availableQuantity: 3,
        minimumQuantity: 1,
        description: "Only three.",
        category: "hand-tools",
      });
      const toolId = toolRes.json()._id as string;
      const buyers = await Promise.all(Array.from({ length: 6 }, () => customer()));
      const results = await Promise.all(buyers.map(({ c }) => c.post("/api/order", { toolId, quantity: 1 })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409]);
      const numbers = results
        .filter((r) => r.statusCode === 201)
        .map((r) => Number((r.json() as Order).invoiceNumber?.slice(-6)))
        .sort((a, b) => a - b);
      expect(numbers).toEqual([numbers[0], (numbers[0] ?? 0) + 1, (numbers[0] ?? 0) + 2]);
      const [counter] = await t.app.store.db.select().from(documentCounters).where(sql`${documentCounters.kind} = 'INV' and ${documentCounters.year} = ${year}`);
      expect(counter?.last).toBe(numbers[2]);
    });
  });

  describe("the download", () => {
    it("gives the owner and an admin the invoice as a PDF named after its number; anyone else 404, a visitor 401", async () => {
      const { c } = await customer();
      const order = await place(c);
      expect(order.invoiceNumber).toMatch(new RegExp(`^INV-${year}-\\d{6}$`));
      const res = await c.get(`/api/order/${order._id}/invoice`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("application/pdf");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="${order.invoiceNumber}.pdf"`);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
      const text = pdfText(res.rawPayload);
      expect(text).toContain(order.invoiceNumber);
      expect(text).toContain(`#${order.number}`);
      for (const amount of [order.subtotal, order.total]) expect(text).toContain(formatDollars(amount));

      const byAdmin = await admin.get(`/api/order/${order._id}/invoice`);
      expect(byAdmin.statusCode).toBe(200);
      // The same order gives the same bytes.
      expect(byAdmin.rawPayload.equals(res.rawPayload)).toBe(true);

      const other = await customer("Other");
      const refused = await other.c.get(`/api/order/${order._id}/invoice`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ error: "NOT_FOUND", message: API_TEXT.orderNotFound });
      expect((await other.c.get("/api/order/no-such-order/invoice")).json()).toEqual(refused.json());
      expect((await new Client(t.app).get(`/api/order/${order._id}/invoice`)).statusCode).toBe(401);
    });

    it("gives a cancelled order's credit note: every amount negated, naming the invoice; none before the cancel", async () => {
      const { c } = await customer();
      const order = await place(c);
      const before = await c.get(`/api/order/${order._id}/invoice?document=credit-note`);
      expect(before.statusCode).toBe(404);
      expect(before.json().message).toBe(INVOICE_TEXT.noCreditNote);
      const cancelled = (await c.delete(`/api/order/${order._id}`)).json() as Order;
      expect(cancelled.creditNoteNumber).toMatch(new RegExp(`^CN-${year}-\\d{6}$`));
      const res = await c.get(`/api/order/${order._id}/invoice?document=credit-note`);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="${cancelled.creditNoteNumber}.pdf"`);
      const text = pdfText(res.rawPayload);
      expect(text).toContain(INVOICE_TEXT.title["credit-note"]);
      expect(text).toContain(cancelled.creditNoteNumber);
      expect(text).toContain(order.invoiceNumber);
      expect(text).toContain(formatDollars(-order.total));
      // The invoice stays as it was.
      expect(pdfText((await c.get(`/api/order/${order._id}/invoice`)).rawPayload)).toContain(formatDollars(order.total));
      expect((await c.get(`/api/order/${order._id}/invoice?document=receipt`)).statusCode).toBe(400);
    });

    it("makes every credit note a document of its own, a cancel's and a refund's alike, drawn by the one renderer from its row (issue 49)", async () => {
      const { db } = t.app.store;
      const { c, email } = await customer();
      // A cancel credits the whole invoice: the order's lines and amounts.
      const order = await place(c, 3);
      const cancelled = (await c.delete(`/api/order/${order._id}`)).json() as Order;
      const cancelNote = await loadCreditNote(db, { cancelOf: order._id });
      expect(cancelNote?.note).toMatchObject({ number: cancelled.creditNoteNumber, refundId: null, reason: null, totalCents: Math.round(order.total * 100) });
      const [row] = await db.select().from(orders).where(eq(orders.id, order._id));
      expect(cancelNote?.note).toMatchObject({ subtotalCents: row?.subtotalCents, discountCents: row?.discountCents, shippingCents: row?.shippingCents, taxCents: row?.taxCents });
      expect(row?.creditedAt?.getTime()).toBe(cancelNote?.note.issuedAt.getTime());
      const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order._id));
      expect(cancelNote?.lines.map((l) => [l.toolId, l.quantity, l.lineTotalCents, l.discountCents, l.taxCents])).toEqual(lines.map((l) => [l.toolId, l.quantity, l.lineTotalCents, l.discountCents, l.taxCents]));

      // A refund of lines credits what it gave back: its lines, its amount, its reason.
      const paid = await place(c, 3);
      expect((await admin.post(`/api/admin/orders/${paid._id}/status`, { status: "paid" })).statusCode).toBe(200);
      const refunded = await admin.request({
        method: "POST",
        url: `/api/admin/orders/${paid._id}/refunds`,
        payload: { lines: [{ toolId: paid.toolId, quantity: 1 }], reason: "One came bent" },
        headers: { "idempotency-key": `credit-note-${paid._id}` },
      });
      expect(refunded.statusCode, refunded.body).toBe(201);
      const refund = refunded.json().refund as { _id: string; amount: number; creditNoteNumber: string };
      const refundNote = await loadCreditNote(db, { refundId: refund._id });
      expect(refundNote?.note).toMatchObject({ number: refund.creditNoteNumber, orderId: paid._id, reason: "One came bent", shippingCents: 0, totalCents: Math.round(refund.amount * 100) });
      expect(refundNote?.lines.map((l) => [l.toolId, l.quantity])).toEqual([[paid.toolId, 1]]);
      expect(refund.creditNoteNumber).not.toBe(cancelled.creditNoteNumber);
      expect(await db.select().from(creditNotes).where(eq(creditNotes.orderId, paid._id))).toHaveLength(1);

      // Both downloads, and the refund's mail, are that one renderer's bytes of the note's row.
      for (const [data, url] of [
        [cancelNote, `/api/order/${order._id}/invoice?document=credit-note`],
        [refundNote, `/api/order/${paid._id}/invoice?document=credit-note&refund=${refund._id}`],
      ] as const) {
        if (!data) throw new Error("no credit note");
        const drawn = await renderCreditNotePdf(data);
        const res = await c.get(url);
        expect(res.statusCode).toBe(200);
        expect(res.rawPayload.equals(drawn)).toBe(true);
        const text = pdfText(await renderCreditNotePdf(data, { compress: false }));
        expect(text).toContain(INVOICE_TEXT.title["credit-note"]);
        expect(text).toContain(data.note.number);
        expect(text).toContain(formatDollars(-data.note.totalCents / 100));
      }
      await drain();
      const mail = await smtp.waitFor(email, `A refund for your order #${paid.number}`);
      expect(mail.attachments.map((a) => a.filename)).toEqual([`${refund.creditNoteNumber}.pdf`]);
      expect(mail.attachments[0]?.content.equals(await renderCreditNotePdf(refundNote as CreditNoteData))).toBe(true);
    });

    it("answers an order from before invoices with 404 and says why", async () => {
      const { c } = await customer();
      const order = await place(c);
      await t.app.store.db.update(orders).set({ invoiceNumber: null }).where(eq(orders.id, order._id));
      const res = await c.get(`/api/order/${order._id}/invoice`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: "NOT_FOUND", message: INVOICE_TEXT.noInvoice });
    });
  });

  describe("the document", () => {
    it("shows the store's settings, the customer, the address, the lines and the totals with the code and the rate", async () => {
      const { db } = t.app.store;
      await db.update(storeSettings).set({ legalName: "Forge & Sons LLC", taxId: "EIN 12-3456789" }).where(eq(storeSettings.id, 1));
      const { c, email } = await customer("Zoë Dvořák");
      const order = await place(c, 2);
      // Known amounts, whatever pricing gave: 2 × $12.50, 10 % off with SAVE10, $10 shipping, 8 % tax.
      await db
        .update(orders)
        .set({
          subtotalCents: 2500,
          discountCents: 250,
          shippingCents: 1000,
          taxCents: 180,
          totalCents: 3430,
          promoCode: "SAVE10",
          taxRateName: "NY sales tax",
          taxRateBasisPoints: 800,
          address: "1 Main St",
          city: "Springfield",
          region: "IL",
          postalCode: "62701",
          country: "US",
          shippingMethod: "standard",
          shippingMethodName: "Standard delivery",
          paymentMethod: "bank_transfer",
        })
        .where(eq(orders.id, order._id));
      await db.update(orderLines).set({ discountCents: 250, shippingCents: 1000, taxCents: 180, totalCents: 3430 }).where(eq(orderLines.orderId, order._id));
      const text = pdfText((await c.get(`/api/order/${order._id}/invoice`)).rawPayload);
      for (const expected of [
        "Forge & Sons LLC",
        "12 Forge Lane",
        "EIN 12-3456789",
        winAnsi("Zoë Dvořák"),
        email,
        "1 Main St",
        "Springfield, IL 62701",
        "Standard delivery",
        "Bank transfer",
        order.lines[0]?.name ?? "?",
        "$12.50",
        "$25.00",
        "-$2.50",
        "$10.00",
        "$1.80",
        MONEY_TEXT.discountWithCode("SAVE10"),
        MONEY_TEXT.taxWithRate("NY sales tax", "8%"),
        "$34.30",
      ]) {
        expect(text).toContain(expected);
      }
      expect(winAnsi("Zoë Dvořák 東")).toBe("Zoë Dvorák ?");
    });

    it("says why a tax-exempt customer paid no tax; a deleted customer's order keeps its document", async () => {
      const { db } = t.app.store;
      const { c } = await customer();
      const order = await place(c);
      await db.update(orders).set({ taxCents: 0, taxExemptCertificate: "NY-EX-4711", userId: null }).where(eq(orders.id, order._id));
      const data = await loadInvoiceData(db, order._id);
      if (!data) throw new Error("no data");
      const text = pdfText(await renderInvoicePdf(data, { compress: false }));
      expect(text).toContain(MONEY_TEXT.taxExempt("NY-EX-4711"));
      expect(text).toContain(INVOICE_TEXT.accountDeleted);
      // The customer is gone: only an admin may still download it.
      expect((await c.get(`/api/order/${order._id}/invoice`)).statusCode).toBe(404);
      expect((await admin.get(`/api/order/${order._id}/invoice`)).statusCode).toBe(200);
    });

    it("names the payment method, and a card order's payment as the webhook left it", async () => {
      const { c } = await customer();
      const order = await place(c);
      const data = await loadInvoiceData(t.app.store.db, order._id);
      if (!data) throw new Error("no data");
      expect(pdfText(await renderInvoicePdf(data, { compress: false }))).toContain(ORDER_TEXT.paymentMethod[order.paymentMethod]);
      const card = { ...data, order: { ...data.order, paymentMethod: "card" as const, status: "paid" as const }, payment: { status: "paid" as const } };
      const text = pdfText(await renderInvoicePdf(card, { compress: false }));
      expect(text).toContain(ORDER_TEXT.paymentMethod.card);
      expect(text).toContain(PAYMENT_TEXT.status.paid);
      // Placed and not paid yet (before its payment's row exists, too): waiting.
      const waiting = { ...card, order: { ...card.order, status: "awaiting_payment" as const }, payment: null };
      expect(pdfText(await renderInvoicePdf(waiting, { compress: false }))).toContain(PAYMENT_TEXT.status.open);
    });

    it("runs onto more pages for many lines, each page numbered", async () => {
      const { c } = await customer();
      const order = await place(c);
      const data = await loadInvoiceData(t.app.store.db, order._id);
      const line = data?.lines[0];
      if (!data || !line) throw new Error("no data");
      data.lines = Array.from({ length: 70 }, (_, i) => ({ ...line, position: i, toolName: `Line ${i + 1}` }));
      const text = pdfText(await renderInvoicePdf(data, { compress: false }));
      expect(text).toContain("Line 70");
      expect(text).toContain(INVOICE_TEXT.page(3, 3));
    });
  });

  describe("mail", () => {
    it("sends the customer the totals, the invoice number and the invoice as a PDF; the cancel names the credit note", async () => {
      const { c, email } = await customer();
      const order = await place(c, 3);
      await drain();
      const placed = await smtp.waitFor(email, `#${order.number}`);
      for (const label of [MONEY_TEXT.subtotal, MONEY_TEXT.shipping, MONEY_TEXT.tax]) expect(placed.text).toContain(label);
      expect(placed.text).toContain(formatDollars(order.total));
      expect(placed.text).toContain(order.invoiceNumber);
      expect(placed.attachments).toHaveLength(1);
      const [pdf] = placed.attachments;
      expect(pdf?.filename).toBe(`${order.invoiceNumber}.pdf`);
      expect(pdf?.contentType).toBe("application/pdf");
      expect(pdf?.content.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdfText(pdf?.content ?? Buffer.alloc(0))).toContain(order.invoiceNumber);
      // The admins' notice has the totals, not the document.
      const notice = await smtp.waitFor(ADMIN, `New order #${order.number}`);
      expect(notice.text).toContain(order.invoiceNumber);
      expect(notice.attachments).toHaveLength(0);

      const cancelled = (await c.delete(`/api/order/${order._id}`)).json() as Order;
      await drain();
      const mail = await smtp.waitFor(email, "was cancelled");
      expect(mail.text).toContain(INVOICE_TEXT.mail.creditNote(cancelled.creditNoteNumber ?? "?"));
    });

    it("still attaches a refund's credit note to mail queued before credit notes had their table ({kind: credit_note, refundId}; issue 49)", async () => {
      const { db } = t.app.store;
      const { c, email } = await customer();
      const order = await place(c, 2);
      expect((await admin.post(`/api/admin/orders/${order._id}/status`, { status: "paid" })).statusCode).toBe(200);
      const res = await admin.request({
        method: "POST",
        url: `/api/admin/orders/${order._id}/refunds`,
        payload: { lines: [{ toolId: order.toolId, quantity: 1 }], reason: "queued long ago" },
        headers: { "idempotency-key": `old-mail-${order._id}` },
      });
      expect(res.statusCode, res.body).toBe(201);
      const refund = res.json().refund as { _id: string; creditNoteNumber: string };
      await drain();
      await enqueueMail(db, [{ to: email, subject: `Old refund mail ${order.number}`, text: "old", html: "<p>old</p>", kind: "refund-made", attachments: [{ kind: "credit_note", refundId: refund._id }] }]);
      await drain();
      const old = await smtp.waitFor(email, `Old refund mail ${order.number}`);
      expect(old.attachments.map((a) => a.filename)).toEqual([`${refund.creditNoteNumber}.pdf`]);
      const note = await loadCreditNote(db, { refundId: refund._id });
      expect(old.attachments[0]?.content.equals(await renderCreditNotePdf(note as CreditNoteData))).toBe(true);
    });

    it("sends a message whose order lost its invoice without the attachment, rather than never", async () => {
      const { c, email } = await customer();
      const order = await place(c);
      await t.app.store.db.update(orders).set({ invoiceNumber: null }).where(eq(orders.id, order._id));
      await drain();
      const placed = await smtp.waitFor(email, `#${order.number}`);
      expect(placed.attachments).toHaveLength(0);
    });
  });
});
