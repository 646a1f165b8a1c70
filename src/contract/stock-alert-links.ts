/*
 * The alert mails' links, apart from stock-alert-schemas.ts (which re-exports them): the tool page
 * reads the parameter as it loads, and importing the schemas' module would evaluate zod and the
 * store's whole schemas.ts (its e-mail rule) on the page's critical path (Total Blocking Time).
 */

/**
 * Where a mail's link leads: the tool's own page, with `?stockAlert=confirm|unsubscribe&token=`. The
 * tool page (its chunk) shows what the link is for and a button that acts; the home page's download
 * carries no route for it.
 */
export const STOCK_ALERT_PARAM = "stockAlert";
export const STOCK_ALERT_LINK_KINDS = ["confirm", "unsubscribe"] as const;
export type StockAlertLinkKind = (typeof STOCK_ALERT_LINK_KINDS)[number];
export const stockAlertLinkPath = (toolId: string, kind: StockAlertLinkKind, token: string) =>
  `/tools/${encodeURIComponent(toolId)}?${STOCK_ALERT_PARAM}=${kind}&token=${encodeURIComponent(token)}`;
