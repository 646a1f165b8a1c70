/**
 * An order's invoice, or a credit note, as a PDF (pdfkit), made when it is asked for (the download,
 * the e-mail): the invoice from what the order row keeps, a credit note from its own row and lines
 * (`credit_notes`, issued by orders/credit-notes.ts: an order's cancel or a refund of its lines,
 * one model and one renderer, issue 49). The amounts, the address, the tax and the code are the
 * documents' own copies, so a document made today says what it said the day it was issued. The
 * letterhead is the store's settings as they are now.
 *
 * The same document gives the same bytes: the PDF's dates (and the file id pdfkit derives from
 * them) are the document's own date, and nothing else in it depends on the clock.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { centsToDollars, formatDollars } from "../../contract/money";
import { INVOICE_TEXT, MONEY_TEXT } from "../../contract/texts/money";
import { ORDER_TEXT } from "../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import type { PaymentStatus } from "../../contract/schemas";
import type { Db } from "../db/client";
import { creditNoteLines, creditNotes, orderLines, orders, payments, storeSettings, user } from "../db/schema";
import { dateIn, DEFAULT_TIME_ZONE } from "./numbers";

export type InvoiceDocument = "invoice" | "credit-note";

type OrderRow = typeof orders.$inferSelect;
type LineRow = typeof orderLines.$inferSelect;
type StoreRow = typeof storeSettings.$inferSelect;

/** Everything a document shows, read in one go (`loadInvoiceData`). */
export interface InvoiceData {
  order: OrderRow;
  lines: LineRow[];
  /** Null once the customer deleted their account (the order stays, without the person). */
  customer: { name: string; email: string } | null;
  store: Pick<StoreRow, "legalName" | "address" | "city" | "region" | "postalCode" | "country" | "taxId"> & { timeZone?: string };
  /**
   * A card order's payment as the webhook left it: the one part of a document that follows the
   * order after it was issued (paid, then perhaps refunded). Absent for other methods.
   */
  payment?: { status: PaymentStatus } | null;
}

type CreditNoteRow = typeof creditNotes.$inferSelect;
type CreditNoteLineRow = typeof creditNoteLines.$inferSelect;

/** A credit note (its own row and lines) and the order it credits (the letterhead, customer and address): `loadCreditNote`. */
export interface CreditNoteData extends Omit<InvoiceData, "lines"> {
  note: CreditNoteRow;
  lines: CreditNoteLineRow[];
}

/** Before the owner saved settings (a database without migration 0009's row): the store's name alone. */
const FALLBACK_STORE: InvoiceData["store"] = { legalName: INVOICE_TEXT.fallbackLegalName, address: "", city: "", region: "", postalCode: "", country: "", taxId: "" };

export async function loadInvoiceData(db: Db, orderId: string): Promise<InvoiceData | undefined> {
  const [found] = await db
    .select({ order: orders, customerName: user.name, customerEmail: user.email, paymentStatus: payments.status })
    .from(orders)
    .leftJoin(user, eq(user.id, orders.userId))
    .leftJoin(payments, eq(payments.orderId, orders.id))
    .where(eq(orders.id, orderId));
  if (!found) return undefined;
  const [lines, [store]] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.position)),
    db.select().from(storeSettings).where(eq(storeSettings.id, 1)),
  ]);
  return {
    order: found.order,
    lines,
    customer: found.customerEmail === null ? null : { name: found.customerName ?? "", email: found.customerEmail },
    store: store ?? FALLBACK_STORE,
    payment: found.paymentStatus === null ? null : { status: found.paymentStatus as PaymentStatus },
  };
}

/** Which credit note: by its id (an attachment), a refund's, or an order's cancel's. */
export type CreditNoteKey = { id: string } | { refundId: string } | { cancelOf: string };

/** A credit note, its lines and its order's page; undefined when there is no such note. */
export async function loadCreditNote(db: Db, key: CreditNoteKey): Promise<CreditNoteData | undefined> {
  const where = "id" in key ? eq(creditNotes.id, key.id) : "refundId" in key ? eq(creditNotes.refundId, key.refundId) : and(eq(creditNotes.orderId, key.cancelOf), isNull(creditNotes.refundId));
  const [note] = await db.select().from(creditNotes).where(where);
  if (!note) return undefined;
  const [order, lines] = await Promise.all([
    loadInvoiceData(db, note.orderId),
    db.select().from(creditNoteLines).where(eq(creditNoteLines.creditNoteId, note.id)).orderBy(asc(creditNoteLines.position)),
  ]);
  return order && { ...order, note, lines };
}

