/**
 * Reminders of unpaid terms invoices (DESIGN "Trade accounts"; what is owed: orders/balance.ts, so an
 * invoice refunded whole is reminded of no more): at the due date, 7 and 30 days
 * after, to the buyer and the account's admins, through the mail outbox. Every instance runs the
 * sweep; each reminder is claimed by its row in `invoice_reminders` (the invoice and the step, the
 * key) in the statement that writes its mail, so it goes out once across instances however many
 * sweeps race. A sweep that was not running for a while sends only the latest step due.
 */
import { sql } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import { addDays, storeDate } from "../../contract/store-calendar";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { REMINDER_DAYS } from "../../contract/trade";
import type { Db } from "../db/client";
import { mailOutbox } from "../db/schema";
import { render, storeLink } from "../mail/templates";
import { openCentsSql } from "../orders";

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Sends the reminders due at `now`; answers how many invoices were reminded. */
export async function sendDueReminders(db: Db, now: Date, publicUrl: string): Promise<number> {
  const today = storeDate(now);
  const due = rowsOf<{ id: string; invoice_number: string; due_date: string; open_cents: string; account_id: string; user_id: string | null; sent: number[] }>(
    await db.execute(sql`
      select * from (
        select o.id, o.invoice_number, o.due_date, ${openCentsSql()}::text as open_cents, o.account_id, o.user_id,
               coalesce((select array_agg(r.days) from invoice_reminders r where r.order_id = o.id), '{}') as sent
          from orders o
         where o.payment_method = 'terms' and o.status <> 'cancelled' and o.invoice_number is not null and o.due_date is not null
           and o.due_date <= ${today} and o.total_cents > o.paid_cents) owed
       where owed.open_cents::bigint > 0`),
  );
  const messages = due.flatMap((o) => {
    // The latest step whose day has come, unless it was sent.
    const step = [...REMINDER_DAYS].reverse().find((d) => addDays(o.due_date, d) <= today);
    if (step === undefined || o.sent.map(Number).includes(step)) return [];
    const m = render("invoice-reminder", TRADE_TEXT.reminderSubject(o.invoice_number, step), [
      { p: TRADE_TEXT.reminderText(o.invoice_number, o.due_date, centsToDollars(Number(o.open_cents))) },
      { link: storeLink(publicUrl, "/dashboard/account/statement"), label: TRADE_TEXT.statementTitle },
    ]);
    return [{ order_id: o.id, days: step, account_id: o.account_id, user_id: o.user_id, subject: m.subject, text: m.text, html: m.html, kind: m.kind }];
  });
  if (messages.length === 0) return 0;
  const result = await db.execute(sql`
    with m as (
      select * from jsonb_to_recordset(${JSON.stringify(messages)}::jsonb)
        as m(order_id text, days integer, account_id text, user_id text, subject text, text text, html text, kind text)
    ), claimed as (
      insert into invoice_reminders (order_id, days) select order_id, days from m on conflict do nothing returning order_id, days
    ), mailed as (
      insert into ${mailOutbox} ("to", subject, text, html, kind)
      select distinct lower(u.email), m.subject, m.text, m.html, m.kind
        from claimed c join m on m.order_id = c.order_id and m.days = c.days
        join "user" u on u.id = m.user_id or u.id in (select am.user_id from account_members am where am.account_id = m.account_id and am.role = 'admin')
      returning 1
    )
    select count(*)::int as n from claimed`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}
