/**
 * Back-in-stock alerts (issue 42, decision 0019). A subscription is a row of stock_alerts:
 * a visitor's address is `pending` until the link mailed to it is opened; a signed-in customer's
 * own address is `waiting` at once. A trigger on tools (migration 0022) makes the waiting ones
 * `due` in the transaction that makes the tool orderable again, whatever path changed its stock;
 * the mail worker's round (flushDueAlerts) turns due rows into outbox mail and marks them `sent`
 * in one transaction, claiming them with SKIP LOCKED, so each subscriber is mailed once even with
 * several instances on one database.
 *
 * A subscriber's tool row is read FOR SHARE while a subscription becomes waiting: a restock that
 * commits meanwhile waits for it (or it for the restock), so the trigger never misses a row that
 * was confirmed while the tool came back.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { StockAlert, StockAlertLink } from "../../contract/stock-alert-schemas";
import { STOCK_ALERT_CONFIRM_HOURS, stockAlertLinkPath } from "../../contract/stock-alert-schemas";
import { API_TEXT } from "../../contract/texts/api";
import { STOCK_ALERT_TEXT } from "../../contract/texts/stock-alerts";
import type { Db, Tx } from "../db/client";
import { stockAlerts, tools } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { enqueueMail, type Outgoing } from "../mail/outbox";
import { render, storeLink } from "../mail/templates";
import { confirmToken, readConfirmToken, readUnsubscribeToken, unsubscribeToken } from "./tokens";

export interface AlertSettings {
  publicUrl: string;
  /** Signs the links' tokens: AUTH_SECRET, the same on every instance. */
  secret: string;
}

const OPEN = ["pending", "waiting", "due"] as const;
/** A tool a customer can order: active, with at least max(1, its minimum) in stock. */
const orderable = sql<boolean>`(${tools.active} and ${tools.availableQuantity} >= greatest(1, ${tools.minimumQuantity}))`;

type AlertRow = typeof stockAlerts.$inferSelect;

/** The tool (active ones only, locked FOR SHARE when `tx` is a transaction that subscribes), or a 404. */
async function toolFor(db: Db | Tx, toolId: string, lock: boolean) {
  const query = db
    .select({ id: tools.id, name: tools.name, orderable })
    .from(tools)
    .where(and(eq(tools.id, toolId), eq(tools.active, true)));
  const [tool] = lock ? await query.for("share") : await query;
  if (!tool) throw notFound(API_TEXT.toolNotFound);
  return tool;
}

const inStock = () => conflict("IN_STOCK", STOCK_ALERT_TEXT.inStock);

/** A tool one may subscribe to: 404 for an unknown one, 409 IN_STOCK for one that can be ordered. */
export async function alertableTool(db: Db, toolId: string): Promise<{ id: string; name: string }> {
  const tool = await toolFor(db, toolId, false);
  if (tool.orderable) throw inStock();
  return tool;
}

const openAlert = (toolId: string, email: string) =>
  and(eq(stockAlerts.toolId, toolId), eq(stockAlerts.email, email), inArray(stockAlerts.status, [...OPEN]));

/**
 * Inserts the open subscription of (tool, address), or finds the one there is (locked). A pending
 * one that the sweep deleted between the two (its link had expired) is inserted anew.
 */
async function openRow(
  tx: Tx,
  values: { toolId: string; email: string; userId: string | null; status: "pending" | "waiting"; confirmExpiresAt: Date | null },
): Promise<{ row: AlertRow; created: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const [created] = await tx
      .insert(stockAlerts)
      .values({ ...values, confirmedAt: values.status === "waiting" ? new Date() : null })
      .onConflictDoNothing({ target: [stockAlerts.toolId, stockAlerts.email], where: sql`${stockAlerts.status} in ('pending', 'waiting', 'due')` })
      .returning();
    if (created) return { row: created, created: true };
    const [row] = await tx.select().from(stockAlerts).where(openAlert(values.toolId, values.email)).for("update");
    if (row) return { row, created: false };
  }
  throw new Error("the open subscription vanished under its unique index three times");
}