/** A card order's payment in words; an order awaiting it before its payment's row exists is waiting too. */
function cardPaymentState(order: Pick<OrderRow, "paymentMethod" | "status">, payment: InvoiceData["payment"]): string | undefined {
  if (order.paymentMethod !== "card") return undefined;
  const status = payment?.status ?? (order.status === "awaiting_payment" ? "open" : undefined);
  return status ? PAYMENT_TEXT.status[status] : undefined;
}

/** `INV-2026-000001.pdf`: the name the download and the e-mail attachment carry. */
export const documentFilename = (number: string) => `${number.replace(/[^A-Za-z0-9-]/g, "")}.pdf`;

/** 825 basis points → `8.25%`, 800 → `8%`. */
export const formatRate = (basisPoints: number) => `${(basisPoints / 100).toFixed(2).replace(/\.?0+$/, "")}%`;

/** `2026-11-26`: one unambiguous form, the date in the store's time zone (the one its numbers' years are in). */
const formatDate = (d: Date, timeZone = DEFAULT_TIME_ZONE) => dateIn(d, timeZone);

// Cp1252 (WinAnsi) characters outside Latin-1 that the PDF's standard fonts have.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const FOLD: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", ı: "i", ß: "ss" };

/**
 * The standard fonts (Helvetica) hold WinAnsi only, and pdfkit writes anything else as other,
 * wrong letters. A name outside it keeps its letters without their accents (Dvořák → Dvorak),
 * and what has no such form becomes "?", rather than printing something else than it says.
 */
export function winAnsi(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else if (ch === "\n") out += ch;
    else if (ch === "\t" || ch === "\r") out += " ";
    else if (FOLD[ch]) out += FOLD[ch];
    else {
      const base = ch.normalize("NFKD").replace(/\p{M}/gu, "");
      out += base !== ch && [...base].every((c) => (c.codePointAt(0) ?? 0) <= 0xff) ? base : "?";
    }
  }
  return out;
}

const joinParts = (parts: string[], separator: string) => parts.filter((p) => p.trim() !== "").join(separator);
/** The street line, then "city, region postal code", then the country; old orders have the street line only. */
export const addressLines = (a: { address: string; city: string; region: string; postalCode: string; country: string }) =>
  [a.address, joinParts([a.city, joinParts([a.region, a.postalCode], " ")], ", "), a.country].filter((l) => l.trim() !== "");

export interface RenderOptions {
  /** pdfkit compresses page contents by default; tests may turn it off to read the text. */
  compress?: boolean;
}

