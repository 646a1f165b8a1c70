/**
 * The audit trail (below the modules: any module records its actions here, issue 49): every admin action writes one entry in the same transaction as the change
 * it describes, so an action without its entry (or an entry without its action) cannot happen.
 */
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import type { AuditEntry } from "../../contract/admin-schemas";
import type { Db, Tx } from "../db/client";
import { cappedCount, type Page } from "../db/paging";
import { auditLog } from "../db/schema";

export interface AuditActor {
  id: string;
  email: string;
}

/** Who acts in a console request: the signed-in admin (the one definition every console route module uses). */
export const actorOf = (request: { viewer: { id: string; email: string } }): AuditActor => ({ id: request.viewer.id, email: request.viewer.email });

export interface AuditRecord {
  action: string;
  entity: "tool" | "order" | "review" | "user" | "stock" | "tax-rate" | "promotion" | "shipping-method" | "settings" | "quote" | "account" | "return" | "job" | "brand" | "category" | "spec" | "product" | "catalogue-import";
  entityId: string;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(tx: Db | Tx, actor: AuditActor, record: AuditRecord): Promise<void> {
  await tx.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: record.action,
    entity: record.entity,
    entityId: record.entityId,
    before: record.before ?? null,
    after: record.after ?? null,
  });
}

export async function listAudit(
  db: Db,
  query: { entity?: string | undefined; entityId?: string | undefined; page: number; limit: number },
): Promise<Page<AuditEntry>> {
  const filters: SQL[] = [];
  if (query.entity) filters.push(eq(auditLog.entity, query.entity));
  if (query.entityId) filters.push(eq(auditLog.entityId, query.entityId));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(auditLog).where(where).$dynamic()),
  ]);
  return {
    ...total,
    items: rows.map((row) => ({
      _id: String(row.id),
      actorId: row.actorId,
      actorEmail: row.actorEmail,
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      before: row.before,
      after: row.after,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}
