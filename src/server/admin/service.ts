/**
 * What the console reads and changes beyond the catalogue and the orders (orders/admin-view.ts):
 * the accounts and their roles, and the owner's summary figures.
 */
import { and, desc, eq, ilike, ne, or, sql } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import { ORDER_STATUSES } from "../../contract/order-lifecycle";
import type { AdminSummary, AdminUser } from "../../contract/admin-schemas";
import { ADMIN_API_TEXT } from "../../contract/texts/admin";
import { ADMIN_ROLE, CUSTOMER_ROLE, roleOf, type Role } from "../auth/roles";
import type { Db } from "../db/client";
import { escapeLike } from "../db/like";
import { cappedCount, type Page } from "../db/paging";
import { orderLines, orders, profiles, tools, user } from "../db/schema";
import { conflict, notFound } from "../http/errors";
import { recordAudit, type AuditActor } from "../audit";


// ------------------------------------------------------------------ users

type UserRow = typeof user.$inferSelect;
const toAdminUser = (row: UserRow, taxExemptCertificate: string | null): AdminUser => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  role: roleOf(row) === ADMIN_ROLE ? "admin" : "user",
  createdAt: row.createdAt.toISOString(),
  taxExemptCertificate,
});
/** The tax-exempt certificate lives on the profile, which an account may not have yet. */
const certificateColumn = sql<string | null>`${profiles.taxExemptCertificate}`;

export async function adminUserById(db: Db, id: string): Promise<AdminUser | undefined> {
  const [row] = await db.select({ row: user, certificate: certificateColumn }).from(user).leftJoin(profiles, eq(profiles.userId, user.id)).where(eq(user.id, id));
  return row ? toAdminUser(row.row, row.certificate) : undefined;
}

export async function listUsers(db: Db, query: { q?: string | undefined; page: number; limit: number }): Promise<Page<AdminUser>> {
  const where = query.q ? or(ilike(user.email, `%${escapeLike(query.q)}%`), ilike(user.name, `%${escapeLike(query.q)}%`)) : undefined;
  const [rows, total] = await Promise.all([
    db
      .select({ row: user, certificate: certificateColumn })
      .from(user)
      .leftJoin(profiles, eq(profiles.userId, user.id))
      .where(where)
      .orderBy(desc(user.createdAt), desc(user.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    cappedCount(db, db.select({ one: sql`1` }).from(user).where(where).$dynamic()),
  ]);
  return { items: rows.map((r) => toAdminUser(r.row, r.certificate)), ...total };
}

/**
 * Grants or removes the admin role. The admins' rows are locked first, so two admins removing
 * each other at once cannot leave the store with none: the second sees the first's change and
 * is refused (409).
 */
export async function setUserRole(db: Db, id: string, role: Role, actor: AuditActor): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const admins = await tx.select({ id: user.id }).from(user).where(eq(user.role, ADMIN_ROLE)).orderBy(user.id).for("update");
    const [before] = await tx.select().from(user).where(eq(user.id, id)).for("update");
    if (!before) throw notFound(ADMIN_API_TEXT.userNotFound);
    const [profile] = await tx.select({ certificate: profiles.taxExemptCertificate }).from(profiles).where(eq(profiles.userId, id));
    const certificate = profile?.certificate ?? null;
    if (roleOf(before) === role) return toAdminUser(before, certificate);
    if (role === CUSTOMER_ROLE && admins.filter((a) => a.id !== id).length === 0) throw conflict("LAST_ADMIN", ADMIN_API_TEXT.lastAdmin);
    const [after] = await tx.update(user).set({ role }).where(eq(user.id, id)).returning();
    if (!after) throw new Error("user row vanished under its lock");
    await recordAudit(tx, actor, {
      action: role === ADMIN_ROLE ? "user.grant-admin" : "user.remove-admin",
      entity: "user",
      entityId: id,
      before: toAdminUser(before, certificate),
      after: toAdminUser(after, certificate),
    });
    return toAdminUser(after, certificate);
  });
}

// ------------------------------------------------------------------ summary

const SALES_DAYS = 30;
const TOP_TOOLS = 5;
const LOW_STOCK_LIST = 20;

/** The figures an owner looks at first. Sales count every order that was not cancelled, by UTC day. */
export async function summary(db: Db, now = new Date()): Promise<AdminSummary> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (SALES_DAYS - 1) * 86_400_000);
  const day = sql<string>`to_char(${orders.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [sales, byStatus, top, low] = await Promise.all([
    db
      .select({ day, cents: sql<number>`sum(${orders.totalCents})`.mapWith(Number), count: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(and(ne(orders.status, "cancelled"), sql`${orders.createdAt} >= ${since.toISOString()}::timestamptz`))
      .groupBy(day),
    db
      .select({ status: orders.status, count: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .groupBy(orders.status),
    db
      .select({
        toolId: orderLines.toolId,
        name: tools.name,
        quantity: sql<number>`sum(${orderLines.quantity})`.mapWith(Number),
        cents: sql<number>`sum(${orderLines.lineTotalCents})`.mapWith(Number),
      })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .innerJoin(tools, eq(tools.id, orderLines.toolId))
      .where(ne(orders.status, "cancelled"))
      .groupBy(orderLines.toolId, tools.name)
      .orderBy(sql`sum(${orderLines.quantity}) desc`, orderLines.toolId)
      .limit(TOP_TOOLS),
    db
      .select({
        toolId: tools.id,
        name: tools.name,
        availableQuantity: tools.availableQuantity,
        threshold: sql<number>`coalesce(${tools.lowStockThreshold}, 2 * ${tools.minimumQuantity})`.mapWith(Number),
      })
      .from(tools)
      .where(and(eq(tools.active, true), sql`${tools.availableQuantity} < coalesce(${tools.lowStockThreshold}, 2 * ${tools.minimumQuantity})`))
      .orderBy(tools.availableQuantity, tools.id)
      .limit(LOW_STOCK_LIST),
  ]);
  const salesOf = new Map(sales.map((s) => [s.day, s]));
  const salesPerDay = Array.from({ length: SALES_DAYS }, (_, i) => {
    const d = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    const s = salesOf.get(d);
    return { day: d, total: centsToDollars(s?.cents ?? 0), orders: s?.count ?? 0 };
  });
  const countOf = new Map(byStatus.map((s) => [s.status, s.count]));
  return {
    salesPerDay,
    ordersByStatus: ORDER_STATUSES.map((status) => ({ status, count: countOf.get(status) ?? 0 })),
    topTools: top.map((t) => ({ toolId: t.toolId, name: t.name, quantity: t.quantity, total: centsToDollars(t.cents) })),
    lowStock: low,
  };
}

