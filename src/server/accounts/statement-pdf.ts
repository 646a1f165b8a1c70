/**
 * A trade account's statement as a PDF (pdfkit, as invoices/pdf.ts): the store's letterhead, the
 * account, every invoice, credit note and payment with the running balance, and the ageing.
 */
import { formatDollars } from "../../contract/money";
import { TRADE_TEXT } from "../../contract/texts/trade";
import type { Statement } from "../../contract/trade";
import type { Db } from "../db/client";
import { storeSettings } from "../db/schema";
import { winAnsi } from "../invoices/pdf";

const PAGE = { width: 612, height: 792, margin: 50 };
const COLUMNS = [
  { x: 50, width: 80, align: "left" },
  { x: 130, width: 90, align: "left" },
  { x: 220, width: 150, align: "left" },
  { x: 370, width: 90, align: "right" },
  { x: 460, width: 102, align: "right" },
] as const;

export async function renderStatementPdf(db: Db, statement: Statement & { account: { name: string; taxId: string } }, today: string, options: { compress?: boolean } = {}): Promise<Buffer> {
  const [store] = await db.select().from(storeSettings);
  const { default: PDFDocument } = await import("pdfkit");
  const at = new Date(`${today}T12:00:00Z`);
  const doc = new PDFDocument({ size: "LETTER", margin: PAGE.margin, compress: options.compress ?? true, info: { Title: winAnsi(`${TRADE_TEXT.statementTitle} ${statement.account.name}`), CreationDate: at, ModDate: at } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const text = (s: string, x: number, y: number, o: PDFKit.Mixins.TextOptions = {}) => doc.text(winAnsi(s), x, y, { lineBreak: false, ...o });

  doc.font("Helvetica-Bold").fontSize(16);
  text(store?.legalName ?? "Toolyard", PAGE.margin, PAGE.margin);
  doc.font("Helvetica-Bold").fontSize(20);
  text(TRADE_TEXT.statementTitle, 362, PAGE.margin, { width: 200, align: "right" });
  doc.font("Helvetica").fontSize(10);
  text(statement.account.name, PAGE.margin, 90);
  if (statement.account.taxId) text(`${TRADE_TEXT.pdf.taxId}: ${statement.account.taxId}`, PAGE.margin, 104);
  text(`${TRADE_TEXT.pdf.date}: ${today}`, 362, 90, { width: 200, align: "right" });

  let y = 140;
  const row = (cells: string[], bold = false) => {
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
    cells.forEach((cell, i) => {
      const c = COLUMNS[i];
      if (c) text(cell, c.x, y, { width: c.width, align: c.align });
    });
    y += 14;
    if (y > PAGE.height - PAGE.margin - 80) {
      doc.addPage();
      y = PAGE.margin;
    }
  };
  row([TRADE_TEXT.pdf.dateColumn, TRADE_TEXT.pdf.type, TRADE_TEXT.pdf.number, TRADE_TEXT.pdf.amount, TRADE_TEXT.balance], true);
  for (const l of statement.lines) row([l.date, TRADE_TEXT.statementTypes[l.type], l.number, formatDollars(l.amount), formatDollars(l.balance)]);
  y += 6;
  row(["", "", TRADE_TEXT.balance, "", formatDollars(statement.balance)], true);
  y += 12;
  row([TRADE_TEXT.pdf.ageing], true);
  for (const key of ["current", "days1to30", "days31to60", "over60"] as const) row(["", TRADE_TEXT.ageing[key], "", "", formatDollars(statement.ageing[key])]);
  doc.end();
  return done;
}
