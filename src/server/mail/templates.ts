/**
 * One template per message: a list of blocks (paragraphs, links, lines of an order) that is
 * rendered twice, as plain text and as simple HTML, so the two never disagree. Every link is
 * absolute, on the store's PUBLIC_URL; every word comes from src/contract/texts/mail.ts.
 */
import { centsToDollars, formatDollars } from "../../contract/money";
import type { PaymentMethod } from "../../contract/constants";
import { MAIL_TEXT } from "../../contract/texts/mail";
import { INVOICE_TEXT, MONEY_TEXT } from "../../contract/texts/money";
import { ORDER_TEXT } from "../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../contract/texts/payments";
import { QUOTE_MAIL_TEXT } from "../../contract/texts/quotes";
import { REFUND_TEXT } from "../../contract/texts/refunds";
import { SHIPMENT_TEXT } from "../../contract/texts/shipments";
import type { ReturnStatus } from "../../contract/schemas";

/** A parcel as its mail tells it (orders/shipments.ts). */
export interface ParcelMail {
  complete: boolean;
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  lines: { name: string; quantity: number }[];
}

/** A payment given back whole, not a refund of the order's lines: one after the cancel, or a second one. */
export type PaymentGivenBack = "late_payment" | "duplicate_payment";

export type Block = { p: string } | { link: string; label: string } | { rows: [string, string][] };

export interface Rendered {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function render(kind: string, subject: string, blocks: Block[]): Rendered {
  const text: string[] = [];
  const html: string[] = [];
  for (const block of blocks) {
    if ("p" in block) {
      text.push(block.p);
      html.push(`<p>${escapeHtml(block.p)}</p>`);
    } else if ("link" in block) {
      text.push(`${block.label}: ${block.link}`);
      html.push(`<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.label)}</a></p>`);
    } else {
      text.push(block.rows.map(([a, b]) => `  ${a}  ${b}`).join("\n"));
      html.push(`<table>${block.rows.map(([a, b]) => `<tr><td>${escapeHtml(a)}</td><td style="text-align:right">${escapeHtml(b)}</td></tr>`).join("")}</table>`);
    }
  }
  text.push(MAIL_TEXT.signature);
  html.push(`<p>${escapeHtml(MAIL_TEXT.signature)}</p>`);
  return {
    kind,
    subject,
    text: `${text.join("\n\n")}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">${html.join("\n")}</body></html>`,
  };
}

/** An absolute link on the store: the public URL and a path. */
export const storeLink = (publicUrl: string, path: string) => new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).toString();

const money = (cents: number) => formatDollars(centsToDollars(cents));

