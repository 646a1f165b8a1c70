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
  returnNotCovered: "A refund that names a return refunds only the units of that return not yet refunded: nothing was refunded",
  nothingToRefund: "There is nothing to refund: choose units, or shipping that was charged and not yet refunded",
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
    // A payment the store gives back whole (DESIGN "Payments"): told when it is owed, and again (the mail above) once refunded.
    owedSubject: (orderNumber: number) => `Your payment for order #${orderNumber} is being refunded`,
    latePayment: (orderNumber: number, amount: string) => `Your payment of ${amount} for order #${orderNumber} arrived after the order was cancelled, so we are refunding it.`,
    duplicatePayment: (orderNumber: number, amount: string) => `We received a second payment of ${amount} for order #${orderNumber}, which was already paid, so we are refunding it.`,
    owedCard: "It goes back to the card you paid with. We will write again once the refund is confirmed.",
    lateConfirmed: "This was the payment that arrived after the order was cancelled.",
    duplicateConfirmed: "This was the second payment for the order.",
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
  // Returns (DESIGN "Refunds and returns").
  returns: {
    linesRequired: "Choose at least one unit to return",
    reasonRequired: "Say why you are returning it",
    notAllowed: "This return cannot be made: only units of a delivered order, within the return window, and never more than were bought less what was returned or refunded",
    notFound: "No such return",
    moveForbidden: (from: string, to: string) => `A return that is ${from} cannot be ${to}`,
    statuses: { requested: "Requested", approved: "Approved", refused: "Refused", received: "Received", refunded: "Refunded" },
    history: (status: string, note: string | null) => `Return ${status.toLowerCase()}${note ? `: ${note}` : ""}`,
    mail: {
      subject: (orderNumber: number, status: string) => `Your return for order #${orderNumber}: ${status.toLowerCase()}`,
      intro: {
        requested: (n: number) => `We have your request to return items of order #${n}. We will tell you when it is approved.`,
        approved: (n: number) => `Your return for order #${n} is approved: please send the items back.`,
        refused: (n: number) => `We cannot accept your return for order #${n}.`,
        received: (n: number) => `We have received the items you returned from order #${n}; your refund follows.`,
        refunded: (n: number) => `Your return for order #${n} is refunded.`,
      },
      note: (note: string) => `Our note: ${note}`,
      view: "View your order",
    },
    page: {
      title: "Returns",
      ask: "Return items",
      intro: (days: number) => `You can return items within ${days} days of delivery.`,
      quantity: (name: string, left: number) => `${name}: units to return (up to ${left})`,
      reason: "Why are you returning them?",
      submit: "Ask for a return",
      sent: "Your return request was sent.",
      columns: { date: "Date", what: "What", why: "Why", status: "Status" },
    },
    console: {
      title: "Returns",
      filter: "Show",
      all: "All returns",
      empty: "No return matches.",
      columns: { date: "Date", order: "Order", customer: "Customer", what: "What", why: "Why", status: "Status", actions: "Actions" },
      approve: "Approve",
      refuse: "Refuse",
      received: "Mark received",
      note: "Note to the customer",
      moved: (status: string) => `Return ${status.toLowerCase()}.`,
      forReturn: "For the return",
      noReturn: "No return",
    },
  },
} as const;
