/** Back-in-stock alerts (issue 42): the tool page's offer, the mails' pages, the API's errors and the mails. */
export const STOCK_ALERT_TEXT = {
  // The sold-out tool page.
  heading: "Email me when it is back",
  intro: "This tool is sold out. We will e-mail you once when it is back in stock.",
  subscribe: "Email me when it is back",
  subscribed: "Subscribed: we will e-mail you when it is back",
  stop: "Stop the alert",
  stopped: "The alert is stopped.",
  emailLabel: "Your e-mail address",
  send: "Email me when it is back",
  confirmationSent: (email: string) => `Almost done: we sent a link to ${email}. Open it to confirm the alert.`,
  needsJavaScript: "Subscribing needs JavaScript.",
  // The pages a mail's link opens.
  confirmTitle: "Confirm your back-in-stock alert",
  confirmAsk: "Confirm that this e-mail address should get one e-mail when the tool is back in stock.",
  confirmAction: "Yes, email me when it is back",
  confirmed: (tool: string) => `Done: we will e-mail you once when ${tool} is back in stock.`,
  confirmedInStock: (tool: string) => `Good news: ${tool} is back in stock already. We are e-mailing you now.`,
  unsubscribeTitle: "Stop a back-in-stock alert",
  unsubscribeAsk: (tool: string) => `Stop the e-mail about ${tool} coming back in stock?`,
  unsubscribeAction: "Stop the alert",
  unsubscribed: (tool: string) => `The alert is stopped: you will get no e-mail about ${tool}.`,
  alreadySent: (tool: string) => `The alert about ${tool} was sent already: you will get no more e-mail about it.`,
  alreadyEnded: (tool: string) => `The alert about ${tool} is stopped already.`,
  viewTool: "View the tool",
  missingToken: "This link is incomplete. Please open the link from the e-mail again.",
  // The API's errors.
  inStock: "This tool is in stock: order it now.",
  tokenInvalid: "This link is not valid. Please open the link from the e-mail again, or ask for a new one on the tool's page.",
  tokenExpired: "This link has expired. Please ask for a new one on the tool's page.",
  alertGone: "There is no alert to stop: it was not confirmed within 24 hours, so you will get no e-mail about this tool.",
  tooMany: "Too many alert requests. Please try again later.",
  // The mails.
  mail: {
    confirmSubject: (tool: string) => `Confirm your alert for ${tool}`,
    confirmIntro: (tool: string) =>
      `Someone (hopefully you) asked us to e-mail this address when ${tool} is back in stock. Please confirm it within 24 hours:`,
    confirmAction: "Confirm the alert",
    unsubscribeLater: "Changed your mind later? Stop the alert here:",
    unsubscribeAction: "Stop the alert",
    backSubject: (tool: string) => `${tool} is back in stock`,
    backIntro: (tool: string) => `Good news: ${tool} is back in stock at Toolyard. This is the only e-mail about it you will get from this alert.`,
    backAction: "View the tool",
    backUnsubscribe: "Don't want these alerts? Stop it here:",
  },
  // The console.
  waiting: "Alerts waiting",
  waitingHint: "Customers waiting for a back-in-stock e-mail",
  waitingCount: (n: number) => `${n} waiting for it to be back`,
} as const;
