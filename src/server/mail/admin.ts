/** The outbox as the admin console lists it: newest first, by status. */
import { desc, eq, sql } from "drizzle-orm";
import type { MailEntry } from "../../contract/admin-schemas";
import type { Db } from "../db/client";
import { cappedCount, type Page } from "../db/paging";
import { mailOutbox } from "../db/schema";

export async function listMail(db: Db, query: { status?: MailEntry["status"] | undefined; page: number; limit: number }): Promise<Page<MailEntry>> {
  const where = query.status ? eq(mailOutbox.status, query.status) : undefined;
  const select = db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.to,
      subject: mailOutbox.subject,
      kind: mailOutbox.kind,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      lastError: mailOutbox.lastError,
      createdAt: mailOutbox.createdAt,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(where)
    .orderBy(desc(mailOutbox.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const [rows, total] = await Promise.all([select, cappedCount(db, db.select({ one: sql`1` }).from(mailOutbox).where(where).$dynamic())]);
  const iso = (d: Date | null) => (d && Number.isFinite(d.getTime()) ? d.toISOString() : null);
  return {
    items: rows.map((r) => ({
      _id: String(r.id),
      to: r.to,
      subject: r.subject,
      kind: r.kind,
      status: r.status,
      attempts: r.attempts,
      // 'infinity' (kept without SMTP_URL) has no next attempt.
      nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
      lastError: r.lastError,
      createdAt: r.createdAt.toISOString(),
      sentAt: iso(r.sentAt),
    })),
    ...total,
  };
}
