/**
 * Shipments (issue 52, DESIGN "Orders" → Shipments): the API's messages, the history's notes, the
 * customer's mail, the packing slip and the order pages (customer and console).
 */
export const SHIPMENT_TEXT = {
  // The API's words.
  linesRequired: "Choose at least one unit to ship",
  toolTwice: "This tool is already in the shipment",
  notInOrder: "This tool is not in the order",
  carrierRequired: "Name the carrier",
  trackingNumberInvalid: "A tracking number has only letters and digits (spaces and dashes are left out)",
  exceeds: "That is more than is left to ship of this order: nothing was shipped",
  nothingToShip: "Nothing is left to ship on this order (its units shipped or were refunded)",
  notShippable: (status: string) => `An order that is ${status} cannot ship: a card or bank-transfer order ships once paid; cash on delivery and terms once placed`,
  notFound: "No such shipment",
  partlyShipped: "Part of this order has shipped: cancel its shipments first, or refund what is left instead of cancelling it",
  moveForbidden: (from: string, to: string) => `A shipment that is ${from} cannot become ${to}`,
  // The history of the order.
  shipped: (number: string, carrier: string | null, trackingNumber: string | null) =>
    `Shipment ${number}${carrier ? ` by ${carrier}` : ""}${trackingNumber ? `, tracking ${trackingNumber}` : ""}`,
  delivered: (number: string) => `Shipment ${number} delivered`,
  cancelled: (number: string) => `Shipment ${number} cancelled: its units are to ship again`,
  // The customer's mail (the order-shipped one, per parcel).
  mail: {
    partSubject: (orderNumber: number) => `Part of your order #${orderNumber} has shipped`,
    partIntro: (orderNumber: number) => `Part of your order #${orderNumber} is on its way; the rest follows.`,
    carrier: (carrier: string, trackingNumber: string | null) => (trackingNumber ? `Carrier: ${carrier}, tracking number ${trackingNumber}.` : `Carrier: ${carrier}.`),
    track: "Track your parcel",
    units: (lines: string) => `In this parcel: ${lines}.`,
  },
  // The packing slip (PDF).
  slip: {
    title: "Packing slip",
    shipment: "Shipment",
    order: "Order",
    date: "Shipped",
    shipTo: "Ship to",
    carrier: "Carrier",
    tracking: "Tracking number",
    inParcel: "In this parcel",
    toCome: "Still to come",
    nothingToCome: "Nothing else is to come: this parcel completes the order.",
    tool: "Tool",
    quantity: "Qty",
  },
  // The order pages (customer and console).
  page: {
    title: "Shipments",
    none: "Nothing has shipped yet.",
    number: "Shipment",
    status: "Status",
    carrier: "Carrier",
    tracking: "Tracking",
    units: "Units",
    shippedAt: "Shipped",
    deliveredAt: "Delivered",
    track: "Track",
    packingSlip: "Packing slip",
    actions: "Slip and moves",
    toCome: "Still to come",
    nothingToCome: "Everything has shipped.",
    unit: (quantity: number, name: string) => `${quantity} × ${name}`,
    statuses: { shipped: "Shipped", delivered: "Delivered", cancelled: "Cancelled" } as Record<string, string>,
    payment: "Payment",
    fulfillment: "Fulfilment",
    paymentStatuses: { unpaid: "Unpaid", paid: "Paid", partly_refunded: "Partly refunded", refunded: "Refunded" } as Record<string, string>,
    fulfillmentStatuses: { unfulfilled: "Not shipped", partly_shipped: "Partly shipped", shipped: "Shipped", delivered: "Delivered" } as Record<string, string>,
  },
  // The console's ship form and list.
  form: {
    title: "Ship",
    left: (quantity: number) => `${quantity} left to ship`,
    carrier: "Carrier",
    otherCarrier: "Another carrier",
    otherCarrierName: "Carrier's name",
    trackingNumber: "Tracking number",
    submit: "Ship these units",
    done: (number: string) => `Shipment ${number} recorded.`,
    markDelivered: "Mark delivered",
    cancel: "Cancel shipment",
  },
  toShip: {
    title: "Waiting to ship",
    filter: "To ship",
    waitsFor: "Waits for",
    none: "Nothing waits to ship.",
  },
} as const;
