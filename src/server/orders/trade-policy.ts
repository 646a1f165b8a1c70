/**
 * A trade account's order policy (DESIGN "Trade accounts", issue 43), asked by the one placement
 * (placement.ts) about every request on every path: the cart's checkout, the purchase page
 * and a quote's acceptance, so a request that skips the UI gets the same answer. It is a rule of
 * placing orders, so it lives in the orders module; accounts/ reads its credit and hold sums
 * through the module's index (accounts/ asks orders/, never the other way round).
 *
 * - `terms` only for a member of an account with terms (400 on body.paymentMethod);
 * - a PO number where the account requires one (400 on body.poNumber);
 * - an account with an overdue invoice takes no order on terms (409 ACCOUNT_ON_HOLD);
 * - credit: a terms order must fit `creditLimit − balances of invoiced terms orders − totals of open
 *   terms orders` (a balance less what refunds gave back: balance.ts; 409 CREDIT_LIMIT with `available`), read with the account's row locked in the
 *   order's transaction, after the tools (the one lock order), so racing orders on one instance or
 *   several reserve credit one at a time;
 * - an order over the member's `orderLimit`, or whose month (orders placed this calendar month in
 *   the store's calendar, not cancelled, plus this one) passes `monthlyLimit`, is placed
 *   `awaiting_approval`: its stock held, no invoice number yet.
 *
 * A batch without a member costs nothing more: the members come with the prices (pricing_context,
 * migration 0017); only a batch with one locks and reads its accounts (two statements).
 */
import { sql } from "drizzle-orm";
import { centsToDollars } from "../../contract/money";
import { addDays, STORE_TIME_ZONE, storeDate } from "../../contract/store-calendar";
import { TRADE_TEXT } from "../../contract/texts/trade";
import { TERMS_DAYS } from "../../contract/trade";
import type { Tx } from "../db/client";
import { ApiError, conflict } from "../http/errors";
import type { MemberTerms, PricingContext } from "../pricing/context";
import { openCentsSql } from "./balance";

/** What the policy needs of a request. */
export interface PolicyRequest {
  userId: string;
  paymentMethod: string;
  poNumber: string | null;
}

/** What the policy decided for an admitted request. */
export interface TradeDecision {
  accountId: string | null;
  awaitingApproval: boolean;
}

interface AccountState {
  creditLimitCents: number;
  usedCents: number;
  onHold: boolean;
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const badField = (field: string, message: string) => new ApiError(400, "VALIDATION", message, { details: [{ path: `body.${field}`, message }] });

/** An account with an invoice still owed past its due date (SQL, `a` the account's row; what is owed: balance.ts). */
export const overdueSql = (today: string) =>
  sql`exists (select 1 from orders o where o.account_id = a.id and o.payment_method = 'terms' and o.status <> 'cancelled'
     and o.invoice_number is not null and o.due_date < ${today} and ${openCentsSql()} > 0)`;

/** Credit in use (SQL, `a` the account's row): what its terms orders not cancelled, invoiced or awaiting approval still owe (balance.ts). */
export const creditUsedSql = sql`(select coalesce(sum(${openCentsSql()}), 0) from orders o
     where o.account_id = a.id and o.payment_method = 'terms' and o.status <> 'cancelled')`;

export class TradePolicy {
  private readonly accounts = new Map<string, AccountState>();
  private readonly monthSpent = new Map<string, number>();
  private readonly decisions = new Map<number, TradeDecision>();

  constructor(
    private readonly ctx: PricingContext,
    private readonly now: Date,
  ) {}

  /** Locks the batch's members' accounts (id order, after the tools) and reads their credit, hold and the members' month. */
  async prepare(tx: Tx, requests: PolicyRequest[]): Promise<void> {
    const members = [...new Set(requests.map((r) => r.userId).filter((id) => this.ctx.members.has(id)))];
    if (members.length === 0) return;
    const accountIds = JSON.stringify([...new Set(members.map((id) => (this.ctx.members.get(id) as MemberTerms).accountId))].sort());
    // The lock first, in a statement of its own: the sums below must see every order committed
    // before the lock was granted (a statement's snapshot is taken when it starts).
    await tx.execute(sql`select id from trade_accounts where id in (select jsonb_array_elements_text(${accountIds}::jsonb)) order by id for update`);
    const today = storeDate(this.now);
    const users = JSON.stringify(members);
    const at = this.now.toISOString();
    const result = await tx.execute(sql`
      select 'account' as kind, a.id, a.credit_limit_cents::text as limit_cents, ${creditUsedSql}::text as used_cents, ${overdueSql(today)} as on_hold
        from trade_accounts a where a.id in (select jsonb_array_elements_text(${accountIds}::jsonb))
      union all
      select 'member', o.user_id, null, sum(o.total_cents)::text, null
        from orders o
       where o.user_id in (select jsonb_array_elements_text(${users}::jsonb)) and o.status <> 'cancelled'
         and o.created_at >= (date_trunc('month', ${at}::timestamptz at time zone ${STORE_TIME_ZONE}) at time zone ${STORE_TIME_ZONE})
       group by o.user_id`);
    for (const row of rowsOf<{ kind: string; id: string; limit_cents: string | null; used_cents: string | null; on_hold: boolean | null }>(result)) {
      if (row.kind === "account") this.accounts.set(row.id, { creditLimitCents: Number(row.limit_cents), usedCents: Number(row.used_cents ?? 0), onHold: row.on_hold === true });
      else this.monthSpent.set(row.id, Number(row.used_cents ?? 0));
    }
  }

  /**
   * The request (the batch's `index`-th, its total `totalCents`): refused, or admitted with its
   * decision, counting it against the month and the credit for the requests after it.
   */
  check(index: number, request: PolicyRequest, totalCents: number): ApiError | null {
    const member = this.ctx.members.get(request.userId);
    if (request.paymentMethod === "terms" && (!member || member.terms === "none")) return badField("paymentMethod", TRADE_TEXT.termsNotAvailable);
    if (!member) {
      this.decisions.set(index, { accountId: null, awaitingApproval: false });
      return null;
    }
    if (member.poRequired && !request.poNumber) return badField("poNumber", TRADE_TEXT.poRequired);
    const account = this.accounts.get(member.accountId);
    if (!account) throw new Error("a member's account was not prepared");
    const onTerms = request.paymentMethod === "terms";
    if (onTerms) {
      if (account.onHold) return conflict("ACCOUNT_ON_HOLD", TRADE_TEXT.onHold);
      const available = Math.max(0, account.creditLimitCents - account.usedCents);
      if (totalCents > available) return conflict("CREDIT_LIMIT", TRADE_TEXT.creditLimit(centsToDollars(available)), { available: centsToDollars(available) });
    }
    const month = (this.monthSpent.get(request.userId) ?? 0) + totalCents;
    const awaitingApproval =
      (member.orderLimitCents !== null && totalCents > member.orderLimitCents) || (member.monthlyLimitCents !== null && month > member.monthlyLimitCents);
    this.monthSpent.set(request.userId, month);
    if (onTerms) account.usedCents += totalCents;
    this.decisions.set(index, { accountId: member.accountId, awaitingApproval });
    return null;
  }

  decisionOf(index: number): TradeDecision {
    return this.decisions.get(index) ?? { accountId: null, awaitingApproval: false };
  }
}

/** A terms order's due date for an invoice issued at `at`: the account's terms in days, in the store's calendar. */
export const dueDateOf = (terms: MemberTerms["terms"], at: Date): string => addDays(storeDate(at), TERMS_DAYS[terms]);
