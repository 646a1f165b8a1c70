/**
 * Trade accounts (DESIGN "Trade accounts", issue 43): the owner's accounts and members, a
 * customer's application, a member's view of their account, and the account's admin managing
 * members. Credit used and "on hold" are computed from the account's terms orders (orders/trade-policy.ts holds
 * the SQL the placement uses too), never stored, so they cannot drift from the orders.
 */
import { and, asc, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import { centsToDollars, dollarsToCents } from "../../contract/money";
import { storeDate } from "../../contract/store-calendar";
import { TRADE_TEXT } from "../../contract/texts/trade";
import type { AccountInput, AccountPatch, AccountRole, ApplicationInput, MemberInput, MyAccount, TradeAccount, AccountApplication } from "../../contract/trade";
import type { Db, Tx } from "../db/client";
import { readAll } from "../db/reads";
import { accountApplications, accountMembers, tradeAccounts, user } from "../db/schema";
import { ApiError, conflict, notFound } from "../http/errors";
import { creditUsedSql, overdueSql } from "../orders";

type AccountRow = typeof tradeAccounts.$inferSelect;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Percent with two decimals as basis points, without rounding a float times 100 (decision 0003). */
const basisPoints = (percent: number): number => dollarsToCents(percent);

/** Each account's credit in use and whether it is on hold, at `now` (one statement). */
async function standing(db: Db | Tx, ids: string[], now: Date): Promise<Map<string, { usedCents: number; onHold: boolean }>> {
  if (ids.length === 0) return new Map();
  const result = await db.execute(sql`
    select a.id, ${creditUsedSql}::text as used, ${overdueSql(storeDate(now))} as on_hold
      from trade_accounts a where a.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`);
  return new Map(rowsOf<{ id: string; used: string; on_hold: boolean }>(result).map((r) => [r.id, { usedCents: Number(r.used), onHold: r.on_hold }]));
}

/** The accounts as the API shows them, with their members. */
async function accountViews(db: Db | Tx, rows: AccountRow[], now: Date): Promise<TradeAccount[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [members, standings] = await readAll(db, [
    () =>
      db
        .select({ m: accountMembers, email: user.email, name: user.name })
        .from(accountMembers)
        .innerJoin(user, eq(user.id, accountMembers.userId))
        .where(inArray(accountMembers.accountId, ids))
        .orderBy(asc(accountMembers.createdAt), asc(accountMembers.userId)),
    () => standing(db, ids, now),
  ] as const);
  return rows.map((row) => {
    const s = standings.get(row.id) ?? { usedCents: 0, onHold: false };
    return {
      _id: row.id,
      name: row.name,
      taxId: row.taxId,
      terms: row.terms,
      creditLimit: centsToDollars(row.creditLimitCents),
      creditUsed: centsToDollars(s.usedCents),
      creditAvailable: centsToDollars(Math.max(0, row.creditLimitCents - s.usedCents)),
      onHold: s.onHold,
      discountPercent: row.discountBasisPoints / 100,
      poRequired: row.poRequired,
      members: members
        .filter(({ m }) => m.accountId === row.id)
        .map(({ m, email, name }) => ({
          userId: m.userId,
          email,
          name,
          role: m.role,
          orderLimit: m.orderLimitCents === null ? null : centsToDollars(m.orderLimitCents),
          monthlyLimit: m.monthlyLimitCents === null ? null : centsToDollars(m.monthlyLimitCents),
        })),
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function getAccount(db: Db | Tx, id: string, now: Date): Promise<TradeAccount> {
  const [row] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, id));
  if (!row) throw notFound(TRADE_TEXT.accountNotFound);
  return (await accountViews(db, [row], now))[0] as TradeAccount;
}

export async function listAccounts(db: Db, query: { q: string; page: number; limit: number }, now: Date): Promise<{ items: TradeAccount[]; total: number }> {
  const where = query.q ? ilike(tradeAccounts.name, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(tradeAccounts)
      .where(where)
      .orderBy(asc(tradeAccounts.name), asc(tradeAccounts.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(tradeAccounts).where(where),
  ]);
  return { items: await accountViews(db, rows, now), total: counted?.n ?? 0 };
}

export async function createAccount(db: Db, input: AccountInput & { terms: AccountRow["terms"] }, now: Date): Promise<TradeAccount> {
  const [row] = await db
    .insert(tradeAccounts)
    .values({
      name: input.name,
      taxId: input.taxId ?? "",
      terms: input.terms,
      creditLimitCents: dollarsToCents(input.creditLimit ?? 0),
      discountBasisPoints: basisPoints(input.discountPercent ?? 0),
      poRequired: input.poRequired ?? false,
    })
    .returning();
  return (await accountViews(db, [row as AccountRow], now))[0] as TradeAccount;
}

export async function patchAccount(db: Db, id: string, patch: AccountPatch, now: Date): Promise<{ before: TradeAccount; after: TradeAccount }> {
  const before = await getAccount(db, id, now);
  const [row] = await db
    .update(tradeAccounts)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.taxId !== undefined ? { taxId: patch.taxId } : {}),
      ...(patch.terms !== undefined ? { terms: patch.terms } : {}),
      ...(patch.creditLimit !== undefined ? { creditLimitCents: dollarsToCents(patch.creditLimit) } : {}),
      ...(patch.discountPercent !== undefined ? { discountBasisPoints: basisPoints(patch.discountPercent) } : {}),
      ...(patch.poRequired !== undefined ? { poRequired: patch.poRequired } : {}),
      updatedAt: new Date(),
    })
    .where(eq(tradeAccounts.id, id))
    .returning();
  if (!row) throw notFound(TRADE_TEXT.accountNotFound);
  return { before, after: (await accountViews(db, [row], now))[0] as TradeAccount };
}

/** Whom an account admin's add tells, in its transaction (accounts/mail.ts): the customer added, and the account they now order for. */
export type TellAddedMember = (tx: Tx, added: { userId: string; accountName: string; role: AccountRole }) => Promise<void>;

/**
 * A customer joins an account (by their e-mail): 404 for an e-mail no customer has, 409
 * ALREADY_A_MEMBER for one who belongs to an account (this one or another: the key is the
 * customer, so two racing adds cannot both succeed). Nobody asked them: they are told (`tell`, in
 * the same transaction) and may leave (`leaveAccount`), issue 49.
 */
export async function addMember(db: Db, accountId: string, input: MemberInput, now: Date, tell?: TellAddedMember): Promise<TradeAccount> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ id: tradeAccounts.id, name: tradeAccounts.name }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
    if (!account) throw notFound(TRADE_TEXT.accountNotFound);
    const [customer] = await tx.select({ id: user.id }).from(user).where(eq(user.email, input.email.toLowerCase()));
    if (!customer) throw notFound(TRADE_TEXT.customerNotFound);
    const inserted = await tx
      .insert(accountMembers)
      .values({
        userId: customer.id,
        accountId,
        role: input.role,
        orderLimitCents: input.orderLimit === undefined || input.orderLimit === null ? null : dollarsToCents(input.orderLimit),
        monthlyLimitCents: input.monthlyLimit === undefined || input.monthlyLimit === null ? null : dollarsToCents(input.monthlyLimit),
      })
      .onConflictDoNothing()
      .returning({ userId: accountMembers.userId });
    if (inserted.length === 0) throw conflict("ALREADY_A_MEMBER", TRADE_TEXT.alreadyAMember);
    await tell?.(tx, { userId: customer.id, accountName: account.name, role: input.role });
    return getAccount(tx, accountId, now);
  });
}

