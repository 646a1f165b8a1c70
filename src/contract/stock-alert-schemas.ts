/**
 * Back-in-stock alerts (issue 42, decision 0019): 'Email me when it is back' on a sold-out tool's
 * page. One schema per payload, used by the tool page's form and the routes alike.
 */
import { emailSchema } from "./schemas";
import { z } from "./zod";

/** How long a visitor's confirmation link works. */
export const STOCK_ALERT_CONFIRM_HOURS = 24;

/** A visitor's request: the address the confirmation link is mailed to. */
export const stockAlertRequestSchema = z.object({ email: emailSchema });
export type StockAlertRequest = z.input<typeof stockAlertRequestSchema>;

/** A link's token (the confirmation's or the unsubscribe's), from the page the mail leads to. */
export const stockAlertTokenSchema = z.object({ token: z.string().trim().min(1).max(400) });

/**
 * A caller's subscription to a tool: `subscribed` (waiting for the tool), `confirmation_sent`
 * (a confirmation link is on its way), `none`.
 */
export const STOCK_ALERT_STATES = ["subscribed", "confirmation_sent", "none"] as const;
export type StockAlertState = (typeof STOCK_ALERT_STATES)[number];
export const stockAlertSchema = z.object({ toolId: z.string(), status: z.enum(STOCK_ALERT_STATES) });
export type StockAlert = z.infer<typeof stockAlertSchema>;

/**
 * What a mail's link finds: the tool, and whether the subscription is `subscribed` (waiting for
 * the tool), `sent` (the alert went out: it is over) or `ended` (unsubscribed).
 */
export const STOCK_ALERT_LINK_STATES = ["subscribed", "sent", "ended"] as const;
export const stockAlertLinkSchema = z.object({
  toolId: z.string(),
  toolName: z.string(),
  status: z.enum(STOCK_ALERT_LINK_STATES),
  /** The tool can be ordered now. */
  inStock: z.boolean(),
});
export type StockAlertLink = z.infer<typeof stockAlertLinkSchema>;

export { STOCK_ALERT_LINK_KINDS, STOCK_ALERT_PARAM, stockAlertLinkPath } from "./stock-alert-links";
export type { StockAlertLinkKind } from "./stock-alert-links";
