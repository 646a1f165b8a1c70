/**
 * Every word about quotes (DESIGN "Quotes", issue 41): the request form, the customer's quotes
 * in the dashboard, the console's pages, the API's answers, the mail and the revision's PDF.
 */
import type { QuoteRevisionStatus, QuoteStatus } from "../quote-states";
import { formatWhole } from "../money";

export const QUOTE_STATUS_TEXT: Record<QuoteStatus, string> = {
  requested: "Requested",
  sent: "Quote sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  withdrawn: "Withdrawn",
};

export const QUOTE_REVISION_STATUS_TEXT: Record<QuoteRevisionStatus, string> = {
  sent: "Open",
  superseded: "Superseded",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  withdrawn: "Withdrawn",
};

/** The request form (/dashboard/quotes/new), from the home page's 'Request For Quote' or the cart's 'Ask for a quote'. */
export const QUOTE_REQUEST_TEXT = {
  /** The cart's button (issue 41's words). */
  fromCartButton: "Ask for a quote",
  title: "Request a quote",
  intro: "Tell us what you need and when: we answer with prices for your quantities, valid for a while. Nothing is ordered until you accept.",
  lines: "Tools and quantities",
  tool: "Tool",
  quantity: "Quantity",
  toolOf: (n: number) => `Tool, line ${n}`,
  quantityOf: (n: number) => `Quantity, line ${n}`,
  chooseTool: "Choose a tool",
  addLine: "Add a tool",
  removeLine: (n: number) => `Remove line ${n}`,
  minimum: (n: number) => `Minimum ${formatWhole(n)}`,
  neededBy: "Needed by (optional)",
  delivery: "Delivery address (optional: without one, you collect at the store)",
  street: "Address",
  message: "Message (optional)",
  submit: "Send request",
  sending: "Sending…",
  sent: (number: string) => `Request ${number} sent. We will answer by e-mail.`,
  fromCart: "Your cart's lines are filled in; change them as you like.",
  toolsError: "The tools could not be loaded.",
} as const;

/** The customer's quotes (dashboard). */
export const QUOTE_TEXT = {
  navLink: "My Quotes",
  heading: "My Quotes",
  empty: "No quotes yet. Ask for one from the cart or with 'Request For Quote' on the home page.",
  newRequest: "Request a quote",
  number: "Quote",
  status: "Status",
  requestedOn: "Requested",
  total: "Total",
  view: "View",
  requested: "What you asked for",
  neededBy: "Needed by",
  deliverTo: "Deliver to",
  pickup: "Collect at the store",
  /** The shipping method of a quote delivered to its address. */
  quotedDelivery: "Delivery as quoted",
  yourMessage: "Your message",
  waiting: "We are preparing your quote: you will hear from us by e-mail.",
  revision: (n: number) => `Revision ${n}`,
  validUntil: "Valid until",
  ourMessage: "Our message",
  changes: "What changed since the last revision",
  noChanges: "Only the validity or the message changed.",
  change: (name: string, from: string, to: string) => `${name}: ${from} → ${to}`,
  added: (name: string) => `${name}: added`,
  removed: (name: string) => `${name}: removed`,
  shippingChange: (from: string, to: string) => `Shipping: ${from} → ${to}`,
  pdf: (n: number) => `PDF of revision ${n}`,
  unitPrice: "Unit price",
  lineTotal: "Line total",
  paymentMethod: "Pay by",
  accept: "Accept this quote",
  accepting: "Accepting…",
  decline: "Decline",
  declineConfirm: "Decline this quote? The prices are no longer offered.",
  keep: "Keep it",
  declined: "Quote declined.",
  accepted: (orderNumber: number) => `Quote accepted: order #${orderNumber} placed.`,
  order: "Order",
  viewOrder: "View the order",
  held: "The quoted units are held for you until the quote expires.",
  backToQuotes: "Back to My Quotes",
  notFound: "This quote was not found.",
} as const;

