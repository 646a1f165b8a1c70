/**
 * A shipment's packing slip as a PDF (pdfkit, issue 52): the store, the order and the shipment's
 * number, carrier and tracking number, where it goes, exactly the shipment's units, and what of the
 * order is still to come (left to ship after this and every other parcel not cancelled, less what
 * was refunded). No prices: it travels in the parcel. Same shipment, same bytes (its dates are the
 * shipment's own).
 */
import { eq } from "drizzle-orm";
import type { AdminOrder } from "../../contract/admin-schemas";
import { stillToCome, type Shipment } from "../../contract/shipment-schemas";
import { INVOICE_TEXT } from "../../contract/texts/money";
import { SHIPMENT_TEXT } from "../../contract/texts/shipments";
import type { Db } from "../db/client";
import { storeSettings } from "../db/schema";
import { dateIn, DEFAULT_TIME_ZONE } from "../invoices/numbers";
import { addressLines, winAnsi } from "../invoices/pdf";

const PAGE = { width: 612, height: 792, margin: 50 };
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;

export async function renderPackingSlip(db: Db, order: AdminOrder, shipment: Shipment, options: { compress?: boolean } = {}): Promise<Buffer> {
  const [store] = await db.select().from(storeSettings).where(eq(storeSettings.id, 1));
  const legalName = store?.legalName ?? INVOICE_TEXT.fallbackLegalName;
  const shippedAt = new Date(shipment.shippedAt);
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "LETTER",
    margin: PAGE.margin,
    compress: options.compress ?? true,
    info: { Title: winAnsi(`${SHIPMENT_TEXT.slip.title} ${shipment.number}`), Author: winAnsi(legalName), CreationDate: shippedAt, ModDate: shippedAt },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  const text = (s: string, x: number, y?: number, o: PDFKit.Mixins.TextOptions = {}) => doc.text(winAnsi(s), x, y, { lineBreak: true, ...o });

  doc.font("Helvetica-Bold").fontSize(16);
  text(legalName, left, PAGE.margin, { width: 300 });
  doc.font("Helvetica").fontSize(9);
  if (store) text(addressLines(store).join("\n"), left, doc.y + 4, { width: 300 });
  const headEnd = doc.y;
  doc.font("Helvetica-Bold").fontSize(20);
  text(SHIPMENT_TEXT.slip.title, right - 220, PAGE.margin, { width: 220, align: "right" });
  doc.font("Helvetica").fontSize(9);
  const identity: [string, string][] = [
    [SHIPMENT_TEXT.slip.shipment, shipment.number],
    [SHIPMENT_TEXT.slip.order, `#${order.number}`],
    [SHIPMENT_TEXT.slip.date, dateIn(shippedAt, store?.timeZone ?? DEFAULT_TIME_ZONE)],
    ...(shipment.carrier ? ([[SHIPMENT_TEXT.slip.carrier, shipment.carrier]] as [string, string][]) : []),
    ...(shipment.trackingNumber ? ([[SHIPMENT_TEXT.slip.tracking, shipment.trackingNumber]] as [string, string][]) : []),
  ];
  let y = doc.y + 6;
  for (const [label, value] of identity) {
    text(`${label}:`, right - 260, y, { width: 110, align: "right" });
    text(value, right - 145, y, { width: 145, align: "right" });
    y = doc.y + 2;
  }
  y = Math.max(headEnd, y) + 24;
  doc.font("Helvetica-Bold").fontSize(10);
  text(SHIPMENT_TEXT.slip.shipTo, left, y);
  doc.font("Helvetica").fontSize(10);
  text([order.customer.name, ...addressLines(order), order.phone].filter((l) => l.trim() !== "").join("\n"), left, doc.y + 2, { width: CONTENT_WIDTH / 2 });
  y = doc.y + 24;

  const table = (heading: string, rows: { name: string; quantity: number }[], empty?: string) => {
    doc.font("Helvetica-Bold").fontSize(12);
    text(heading, left, y);
    y = doc.y + 6;
    doc.font("Helvetica-Bold").fontSize(9);
    text(SHIPMENT_TEXT.slip.quantity, left, y, { width: 40, align: "right" });
    text(SHIPMENT_TEXT.slip.tool, left + 56, y, { width: CONTENT_WIDTH - 56 });
    y = doc.y + 2;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).stroke();
    y += 4;
    doc.font("Helvetica").fontSize(10);
    if (rows.length === 0 && empty) {
      text(empty, left, y, { width: CONTENT_WIDTH });
      y = doc.y + 4;
    }
    for (const r of rows) {
      if (y > PAGE.height - PAGE.margin - 40) {
        doc.addPage();
        y = PAGE.margin;
      }
      text(String(r.quantity), left, y, { width: 40, align: "right" });
      text(r.name, left + 56, y, { width: CONTENT_WIDTH - 56 });
      y = doc.y + 4;
    }
    y += 18;
  };
  table(SHIPMENT_TEXT.slip.inParcel, shipment.lines);
  table(SHIPMENT_TEXT.slip.toCome, stillToCome(order.lines), SHIPMENT_TEXT.slip.nothingToCome);
  doc.end();
  return done;
}