const toolLink = (settings: AlertSettings, toolId: string) => storeLink(settings.publicUrl, `/tools/${encodeURIComponent(toolId)}`);
const unsubscribeLink = (settings: AlertSettings, alert: { id: string; toolId: string }) =>
  storeLink(settings.publicUrl, stockAlertLinkPath(alert.toolId, "unsubscribe", unsubscribeToken(settings.secret, alert.id)));

const linkExpiry = () => new Date(Date.now() + STOCK_ALERT_CONFIRM_HOURS * 3600_000);

function confirmationMail(settings: AlertSettings, row: AlertRow, toolName: string, expiresAt: Date): Outgoing {
  const confirm = storeLink(settings.publicUrl, stockAlertLinkPath(row.toolId, "confirm", confirmToken(settings.secret, row.id, expiresAt)));
  const { mail } = STOCK_ALERT_TEXT;
  return {
    to: row.email,
    ...render("stock-alert-confirm", mail.confirmSubject(toolName), [
      { p: mail.confirmIntro(toolName) },
      { link: confirm, label: mail.confirmAction },
      { link: toolLink(settings, row.toolId), label: mail.backAction },
      { p: mail.unsubscribeLater },
      { link: unsubscribeLink(settings, row), label: mail.unsubscribeAction },
    ]),
  };
}

/**
 * A visitor's request (or anyone's for an address they give): the address gets a confirmation
 * link, and is subscribed only once it is opened. An address already subscribed gets nothing, and
 * the answer is the same (it tells nobody who subscribed).
 */
export async function requestAlert(db: Db, settings: AlertSettings, toolId: string, email: string): Promise<StockAlert> {
  await db.transaction(async (tx) => {
    const tool = await toolFor(tx, toolId, true);
    if (tool.orderable) throw inStock();
    const expiresAt = linkExpiry();
    const { row, created } = await openRow(tx, { toolId, email, userId: null, status: "pending", confirmExpiresAt: expiresAt });
    if (row.status !== "pending") return;
    // A new link: the row lives as long as the last one mailed (the sweep deletes it after).
    if (!created) await tx.update(stockAlerts).set({ confirmExpiresAt: expiresAt }).where(eq(stockAlerts.id, row.id));
    await enqueueMail(tx, [confirmationMail(settings, row, tool.name, expiresAt)]);
  });
  return { toolId, status: "confirmation_sent" };
}

/** A signed-in customer's one click: their own address is subscribed at once; repeating it changes nothing. */
export async function subscribeOwn(db: Db, user: { id: string; email: string }, toolId: string): Promise<StockAlert> {
  const email = user.email.toLowerCase();
  await db.transaction(async (tx) => {
    const tool = await toolFor(tx, toolId, true);
    if (tool.orderable) throw inStock();
    const { row } = await openRow(tx, { toolId, email, userId: user.id, status: "waiting", confirmExpiresAt: null });
    if (row.status === "pending") {
      // A confirmation was mailed to this address: the signed-in owner of it needs none.
      await tx.update(stockAlerts).set({ status: "waiting", userId: user.id, confirmedAt: new Date(), confirmExpiresAt: null }).where(eq(stockAlerts.id, row.id));
    }
  });
  return { toolId, status: "subscribed" };
}

export async function ownAlert(db: Db, email: string, toolId: string): Promise<StockAlert> {
  await toolFor(db, toolId, false);
  const [row] = await db.select({ status: stockAlerts.status }).from(stockAlerts).where(openAlert(toolId, email.toLowerCase()));
  return { toolId, status: !row ? "none" : row.status === "pending" ? "confirmation_sent" : "subscribed" };
}

/** Ends the caller's own subscription to the tool, if there is one. */
export async function endOwn(db: Db, email: string, toolId: string): Promise<StockAlert> {
  await toolFor(db, toolId, false);
  await db.update(stockAlerts).set({ status: "ended", endedAt: new Date() }).where(openAlert(toolId, email.toLowerCase()));
  return { toolId, status: "none" };
}

