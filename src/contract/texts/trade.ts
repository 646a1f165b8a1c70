/**
 * Every word about trade accounts (DESIGN "Money" → "Trade accounts", issue 43): the forms, the
 * dashboard's and the console's pages, the API's answers and the mail.
 */
import { formatDollars } from "../money";

export const TRADE_TEXT = {
  nameRequired: "Please enter the company's name",
  notNegative: "Must be 0 or more",
  positive: "Must be more than 0",
  percentRange: "Must be between 0 and 100",
  percentDecimals: "At most two decimals",
  role: "Role must be buyer, approver or admin",
  reasonRequired: "Please say why",
  referenceRequired: "Please enter the payment's reference",

  // The API's answers.
  accountNotFound: "No such trade account",
  noAccount: "You are not a member of a trade account",
  customerNotFound: "No customer has that e-mail address",
  alreadyAMember: "That customer already belongs to a trade account",
  memberNotFound: "No such member of this account",
  notAccountAdmin: "Only the account's admin may do that",
  lastAdmin: "The account must keep at least one admin",
  ownOrder: "Nobody approves their own order",
  notAwaitingApproval: "This order is not waiting for approval",
  notAnApprover: "Only an approver or the account's admin may approve or reject orders",
  poRequired: "Please enter a purchase order number",
  termsNotAvailable: "Paying on terms is only for members of a trade account with terms",
  creditLimit: (available: number) => `This order is over the account's available credit (${formatDollars(available)})`,
  onHold: "The account is on hold until its overdue invoices are paid",
  alreadyApplied: "You have already applied for a trade account",
  invoiceUnknown: (n: string) => `No open invoice ${n} on this account`,

  // Mail.
  approvalSubject: (number: number) => `Order #${number} needs your approval`,
  approvalText: (number: number, total: number) => `A member of your trade account placed order #${number} for ${formatDollars(total)}, over their limit. Approve or reject it from your dashboard.`,
  approvalsLink: "Orders waiting for approval",
  approvedSubject: (number: number) => `Order #${number} was approved`,
  rejectedSubject: (number: number) => `Order #${number} was rejected`,
  rejectedText: (number: number, reason: string) => `Your order #${number} was rejected: ${reason}`,
  approvedText: (number: number) => `Your order #${number} was approved and is on its way to being fulfilled.`,
  reminderSubject: (invoice: string, days: number) => (days === 0 ? `Invoice ${invoice} is due today` : `Invoice ${invoice} is ${days} days overdue`),
  reminderText: (invoice: string, due: string, balance: number) => `Invoice ${invoice} is due on ${due}; ${formatDollars(balance)} of it is still open.`,
  applicationSubject: (name: string) => `Trade account application: ${name}`,
  applicationsLink: "Trade accounts in the console",
  applicationText: (name: string, email: string, message: string) => `${email} applied for a trade account for ${name}.${message ? `\n\n${message}` : ""}`,

  // Pages.
  tradePrice: "Trade price",
  poNumberOptional: "Purchase order number (optional)",
  poNumberRequired: "Purchase order number (your company requires one)",
  statementTitle: "Statement",
  statementTypes: { invoice: "Invoice", payment: "Payment", credit_note: "Credit note" },
  ageing: { current: "Current", days1to30: "1–30 days", days31to60: "31–60 days", over60: "Over 60 days" },
  balance: "Balance",
  pdf: { taxId: "Tax ID", date: "Date", dateColumn: "Date", type: "Type", number: "Number", amount: "Amount", ageing: "Ageing of open invoices" },
  certificateRequired: "Please enter the certificate's number",
} as const;
