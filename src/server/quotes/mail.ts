/**
 * The mail about quotes (DESIGN "Quotes": both sides are mailed), written to the outbox in the
 * transaction of what caused it (mail/outbox.ts): the owners hear of a request and a decline (an
 * acceptance is told with its order's announcement, mail/outbox.ts: a card order's when it is
 * paid); the customer of each revision (its PDF attached, rendered when the mail is sent) and of
 * a withdrawal. Every word is in contract/texts/quotes.ts; the owners are the admin role and
 * ADMIN_EMAILS, as for a new order.
 */
import { sql, type SQL } from "drizzle-orm";
import { centsToDollars, formatDollars } from "../../contract/money";
import { QUOTE_MAIL_TEXT } from "../../contract/texts/quotes";
import type { Tx } from "../db/client";
import { mailOutbox } from "../db/schema";
import { render, storeLink, type Rendered } from "../mail/templates";

const money = (cents: number) => formatDollars(centsToDollars(cents));
const day = (d: Date) => d.toISOString().slice(0, 10);

export interface QuoteMail {
  /** The owners: a customer asked for a quote. */
  requested(tx: Tx, quote: { id: string; number: string }, customer: string): Promise<void>;
  /** The customer: a revision was sent (the PDF goes with it). */
  revisionSent(tx: Tx, quote: { id: string; number: string; userId: string }, revision: { revision: number; totalCents: number; validUntil: Date; message: string }): Promise<void>;
  /** The owners: the customer declined. */
  declined(tx: Tx, quote: { id: string; number: string }): Promise<void>;
  /** The customer: the owner withdrew the quote. */
  withdrawn(tx: Tx, quote: { id: string; number: string; userId: string }): Promise<void>;
}

export function quoteMail(publicUrl: string, adminEmails: string[]): QuoteMail {
  const admins = sql`(select lower(email) as email from "user" where role = 'admin'
                      union select unnest(${`{${adminEmails.map((e) => `"${e.replace(/["\\]/g, "")}"`).join(",")}}`}::text[]))`;
  const toAdmins = (m: Rendered): SQL => sql`
    insert into ${mailOutbox} ("to", subject, text, html, kind)
    select a.email, ${m.subject}, ${m.text}, ${m.html}, ${m.kind} from ${admins} a`;
  const toCustomer = (userId: string, m: Rendered, attachments: unknown = null): SQL => sql`
    insert into ${mailOutbox} ("to", subject, text, html, kind, attachments)
    select lower(email), ${m.subject}, ${m.text}, ${m.html}, ${m.kind}, ${attachments === null ? null : JSON.stringify(attachments)}::jsonb from "user" where id = ${userId}`;
  const consoleLink = (id: string) => storeLink(publicUrl, `/admin/quotes/${id}`);
  const customerLink = (id: string) => storeLink(publicUrl, `/dashboard/quotes/${id}`);

  return {
    async requested(tx, quote, customer) {
      const t = QUOTE_MAIL_TEXT.requested;
      await tx.execute(toAdmins(render("quote-requested", t.subject(quote.number), [{ p: t.intro(quote.number, customer) }, { link: consoleLink(quote.id), label: t.view }])));
    },
    async revisionSent(tx, quote, revision) {
      const t = QUOTE_MAIL_TEXT.revision;
      const m = render("quote-revision", t.subject(quote.number, revision.revision), [
        { p: t.intro(quote.number) },
        { rows: [[`${revision.revision}`, money(revision.totalCents)]] },
        { p: t.validUntil(day(revision.validUntil)) },
        ...(revision.message ? [{ p: revision.message }] : []),
        { p: t.pdf },
        { link: customerLink(quote.id), label: t.view },
      ]);
      await tx.execute(toCustomer(quote.userId, m, [{ kind: "quote", quoteId: quote.id, revision: revision.revision }]));
    },
    async declined(tx, quote) {
      const t = QUOTE_MAIL_TEXT.declined;
      await tx.execute(toAdmins(render("quote-declined", t.subject(quote.number), [{ p: t.intro(quote.number) }, { link: consoleLink(quote.id), label: t.view }])));
    },
    async withdrawn(tx, quote) {
      const t = QUOTE_MAIL_TEXT.withdrawn;
      await tx.execute(toCustomer(quote.userId, render("quote-withdrawn", t.subject(quote.number), [{ p: t.intro(quote.number) }, { link: customerLink(quote.id), label: t.view }])));
    },
  };
}