const invalidToken = () => new ApiError(400, "INVALID_TOKEN", STOCK_ALERT_TEXT.tokenInvalid);
const expiredToken = () => new ApiError(400, "TOKEN_EXPIRED", STOCK_ALERT_TEXT.tokenExpired);
/** A signed unsubscribe link whose subscription is gone: never confirmed in time (the sweep), or its tool deleted. */
const alertGone = () => new ApiError(400, "ALERT_GONE", STOCK_ALERT_TEXT.alertGone);

function linkOf(row: Pick<AlertRow, "toolId" | "status">, tool: { name: string; orderable: boolean }): StockAlertLink {
  const status = row.status === "sent" ? "sent" : row.status === "ended" ? "ended" : "subscribed";
  return { toolId: row.toolId, toolName: tool.name, status, inStock: tool.orderable };
}

/** The subscription and its tool (archived ones too: the link still says what it was), locked for a change. */
async function alertWithTool(tx: Tx, id: string) {
  const [found] = await tx
    .select({ row: stockAlerts, name: tools.name, orderable })
    .from(stockAlerts)
    .innerJoin(tools, eq(tools.id, stockAlerts.toolId))
    .where(eq(stockAlerts.id, id))
    .for("update", { of: stockAlerts });
  return found;
}

/**
 * The confirmation link: a pending subscription becomes waiting (or due, when the tool is back
 * already: the alert is mailed at once). 400 INVALID_TOKEN for a token this store did not sign
 * or a subscription that is gone, 400 TOKEN_EXPIRED for a link past its day whose subscription
 * is pending or gone (the sweep deletes pending ones whose last link expired).
 */
export async function confirmAlert(db: Db, settings: AlertSettings, token: string): Promise<StockAlertLink> {
  const read = readConfirmToken(settings.secret, token);
  if (!read) throw invalidToken();
  return db.transaction(async (tx) => {
    // The tool's row first, FOR SHARE (as a subscription and a restock take it: no deadlock): a
    // restock committing now runs its trigger after this transaction, or this one sees its stock.
    const [target] = await tx.select({ toolId: stockAlerts.toolId }).from(stockAlerts).where(eq(stockAlerts.id, read.id));
    if (!target) throw read.expiresAt.getTime() < Date.now() ? expiredToken() : invalidToken();
    const [tool] = await tx.select({ orderable }).from(tools).where(eq(tools.id, target.toolId)).for("share");
    const found = await alertWithTool(tx, read.id);
    if (!found || !tool) throw invalidToken();
    const { row } = found;
    if (row.status !== "pending") return linkOf(row, found);
    if (read.expiresAt.getTime() < Date.now()) throw expiredToken();
    const status = tool.orderable ? "due" : "waiting";
    await tx.update(stockAlerts).set({ status, confirmedAt: new Date(), confirmExpiresAt: null }).where(eq(stockAlerts.id, row.id));
    return linkOf({ ...row, status }, found);
  });
}

/** What an unsubscribe link would end (its page asks before it does: a GET changes nothing). */
export async function unsubscribePreview(db: Db, settings: AlertSettings, token: string): Promise<StockAlertLink> {
  const id = readUnsubscribeToken(settings.secret, token);
  if (!id) throw invalidToken();
  const [found] = await db
    .select({ row: stockAlerts, name: tools.name, orderable })
    .from(stockAlerts)
    .innerJoin(tools, eq(tools.id, stockAlerts.toolId))
    .where(eq(stockAlerts.id, id));
  if (!found) throw alertGone();
  return linkOf(found.row, found);
}