export const templates = {
  verifyEmail: (name: string, url: string) =>
    render("verify-email", MAIL_TEXT.verify.subject, [{ p: MAIL_TEXT.greeting(name) }, { p: MAIL_TEXT.verify.intro }, { link: url, label: MAIL_TEXT.verify.action }, { p: MAIL_TEXT.ignore }]),
  resetPassword: (name: string, url: string) =>
    render("reset-password", MAIL_TEXT.reset.subject, [
      { p: MAIL_TEXT.greeting(name) },
      { p: MAIL_TEXT.reset.intro },
      { link: url, label: MAIL_TEXT.reset.action },
      { p: MAIL_TEXT.reset.once },
      { p: MAIL_TEXT.ignore },
    ]),
  existingSignup: (name: string, publicUrl: string) =>
    render("existing-signup", MAIL_TEXT.existingSignup.subject, [
      { p: MAIL_TEXT.greeting(name) },
      { p: MAIL_TEXT.existingSignup.intro },
      { link: storeLink(publicUrl, "/login"), label: MAIL_TEXT.existingSignup.action },
      { p: MAIL_TEXT.existingSignup.forgot },
      { link: storeLink(publicUrl, "/forgot-password"), label: MAIL_TEXT.reset.action },
      { p: MAIL_TEXT.ignore },
    ]),
  passwordChanged: (name: string, publicUrl: string) =>
    render("password-changed", MAIL_TEXT.passwordChanged.subject, [
      { p: MAIL_TEXT.greeting(name) },
      { p: MAIL_TEXT.passwordChanged.intro },
      { link: storeLink(publicUrl, "/forgot-password"), label: MAIL_TEXT.passwordChanged.action },
    ]),
  failedSignIns: (count: number, publicUrl: string) =>
    render("failed-sign-ins", MAIL_TEXT.failedSignIns.subject, [
      { p: MAIL_TEXT.greeting("") },
      { p: MAIL_TEXT.failedSignIns.intro(count) },
      { link: storeLink(publicUrl, "/forgot-password"), label: MAIL_TEXT.failedSignIns.action },
    ]),
  orderPlaced: (order: MailOrder, publicUrl: string) =>
    render("order-placed", MAIL_TEXT.orderPlaced.subject(order.number), [
      { p: MAIL_TEXT.orderPlaced.intro(order.number) },
      { rows: orderRows(order) },
      ...(order.shippingMethodName ? [{ p: `${MONEY_TEXT.shipping}: ${order.shippingMethodName}` }] : []),
      // A card order's message is written when it is paid (issue 40: an abandoned checkout mails nobody), so it says paid.
      { p: `${MAIL_TEXT.orderPlaced.payment}: ${order.paymentMethod === "card" ? `${PAYMENT_TEXT.status.paid}.` : `${ORDER_TEXT.paymentMethod[order.paymentMethod]}. ${ORDER_TEXT.paymentHint[order.paymentMethod]}`}` },
      ...(order.invoiceNumber ? [{ p: INVOICE_TEXT.mail.invoiceAttached(order.invoiceNumber) }] : []),
      { link: storeLink(publicUrl, `/dashboard/orders/${order.id}`), label: MAIL_TEXT.orderPlaced.view },
    ]),
  /**
   * An order shipped, or one parcel of it (issue 52): `parcel.complete` when nothing is left to
   * ship after it; its carrier and tracking link when it has them.
   */
  orderShipped: (order: Pick<MailOrder, "id" | "number">, publicUrl: string, parcel?: ParcelMail) =>
    render("order-shipped", parcel && !parcel.complete ? SHIPMENT_TEXT.mail.partSubject(order.number) : MAIL_TEXT.orderShipped.subject(order.number), [
      { p: parcel && !parcel.complete ? SHIPMENT_TEXT.mail.partIntro(order.number) : MAIL_TEXT.orderShipped.intro(order.number) },
      ...(parcel && parcel.lines.length > 0 ? [{ p: SHIPMENT_TEXT.mail.units(parcel.lines.map((l) => `${l.quantity} × ${l.name}`).join(", ")) }] : []),
      ...(parcel?.carrier ? [{ p: SHIPMENT_TEXT.mail.carrier(parcel.carrier, parcel.trackingNumber) }] : []),
      ...(parcel?.trackingUrl ? [{ link: parcel.trackingUrl, label: SHIPMENT_TEXT.mail.track }] : []),
      { link: storeLink(publicUrl, `/dashboard/orders/${order.id}`), label: MAIL_TEXT.orderShipped.view },
    ]),
  orderCancelled: (order: Pick<MailOrder, "id" | "number"> & { creditNoteNumber?: string | null }, publicUrl: string) =>
    render("order-cancelled", MAIL_TEXT.orderCancelled.subject(order.number), [
      { p: MAIL_TEXT.orderCancelled.intro(order.number) },
      ...(order.creditNoteNumber ? [{ p: INVOICE_TEXT.mail.creditNote(order.creditNoteNumber) }] : []),
      { link: storeLink(publicUrl, `/dashboard/orders/${order.id}`), label: MAIL_TEXT.orderCancelled.view },
    ]),
  refundMade: (refund: { orderId: string; orderNumber: number; amountCents: number; creditNoteNumber: string | null; card: boolean; payment?: PaymentGivenBack | undefined }, publicUrl: string) =>
    render("refund-made", REFUND_TEXT.mail.subject(refund.orderNumber), [
      { p: REFUND_TEXT.mail.intro(refund.orderNumber, money(refund.amountCents)) },
      ...(refund.payment ? [{ p: refund.payment === "late_payment" ? REFUND_TEXT.mail.lateConfirmed : REFUND_TEXT.mail.duplicateConfirmed }] : []),
      { p: refund.card ? REFUND_TEXT.mail.card : REFUND_TEXT.mail.offline },
      ...(refund.creditNoteNumber ? [{ p: REFUND_TEXT.mail.creditNote(refund.creditNoteNumber) }] : []),
      { link: storeLink(publicUrl, `/dashboard/orders/${refund.orderId}`), label: REFUND_TEXT.mail.view },
    ]),
  refundOwed: (refund: { orderId: string; orderNumber: number; amountCents: number; payment: PaymentGivenBack }, publicUrl: string) =>
    render("refund-owed", REFUND_TEXT.mail.owedSubject(refund.orderNumber), [
      {
        p:
          refund.payment === "late_payment"
            ? REFUND_TEXT.mail.latePayment(refund.orderNumber, money(refund.amountCents))
            : REFUND_TEXT.mail.duplicatePayment(refund.orderNumber, money(refund.amountCents)),
      },
      { p: REFUND_TEXT.mail.owedCard },
      { link: storeLink(publicUrl, `/dashboard/orders/${refund.orderId}`), label: REFUND_TEXT.mail.view },
    ]),
  returnMoved: (moved: { orderId: string; orderNumber: number; status: ReturnStatus; note: string | null }, publicUrl: string) => {
    const words = REFUND_TEXT.returns;
    return render(`return-${moved.status}`, words.mail.subject(moved.orderNumber, words.statuses[moved.status]), [
      { p: words.mail.intro[moved.status](moved.orderNumber) },
      ...(moved.note ? [{ p: words.mail.note(moved.note) }] : []),
      { link: storeLink(publicUrl, `/dashboard/orders/${moved.orderId}`), label: words.mail.view },
    ]);
  },
  adminNewOrder: (order: MailOrder, publicUrl: string) =>
    render("admin-new-order", MAIL_TEXT.adminNewOrder.subject(order.number, money(order.totalCents)), [
      { p: MAIL_TEXT.adminNewOrder.intro(order.number) },
      { rows: orderRows(order) },
      { link: storeLink(publicUrl, `/admin/orders/${order.id}`), label: MAIL_TEXT.adminNewOrder.view },
    ]),
  /** The owners: a quote was accepted, told with its order's announcement (a card order's when it is paid). */
  quoteAccepted: (order: MailOrder & { quoteNumber: string }, publicUrl: string) =>
    render("quote-accepted", QUOTE_MAIL_TEXT.accepted.subject(order.quoteNumber), [
      { p: QUOTE_MAIL_TEXT.accepted.intro(order.quoteNumber, order.number) },
      { link: storeLink(publicUrl, `/admin/orders/${order.id}`), label: QUOTE_MAIL_TEXT.accepted.view },
    ]),
};