/** The console's quotes (/admin/quotes). */
export const ADMIN_QUOTE_TEXT = {
  section: "Quotes",
  heading: "Quotes",
  allStatuses: "All statuses",
  empty: "No quotes.",
  columns: { number: "Quote", customer: "Customer", status: "Status", lines: "Lines", requested: "Requested", total: "Latest total" },
  back: "Back to quotes",
  customer: "Customer",
  requested: "Requested",
  revisions: "Revisions",
  none: "No revision sent yet.",
  form: {
    title: (n: number) => `Send revision ${n}`,
    unitPrice: "Unit price ($)",
    unitPriceOf: (name: string) => `Unit price ($) of ${name}`,
    quantityOf: (name: string) => `Quantity of ${name}`,
    listPrice: (price: string) => `List or tier price: ${price}`,
    shipping: "Shipping ($)",
    validUntil: "Valid until",
    message: "Message to the customer (optional)",
    holdStock: "Hold the quoted units until the quote expires",
    taxNote: "Tax is added by the store's rates for the quote's address (or the store's, for collection).",
    send: "Send revision",
    sent: "Revision sent.",
  },
  withdraw: "Withdraw the quote",
  withdrawConfirm: "Withdraw this quote? The customer can no longer accept it.",
  withdrawn: "Quote withdrawn.",
} as const;

/** The API's answers about quotes. */
export const QUOTE_API_TEXT = {
  notFound: "No such quote.",
  revisionUnknown: "This quote has no such revision.",
  alreadyAccepted: "This quote has been accepted already.",
  expired: "This quote has expired.",
  superseded: "This revision has been superseded by a newer one: look at the latest.",
  closed: "This quote is no longer open.",
  notSent: "This quote has not been answered yet.",
  toolUnavailable: (name: string) => `${name} is no longer sold: this quote cannot offer it.`,
  validUntilPast: "The validity must end in the future",
  neededByPast: "The date must not be in the past",
  linesRequired: "Add at least one tool",
  toolTwice: "Each tool once: change its quantity instead",
  linesMustMatch: "A revision prices the lines the customer asked for, each once",
  messageTooLong: (max: number) => `At most ${formatWhole(max)} characters`,
} as const;

/** The mail about quotes (written to the outbox with what caused it). */
export const QUOTE_MAIL_TEXT = {
  requested: {
    subject: (number: string) => `New quote request ${number}`,
    intro: (number: string, customer: string) => `${customer} asked for quote ${number}.`,
    view: "Answer it in the console",
  },
  revision: {
    subject: (number: string, revision: number) => `Your quote ${number}, revision ${revision}`,
    intro: (number: string) => `Here are our prices for your request ${number}.`,
    validUntil: (date: string) => `Valid until ${date}.`,
    pdf: "The quote is attached as a PDF.",
    view: "Accept or decline it",
  },
  accepted: {
    subject: (number: string) => `Quote ${number} accepted`,
    intro: (number: string, orderNumber: number) => `Quote ${number} was accepted: order #${orderNumber}.`,
    view: "Open the order",
  },
  declined: {
    subject: (number: string) => `Quote ${number} declined`,
    intro: (number: string) => `The customer declined quote ${number}.`,
    view: "Open the quote",
  },
  withdrawn: {
    subject: (number: string) => `Quote ${number} withdrawn`,
    intro: (number: string) => `We have withdrawn quote ${number}: its prices are no longer offered.`,
    view: "Open the quote",
  },
} as const;

/** The revision's PDF. */
export const QUOTE_PDF_TEXT = {
  title: "Quote",
  number: "Quote no.",
  revision: "Revision",
  date: "Date",
  validUntil: "Valid until",
  customer: "Customer",
  deliveryAddress: "Delivery address",
  pickup: "Collected at the store",
  neededBy: "Needed by",
  message: "Message",
  columns: { item: "Item", quantity: "Qty", unitPrice: "Unit price", lineTotal: "Amount", tax: "Tax" },
  status: "Status",
  page: (n: number, of: number) => `Page ${n} of ${of}`,
} as const;