/**
 * A member leaves the account (404 for someone who is not in it). `keepAnAdmin`: the account's
 * own admin removing someone (or themselves) may not leave it without an admin (409 LAST_ADMIN).
 */
export async function removeMember(db: Db, accountId: string, userId: string, now: Date, keepAnAdmin: boolean): Promise<TradeAccount> {
  return db.transaction(async (tx) => {
    const [account] = await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
    if (!account) throw notFound(TRADE_TEXT.accountNotFound);
    const [removed] = await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
      .returning();
    if (!removed) throw notFound(TRADE_TEXT.memberNotFound);
    if (keepAnAdmin && removed.role === "admin") {
      const [left] = await tx.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(accountMembers).where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.role, "admin")));
      if ((left?.n ?? 0) === 0) throw conflict("LAST_ADMIN", TRADE_TEXT.lastAdmin);
    }
    return getAccount(tx, accountId, now);
  });
}

/**
 * POST /api/account/leave: the caller leaves their account themselves (an add needs no consent, so
 * a member must be able to undo it); 404 outside any account; its last admin may not (409
 * LAST_ADMIN, nothing changed): the account keeps someone who can manage it.
 */
export async function leaveAccount(db: Db, userId: string, now: Date): Promise<void> {
  const { accountId } = await membershipOf(db, userId);
  await removeMember(db, accountId, userId, now, true);
}

/** The caller's membership, or 404 when they belong to no account. */
export async function membershipOf(db: Db | Tx, userId: string): Promise<{ accountId: string; role: AccountRole }> {
  const [m] = await db.select({ accountId: accountMembers.accountId, role: accountMembers.role }).from(accountMembers).where(eq(accountMembers.userId, userId));
  if (!m) throw notFound(TRADE_TEXT.noAccount);
  return m;
}

export async function myAccount(db: Db, userId: string, now: Date): Promise<MyAccount> {
  const m = await membershipOf(db, userId);
  return { ...(await getAccount(db, m.accountId, now)), role: m.role };
}

/** The account's admin only (403 for its other members, 404 for a customer outside any account). */
export async function requireAccountAdmin(db: Db, userId: string): Promise<string> {
  const m = await membershipOf(db, userId);
  if (m.role !== "admin") throw new ApiError(403, "FORBIDDEN", TRADE_TEXT.notAccountAdmin);
  return m.accountId;
}

const applicationView = (row: typeof accountApplications.$inferSelect, email: string): AccountApplication => ({
  _id: row.id,
  userId: row.userId,
  email,
  name: row.name,
  taxId: row.taxId,
  message: row.message,
  createdAt: row.createdAt.toISOString(),
});

/** A customer asks for a trade account; the owner sees it in the console (and is mailed, with the caller's `inTransaction`). */
export async function applyForAccount(
  db: Db,
  viewer: { id: string; email: string },
  input: ApplicationInput & { taxId: string; message: string },
  inTransaction?: (tx: Tx, application: AccountApplication) => Promise<void>,
): Promise<AccountApplication> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(accountApplications).values({ userId: viewer.id, name: input.name, taxId: input.taxId, message: input.message }).returning();
    const application = applicationView(row as typeof accountApplications.$inferSelect, viewer.email);
    await inTransaction?.(tx, application);
    return application;
  });
}

export async function listApplications(db: Db, query: { page: number; limit: number }): Promise<{ items: AccountApplication[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select({ a: accountApplications, email: user.email })
      .from(accountApplications)
      .leftJoin(user, eq(user.id, accountApplications.userId))
      .orderBy(desc(accountApplications.createdAt), desc(accountApplications.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(accountApplications),
  ]);
  return { items: rows.map((r) => applicationView(r.a, r.email ?? "")), total: counted?.n ?? 0 };
}