export interface MailOrder {
  id: string;
  number: number;
  userId: string;
  totalCents: number;
  paymentMethod: PaymentMethod;
  lines: { toolName: string; quantity: number; lineTotalCents: number }[];
  /*
   * DESIGN "Money": the totals the order stored. Optional so that a caller from before issue 31
   * still compiles; without `subtotalCents` the message shows the lines and the total only.
   */
  subtotalCents?: number;
  discountCents?: number;
  shippingCents?: number;
  taxCents?: number;
  promoCode?: string | null;
  shippingMethodName?: string;
  /** With one, the customer's message says so and carries the invoice as a PDF (rendered when it is sent). */
  invoiceNumber?: string | null;
  /** The quote the order accepted (DESIGN "Quotes"): its announcement also tells the owners the quote was accepted. */
  quoteNumber?: string | null;
}

/**
 * The lines (each with its subtotal), then subtotal, discount (with its code, when there is one),
 * shipping and tax when the order has them, the total, and the invoice's number.
 */
function orderRows(order: MailOrder): [string, string][] {
  const rows = order.lines.map((l): [string, string] => [`${l.quantity} × ${l.toolName}`, money(l.lineTotalCents)]);
  if (order.subtotalCents !== undefined) {
    rows.push([MONEY_TEXT.subtotal, money(order.subtotalCents)]);
    if (order.discountCents) rows.push([order.promoCode ? MONEY_TEXT.discountWithCode(order.promoCode) : MONEY_TEXT.discount, money(-order.discountCents)]);
    rows.push([MONEY_TEXT.shipping, money(order.shippingCents ?? 0)], [MONEY_TEXT.tax, money(order.taxCents ?? 0)]);
  }
  rows.push([MAIL_TEXT.orderPlaced.total, money(order.totalCents)]);
  if (order.invoiceNumber) rows.push([INVOICE_TEXT.mail.invoiceNumber, order.invoiceNumber]);
  return rows;
}