// Letter, as a US store prints; points (1/72 in).
const PAGE = { width: 612, height: 792, margin: 50 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const COLUMNS = [
  { key: "item", width: 182, align: "left" },
  { key: "quantity", width: 40, align: "right" },
  { key: "unitPrice", width: 72, align: "right" },
  { key: "subtotal", width: 76, align: "right" },
  { key: "discount", width: 70, align: "right" },
  { key: "tax", width: 72, align: "right" },
] as const;

/** One page of amounts: what the invoice or a credit note shows in its table and its totals. */
type Amounts = Pick<OrderRow, "subtotalCents" | "discountCents" | "shippingCents" | "taxCents" | "totalCents">;
type DocumentLine = Pick<LineRow, "toolName" | "quantity" | "unitPriceCents" | "lineTotalCents" | "discountCents" | "taxCents">;

/** What the one layout draws: the document's identity, the order's page (who, where, how), its lines and amounts. */
interface DocumentPage extends Omit<InvoiceData, "lines"> {
  document: InvoiceDocument;
  number: string;
  issued: Date;
  lines: DocumentLine[];
  amounts: Amounts;
  /** A credit note's word on what it credits (the invoice, and a refund's reason). */
  explains?: string | undefined;
}

/** Renders the order's invoice. Throws when the order has none (the route answers 404 before it asks). */
export async function renderInvoicePdf(data: InvoiceData, options: RenderOptions = {}): Promise<Buffer> {
  const { order } = data;
  if (!order.invoiceNumber) throw new Error(`order ${order.id} has no invoice number`);
  return renderDocument({ ...data, document: "invoice", number: order.invoiceNumber, issued: order.createdAt, amounts: order }, options);
}

/**
 * Renders a credit note from its own row and lines (an order's cancel or a refund of its lines
 * alike): the invoice's layout with every amount negated, titled "Credit note", naming the invoice
 * it credits and, for a refund, its reason.
 */
export async function renderCreditNotePdf(data: CreditNoteData, options: RenderOptions = {}): Promise<Buffer> {
  const { note, order } = data;
  const explains = order.invoiceNumber
    ? note.refundId !== null
      ? INVOICE_TEXT.refundCreditExplains(order.invoiceNumber, note.reason ?? "")
      : INVOICE_TEXT.creditNoteExplains(order.invoiceNumber)
    : undefined;
  return renderDocument({ ...data, document: "credit-note", number: note.number, issued: note.issuedAt, amounts: note, explains }, options);
}

async function renderDocument(data: DocumentPage, options: RenderOptions): Promise<Buffer> {
  const { order, lines, customer, store, document, number, issued, amounts } = data;
  const sign = document === "credit-note" ? -1 : 1;
  const money = (cents: number) => formatDollars(centsToDollars(sign * cents));
  const title = INVOICE_TEXT.title[document];

  // pdfkit finds its font metrics in its own package (a require() of its "#standard-fonts"
  // imports), so it stays outside the server bundle (scripts/build-server.mjs); Node loads it with
  // the first document, not at start-up.
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE.margin,
    compress: options.compress ?? true,
    bufferPages: true,
    info: { Title: winAnsi(`${title} ${number}`), Author: winAnsi(store.legalName), CreationDate: issued, ModDate: issued },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const text = (s: string, x: number, y: number, o: PDFKit.Mixins.TextOptions = {}) => doc.text(winAnsi(s), x, y, { lineBreak: true, ...o });
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const bottom = PAGE.height - PAGE.margin - 20;

  // Letterhead (left) and the document's identity (right).
  doc.font("Helvetica-Bold").fontSize(16);
  text(store.legalName, left, PAGE.margin, { width: 300 });
  doc.font("Helvetica").fontSize(9);
  const storeLines = [...addressLines(store), ...(store.taxId ? [`${INVOICE_TEXT.taxId}: ${store.taxId}`] : [])];
  text(storeLines.join("\n"), left, doc.y + 4, { width: 300 });
  const headEnd = doc.y;

  doc.font("Helvetica-Bold").fontSize(20);
  text(title, right - 220, PAGE.margin, { width: 220, align: "right" });
  doc.font("Helvetica").fontSize(9);
  const identity: [string, string][] = [
    [INVOICE_TEXT.number, number],
    [INVOICE_TEXT.date, formatDate(issued, store.timeZone)],
    [INVOICE_TEXT.order, `#${order.number}`],
    ...(document === "credit-note" && order.invoiceNumber ? ([[INVOICE_TEXT.creditsInvoice, order.invoiceNumber]] as [string, string][]) : []),
  ];
  let y = doc.y + 6;
  for (const [label, value] of identity) {
    text(`${label}:`, right - 220, y, { width: 100, align: "right" });
    text(value, right - 112, y, { width: 112, align: "right" });
    y = doc.y + 2;
  }

  // Who, where, how.
  y = Math.max(headEnd, y) + 24;
  const blockWidth = CONTENT_WIDTH / 3 - 8;
  const block = (x: number, heading: string, body: string[]) => {
    doc.font("Helvetica-Bold").fontSize(9);
    text(heading, x, y, { width: blockWidth });
    doc.font("Helvetica").fontSize(9);
    text(body.join("\n") || "-", x, doc.y + 2, { width: blockWidth });
    return doc.y;
  };
  const shippingName = order.shippingMethodName || (order.shippingMethod === "pickup" ? MONEY_TEXT.pickup : order.shippingMethod);
  const paymentName = (ORDER_TEXT.paymentMethod as Record<string, string>)[order.paymentMethod] ?? order.paymentMethod;
  const blocksEnd = Math.max(
    block(left, INVOICE_TEXT.customer, customer ? [customer.name, customer.email] : [INVOICE_TEXT.accountDeleted]),
    block(left + CONTENT_WIDTH / 3, INVOICE_TEXT.deliveryAddress, addressLines(order)),
    block(left + (2 * CONTENT_WIDTH) / 3, INVOICE_TEXT.shippingMethod, [shippingName]),
  );
  y = blocksEnd + 4;
  doc.font("Helvetica-Bold").fontSize(9);
  text(INVOICE_TEXT.payment, left + (2 * CONTENT_WIDTH) / 3, Math.max(y, doc.y + 4), { width: blockWidth });
  doc.font("Helvetica");
  text(paymentName, left + (2 * CONTENT_WIDTH) / 3, doc.y + 2, { width: blockWidth });
  const paymentState = cardPaymentState(order, data.payment);
  if (paymentState) text(paymentState, left + (2 * CONTENT_WIDTH) / 3, doc.y + 2, { width: blockWidth });
  y = Math.max(blocksEnd, doc.y) + 24;

  // The lines, with the column heads again on every page they run onto.
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(winAnsi(c), { width: (COLUMNS[i]?.width ?? 0) - 6 })));
    if (y + height > bottom) {
      doc.addPage();
      y = PAGE.margin;
      if (!bold) head();
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    }
    let x = left;
    cells.forEach((cell, i) => {
      const column = COLUMNS[i];
      if (!column) return;
      text(cell, x, y, { width: column.width - 6, align: column.align });
      x += column.width;
    });
    y += height + 5;
  };
  const head = () => {
    row(
      COLUMNS.map((c) => INVOICE_TEXT.columns[c.key]),
      true,
    );
    doc.moveTo(left, y - 3).lineTo(right, y - 3).lineWidth(0.5).stroke();
    y += 2;
  };
  head();
  for (const l of lines) {
    row([l.toolName, String(l.quantity), money(l.unitPriceCents), money(l.lineTotalCents), money(-l.discountCents), money(l.taxCents)], false);
  }
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).stroke();
  y += 10;

  // The totals: total = subtotal − discount + shipping + tax (DESIGN "Money").
  const taxLabel =
    order.taxRateName && order.taxRateBasisPoints !== null ? MONEY_TEXT.taxWithRate(order.taxRateName, formatRate(order.taxRateBasisPoints)) : MONEY_TEXT.tax;
  const totals: [string, string, boolean][] = [
    [MONEY_TEXT.subtotal, money(amounts.subtotalCents), false],
    [order.promoCode ? MONEY_TEXT.discountWithCode(order.promoCode) : MONEY_TEXT.discount, money(-amounts.discountCents), false],
    [MONEY_TEXT.shipping, money(amounts.shippingCents), false],
    [taxLabel, money(amounts.taxCents), false],
    [MONEY_TEXT.total, money(amounts.totalCents), true],
  ];
  const notes = [...(order.taxExemptCertificate ? [MONEY_TEXT.taxExempt(order.taxExemptCertificate)] : []), ...(data.explains ? [data.explains] : [])];
  if (y + totals.length * 16 + notes.length * 14 + 10 > bottom) {
    doc.addPage();
    y = PAGE.margin;
  }
  for (const [label, value, bold] of totals) {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(bold ? 11 : 9);
    text(label, right - 300, y, { width: 200, align: "right" });
    text(value, right - 96, y, { width: 96, align: "right" });
    y = doc.y + 5;
  }
  doc.font("Helvetica").fontSize(9);
  y += 8;
  for (const note of notes) {
    text(note, left, y, { width: CONTENT_WIDTH });
    y = doc.y + 4;
  }

  // Footers, written once every page exists; inside the bottom margin, which would otherwise start a new page.
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(8);
    text(`${title} ${number} · ${INVOICE_TEXT.page(i - start + 1, count)}`, left, PAGE.height - PAGE.margin + 10, { width: CONTENT_WIDTH, align: "center" });
  }
  doc.end();
  return done;
}

