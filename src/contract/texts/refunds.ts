/**
 * The owner's refunds of lines and the customer's returns (issue 40, DESIGN "Refunds and
 * returns"): the console's form, the order pages, the API's messages and the customer's mails.
 */
export const REFUND_TEXT = {
  // The API's words.
  linesOrShipping: "Choose at least one unit or the shipping to refund",
  toolTwice: "This tool is already in the refund",
  reasonRequired: "Say why the money goes back",
  notInOrder: "This tool is not in the order",
  exceeds: "That is more than is left to refund on this order: nothing was refunded",
  notPaid: "Only an order whose money was received (paid, shipped or delivered) can be refunded",
  partlyRefunded: "This order has refunds already: refund what is left of it instead of cancelling it",
  returnNotFound: "No such return on this order",
  returnNotReceived: "A return is refunded once its parcel is received",
  // The history of the order.
  recorded: (amount: string, reason: string) => `Refund of ${amount}: ${reason}`,
  requested: (amount: string, reason: string) => `Refund of ${amount} to the card requested: ${reason}`,
  succeeded: (amount: string, creditNote: string) => `Refunded ${amount} (credit note ${creditNote}).`,
  failed: (amount: string, reason: string) => `The refund of ${amount} failed, so its units can be refunded again: ${reason}`,
  // The customer's mail.
  mail: {
    subject: (orderNumber: number) => `A refund for your order #${orderNumber}`,
    intro: (orderNumber: number, amount: string) => `We have refunded ${amount} for your order #${orderNumber}.`,
    card: "It goes back to the card you paid with; your bank may take a few days to show it.",
    offline: "We pay it back the way you paid us.",
    creditNote: (number: string) => `The credit note ${number} is attached.`,
    view: "View your order",
  },
  // The order pages (customer and console).
  page: {
    title: "Refunds",
    refundedTotal: (amount: string) => `Refunded so far: ${amount}`,
    columns: { date: "Date", what: "What", amount: "Amount", why: "Why", status: "Status", creditNote: "Credit note" },
    units: (quantity: number, name: string) => `${quantity} × ${name}`,
    shipping: "Shipping",
    restocked: "units back in stock",
    creditNoteLink: (number: string) => `Credit note ${number} (PDF)`,
    none: "-",
  },
  // The console's refund form.
  form: {
    title: "Refund",
    intro: "Choose the units to give back. Amounts follow the order's prices, discount and tax to the cent.",
    quantity: (name: string, left: number) => `${name}: units to refund (up to ${left})`,
    shipping: (amount: string) => `Refund the shipping (${amount})`,
    restock: "Put the units back in stock",
    reason: "Reason",
    amount: (amount: string) => `Amount to refund: ${amount}`,
    submit: "Refund",
    done: (amount: string) => `Refund of ${amount} recorded.`,
    nothingLeft: "Everything on this order has been refunded.",
  },
} as const;
