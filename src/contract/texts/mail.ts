/** E-mail texts: every message the store sends (src/server/mail/templates.ts renders them). */
export const MAIL_TEXT = {
  storeName: "Toolyard",
  greeting: (name: string) => (name ? `Hello ${name},` : "Hello,"),
  signature: "The Toolyard team",
  ignore: "If you did not ask for this, you can ignore this e-mail.",
  verify: {
    subject: "Confirm your e-mail address for Toolyard",
    intro: "Please confirm that this is your e-mail address by opening this link:",
    action: "Confirm my e-mail",
  },
  reset: {
    subject: "Reset your Toolyard password",
    intro: "Someone (hopefully you) asked to reset the password of your Toolyard account. Open this link within one hour to choose a new one:",
    action: "Choose a new password",
    once: "The link works once.",
  },
  existingSignup: {
    subject: "Someone tried to sign up with your e-mail",
    intro: "Someone tried to create a new Toolyard account with your e-mail address, but you already have one. Log in here:",
    action: "Log in",
    forgot: "Forgot your password? Reset it here:",
  },
  passwordChanged: {
    subject: "Your Toolyard password was changed",
    intro: "The password of your Toolyard account was just changed and every other device was signed out. If this was not you, reset your password now:",
    action: "Reset my password",
  },
  failedSignIns: {
    subject: "Failed sign-ins to your Toolyard account",
    intro: (count: number) =>
      `There were ${count} failed attempts to sign in to your Toolyard account from several places. We slowed them down; your own sign-in keeps working. If you are worried, change your password:`,
    action: "Reset my password",
  },
  orderPlaced: {
    subject: (number: number) => `Your Toolyard order #${number}`,
    intro: (number: number) => `Thank you! We have your order #${number}:`,
    total: "Total",
    payment: "Payment",
    view: "See your order",
  },
  orderShipped: {
    subject: (number: number) => `Your Toolyard order #${number} is on its way`,
    intro: (number: number) => `Good news: your order #${number} has been shipped.`,
    view: "See your order",
  },
  orderCancelled: {
    subject: (number: number) => `Your Toolyard order #${number} was cancelled`,
    intro: (number: number) => `Your order #${number} was cancelled. Nothing more is due for it.`,
    view: "See your order",
  },
  adminNewOrder: {
    subject: (number: number, total: string) => `New order #${number} (${total})`,
    intro: (number: number) => `A new order #${number} was placed:`,
    view: "Open it in the console",
  },
} as const;

/** The admin console's mail page (the outbox). */
export const MAIL_ADMIN_TEXT = {
  section: "Mail",
  empty: "No mail yet.",
  all: "All",
  filter: "Status",
  statuses: { pending: "Pending", sent: "Sent", failed: "Failed" },
  columns: { when: "Written", to: "To", subject: "Subject", status: "Status", attempts: "Attempts", note: "Last error / next attempt" },
} as const;
