/**
 * A quote's revision as a PDF (pdfkit, as invoices/pdf.ts renders invoices), made when it is
 * asked for (the download, the revision's e-mail) from what the revision keeps: it is immutable
 * once sent, so a document made today says what it said the day it was sent. The customer's
 * message and the owner's are printed as text (never markup). The same revision gives the same
 * bytes: the PDF's dates are the revision's own.
 */
import { and, asc, eq } from "drizzle-orm";
import { centsToDollars, formatDollars } from "../../contract/money";
import { INVOICE_TEXT, MONEY_TEXT } from "../../contract/texts/money";
import { QUOTE_PDF_TEXT, QUOTE_REVISION_STATUS_TEXT } from "../../contract/texts/quotes";
import type { Db } from "../db/client";
import { quoteRevisions, quotes, storeSettings, user } from "../db/schema";
import { documentFilename, formatRate, winAnsi } from "../invoices/pdf";
import { revisionStatusOf } from "./service";

const PAGE = { width: 612, height: 792, margin: 50 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const COLUMNS = [
  { key: "item", width: 232, align: "left" },
  { key: "quantity", width: 50, align: "right" },
  { key: "unitPrice", width: 80, align: "right" },
  { key: "lineTotal", width: 80, align: "right" },
  { key: "tax", width: 70, align: "right" },
] as const;

const day = (d: Date) => d.toISOString().slice(0, 10);
const money = (cents: number) => formatDollars(centsToDollars(cents));
const joinParts = (parts: string[], separator: string) => parts.filter((p) => p.trim() !== "").join(separator);

/** The revision's PDF with its file name (`Q-2026-000001-r2.pdf`); undefined when the quote has no such revision. */
export async function quoteFile(db: Db, quoteId: string, revision?: number): Promise<{ filename: string; content: Buffer } | undefined> {
  const [found] = await db
    .select({ quote: quotes, name: user.name, email: user.email })
    .from(quotes)
    .leftJoin(user, eq(user.id, quotes.userId))
    .where(eq(quotes.id, quoteId));
  if (!found) return undefined;
  const revisions = await db
    .select()
    .from(quoteRevisions)
    .where(and(eq(quoteRevisions.quoteId, quoteId), revision === undefined ? undefined : eq(quoteRevisions.revision, revision)))
    .orderBy(asc(quoteRevisions.revision));
  const chosen = revisions.at(-1);
  if (!chosen) return undefined;
  const [store] = await db.select().from(storeSettings).where(eq(storeSettings.id, 1));
  const { quote } = found;
  const sent = chosen.createdAt;

  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: winAnsi(`${QUOTE_PDF_TEXT.title} ${quote.number} r${chosen.revision}`), Author: winAnsi(store?.legalName ?? INVOICE_TEXT.fallbackLegalName), CreationDate: sent, ModDate: sent },
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

  // Letterhead and the quote's identity.
  doc.font("Helvetica-Bold").fontSize(16);
  text(store?.legalName ?? INVOICE_TEXT.fallbackLegalName, left, PAGE.margin, { width: 300 });
  doc.font("Helvetica").fontSize(9);
  const storeLines = store
    ? [store.address, joinParts([store.city, joinParts([store.region, store.postalCode], " ")], ", "), store.country, ...(store.taxId ? [`${INVOICE_TEXT.taxId}: ${store.taxId}`] : [])]
    : [];
  text(storeLines.filter((l) => l.trim() !== "").join("\n"), left, doc.y + 4, { width: 300 });
  const headEnd = doc.y;
  doc.font("Helvetica-Bold").fontSize(20);
  text(QUOTE_PDF_TEXT.title, right - 220, PAGE.margin, { width: 220, align: "right" });
  doc.font("Helvetica").fontSize(9);
  const identity: [string, string][] = [
    [QUOTE_PDF_TEXT.number, quote.number],
    [QUOTE_PDF_TEXT.revision, String(chosen.revision)],
    [QUOTE_PDF_TEXT.date, day(sent)],
    [QUOTE_PDF_TEXT.validUntil, day(chosen.validUntil)],
    [QUOTE_PDF_TEXT.status, QUOTE_REVISION_STATUS_TEXT[revisionStatusOf(chosen)]],
  ];
  let y = doc.y + 6;
  for (const [label, value] of identity) {
    text(`${label}:`, right - 220, y, { width: 100, align: "right" });
    text(value, right - 112, y, { width: 112, align: "right" });
    y = doc.y + 2;
  }

  // Who and where.
  y = Math.max(headEnd, y) + 24;
  const blockWidth = CONTENT_WIDTH / 2 - 8;
  const block = (x: number, heading: string, body: string[]) => {
    doc.font("Helvetica-Bold").fontSize(9);
    text(heading, x, y, { width: blockWidth });
    doc.font("Helvetica").fontSize(9);
    text(body.filter((l) => l.trim() !== "").join("\n") || "-", x, doc.y + 2, { width: blockWidth });
    return doc.y;
  };
  const address = quote.country === "" && quote.address === "" ? [QUOTE_PDF_TEXT.pickup] : [quote.address, joinParts([quote.city, joinParts([quote.region, quote.postalCode], " ")], ", "), quote.country];
  y =
    Math.max(
      block(left, QUOTE_PDF_TEXT.customer, found.email ? [found.name ?? "", found.email] : [INVOICE_TEXT.accountDeleted]),
      block(left + CONTENT_WIDTH / 2, QUOTE_PDF_TEXT.deliveryAddress, [...address, ...(quote.neededBy ? [`${QUOTE_PDF_TEXT.neededBy}: ${quote.neededBy}`] : [])]),
    ) + 24;

  // The lines.
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(winAnsi(c), { width: (COLUMNS[i]?.width ?? 0) - 6 })));
    if (y + height > bottom) {
      doc.addPage();
      y = PAGE.margin;
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
  row(
    COLUMNS.map((c) => QUOTE_PDF_TEXT.columns[c.key]),
    true,
  );
  doc.moveTo(left, y - 3).lineTo(right, y - 3).lineWidth(0.5).stroke();
  y += 2;
  for (const l of chosen.lines) row([l.toolName, String(l.quantity), money(l.unitPriceCents), money(l.lineTotalCents), money(l.taxCents)], false);
  doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).stroke();
  y += 10;

  const taxLabel = chosen.taxRateName && chosen.taxRateBasisPoints !== null ? MONEY_TEXT.taxWithRate(chosen.taxRateName, formatRate(chosen.taxRateBasisPoints)) : MONEY_TEXT.tax;
  const totals: [string, string, boolean][] = [
    [MONEY_TEXT.subtotal, money(chosen.subtotalCents), false],
    [MONEY_TEXT.shipping, money(chosen.shippingCents), false],
    [taxLabel, money(chosen.taxCents), false],
    [MONEY_TEXT.total, money(chosen.totalCents), true],
  ];
  if (y + totals.length * 16 > bottom) {
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
  const notes = [
    ...(chosen.taxExemptCertificate ? [MONEY_TEXT.taxExempt(chosen.taxExemptCertificate)] : []),
    ...(chosen.message ? [`${QUOTE_PDF_TEXT.message}: ${chosen.message}`] : []),
  ];
  for (const note of notes) {
    if (y + doc.heightOfString(winAnsi(note), { width: CONTENT_WIDTH }) > bottom) {
      doc.addPage();
      y = PAGE.margin;
    }
    text(note, left, y, { width: CONTENT_WIDTH });
    y = doc.y + 4;
  }

  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(8);
    text(`${QUOTE_PDF_TEXT.title} ${quote.number} r${chosen.revision} · ${QUOTE_PDF_TEXT.page(i - start + 1, count)}`, left, PAGE.height - PAGE.margin + 10, { width: CONTENT_WIDTH, align: "center" });
  }
  doc.end();
  return { filename: documentFilename(`${quote.number}-r${chosen.revision}`), content: await done };
}