/** The unsubscribe link's POST: an open subscription ends; a sent or ended one stays as it is. */
export async function unsubscribe(db: Db, settings: AlertSettings, token: string): Promise<StockAlertLink> {
  const id = readUnsubscribeToken(settings.secret, token);
  if (!id) throw invalidToken();
  return db.transaction(async (tx) => {
    const found = await alertWithTool(tx, id);
    if (!found) throw alertGone();
    if (!(OPEN as readonly string[]).includes(found.row.status)) return linkOf(found.row, found);
    await tx.update(stockAlerts).set({ status: "ended", endedAt: new Date() }).where(eq(stockAlerts.id, id));
    return linkOf({ ...found.row, status: "ended" }, found);
  });
}

const BATCH = 100;
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The mail worker's part (each round, on every instance): due subscriptions of tools that can be
 * ordered become `sent` and their alert is written to the outbox in the same transaction; those
 * whose tool sold out again before this round go back to `waiting`. The rows are claimed FOR
 * UPDATE SKIP LOCKED, and the update re-checks `status = 'due'`: two instances never mail one.
 */
export async function flushDueAlerts(db: Db, settings: AlertSettings): Promise<number> {
  const [any] = await db.select({ id: stockAlerts.id }).from(stockAlerts).where(eq(stockAlerts.status, "due")).limit(1);
  if (!any) return 0;
  return db.transaction(async (tx) => {
    const claimed = rowsOf<{ id: string; email: string; tool_id: string; name: string; status: string }>(
      await tx.execute(sql`
        with picked as (
          select id from ${stockAlerts} where status = 'due' order by id limit ${BATCH} for update skip locked
        )
        update ${stockAlerts} a
           set status = case when t.active and t.available_quantity >= greatest(1, t.minimum_quantity) then 'sent'::stock_alert_status else 'waiting'::stock_alert_status end,
               sent_at = case when t.active and t.available_quantity >= greatest(1, t.minimum_quantity) then now() end
          from picked p, ${tools} t
         where a.id = p.id and t.id = a.tool_id and a.status = 'due'
        returning a.id, a.email, a.tool_id, t.name, a.status`),
    );
    const { mail } = STOCK_ALERT_TEXT;
    const messages: Outgoing[] = claimed
      .filter((c) => c.status === "sent")
      .map((c) => ({
        to: c.email,
        ...render("stock-alert-back", mail.backSubject(c.name), [
          { p: mail.backIntro(c.name) },
          { link: toolLink(settings, c.tool_id), label: mail.backAction },
          { p: mail.backUnsubscribe },
          { link: unsubscribeLink(settings, { id: c.id, toolId: c.tool_id }), label: mail.unsubscribeAction },
        ]),
      }));
    await enqueueMail(tx, messages);
    return messages.length;
  });
}

/**
 * The mail worker's round too: unconfirmed subscriptions whose last link has expired are deleted,
 * in one DELETE (instances racing on a row: one deletes it, the other finds it gone; a request
 * that mails a new link meanwhile holds the row, and the DELETE re-checks the expiry after it).
 */
export async function deleteExpiredPending(db: Db): Promise<number> {
  const deleted = await db
    .delete(stockAlerts)
    .where(and(eq(stockAlerts.status, "pending"), sql`${stockAlerts.confirmExpiresAt} < now()`))
    .returning({ id: stockAlerts.id });
  return deleted.length;
}

/** What the mail worker's round writes or clears first (handed to it in routes.ts): expired unconfirmed rows go, due alerts are written. */
export async function alertRound(db: Db, settings: AlertSettings): Promise<number> {
  await deleteExpiredPending(db);
  return flushDueAlerts(db, settings);
}

/** How many wait for each of these tools (confirmed, not mailed yet): the console's column. */
export async function waitingCounts(db: Db, toolIds: string[]): Promise<Map<string, number>> {
  if (toolIds.length === 0) return new Map();
  const rows = await db
    .select({ toolId: stockAlerts.toolId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(stockAlerts)
    .where(and(inArray(stockAlerts.toolId, toolIds), inArray(stockAlerts.status, ["waiting", "due"])))
    .groupBy(stockAlerts.toolId);
  return new Map(rows.map((r) => [r.toolId, r.n]));
}