/** The order's invoice as an attachment or a download: its file name and bytes; undefined when the order has none. */
export async function invoiceFile(db: Db, orderId: string): Promise<{ filename: string; content: Buffer } | undefined> {
  const data = await loadInvoiceData(db, orderId);
  const number = data?.order.invoiceNumber;
  if (!data || !number) return undefined;
  return { filename: documentFilename(number), content: await renderInvoicePdf(data) };
}

/** A credit note as an attachment or a download, with its order's owner (who may read it); undefined when there is no such note. */
export async function creditNoteFile(db: Db, key: CreditNoteKey): Promise<{ filename: string; content: Buffer; orderUserId: string | null; orderId: string } | undefined> {
  const data = await loadCreditNote(db, key);
  if (!data) return undefined;
  return { filename: documentFilename(data.note.number), content: await renderCreditNotePdf(data), orderUserId: data.order.userId, orderId: data.order.id };
}

/** A mail attachment's credit note: by its id, or (mail queued before the credit notes' table, issue 49) by its refund's. */
export const creditNoteAttachmentFile = (db: Db, attachment: { creditNoteId: string } | { refundId: string }) =>
  creditNoteFile(db, "creditNoteId" in attachment ? { id: attachment.creditNoteId } : { refundId: attachment.refundId });
