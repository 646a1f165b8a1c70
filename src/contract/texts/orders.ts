/**
 * User-visible texts, in one folder so the exact wording (much of it quoted by the spec)
 * is easy to check. Split by area so each page's chunk carries only its own words.
 */
import type { PaymentMethod } from "../constants";
import type { OrderStatus } from "../order-lifecycle";

/** An order as the customer (and later the admin console) reads it. */
export const ORDER_TEXT = {
  status: {
    pending: "Pending",
    paid: "Paid",
    shipped: "Shipped",
    delivered: "Delivered",
    cancelled: "Cancelled",
    awaiting_payment: "Awaiting payment",
    awaiting_approval: "Awaiting approval",
    refunding: "Refund in progress",
  } satisfies Record<OrderStatus, string>,
  /** Who moved an order to a status, in its history. */
  by: {
    customer: "by you",
    admin: "by the store",
    store: "by the store",
    approver: "by your company's approver",
  } as const,
  paymentMethod: {
    cash_on_delivery: "Pay on delivery",
    bank_transfer: "Bank transfer",
    card: "Card",
    terms: "On account (net terms)",
  } satisfies Record<PaymentMethod, string>,
  paymentHint: {
    cash_on_delivery: "Pay the courier in cash or by card when the tools arrive.",
    bank_transfer: "Transfer the total to our bank account: the details are on your order confirmation.",
    card: "Pay by card on Stripe's secure page; your order is confirmed when the payment is.",
    terms: "Invoiced to your company's trade account: pay the invoice by its due date.",
  } satisfies Record<PaymentMethod, string>,
  heading: (number: number) => `Order #${number}`,
  placedOn: (date: string) => `Placed on ${date}`,
  tool: "Tool",
  unitPrice: "Unit price",
  quantity: "Quantity",
  lineTotal: "Line total",
  total: "Total",
  lines: "Tools",
  delivery: "Delivery",
  address: "Address",
  phone: "Phone",
  payment: "Payment",
  note: "Note",
  history: "History",
  backToOrders: "Back to My Orders",
  notFound: "We could not find this order.",
  cancel: "Cancel order",
  cancelLabel: (number: number) => `Cancel order #${number}`,
  /** The store's account for bank transfers, shown with the order's number as the reference. */
  bank: {
    intro: "Please transfer the total to:",
    holder: "Account holder",
    holderValue: "Toolyard Ltd",
    iban: "IBAN",
    ibanValue: "US00 TOOL 0000 1234 5678 90",
    bic: "BIC",
    bicValue: "TOOLUS33",
    reference: "Reference",
    referenceValue: (number: number) => `Toolyard order ${number}`,
    after: "We ship your tools as soon as the transfer arrives.",
  },
} as const;
