/**
 * What a terms invoice still owes (DESIGN "Trade accounts", issue 40): its total less what was
 * paid against it and what its refunds gave back (those that succeeded: a terms refund is
 * recorded as given back at once), never below 0; nothing once the order is cancelled (its
 * credit note takes it all back). The one definition: the credit in use, the overdue hold, the
 * open invoices, the statement's ageing, the reminders, the members' card payments and an
 * order's `balanceDue` all read it, in SQL or here. An invoice is an order's document, so this
 * lives in the orders module; accounts/ reads it through the module's index.
 */
import { sql, type SQL } from "drizzle-orm";

/** What an order's refunds gave back (SQL): those that succeeded. `o` names the order's row (an alias, or "orders" in a query builder's select). */
export const refundedCentsSql = (o: SQL = sql.raw("o")): SQL =>
  sql`coalesce((select sum(r.amount_cents) from refunds r where r.order_id = ${o}.id and r.status = 'succeeded'), 0)`;

/** What the invoice of order `o` (not cancelled) still owes, in SQL: total − paid − succeeded refunds, never below 0. */
export const openCentsSql = (o: SQL = sql.raw("o")): SQL => sql`greatest(${o}.total_cents - ${o}.paid_cents - ${refundedCentsSql(o)}, 0)`;

/** The same in TypeScript, for rows already read. */
export const openCents = (totalCents: number, paidCents: number, refundedCents: number): number => Math.max(0, totalCents - paidCents - refundedCents);
