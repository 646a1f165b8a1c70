/**
 * /dashboard/account (issue 43, DESIGN "Trade accounts"): a member's trade account, their role,
 * the account's orders awaiting approval (approve or reject for approvers and admins, never
 * one's own), members and the statement for the account's admin; a member may leave (issue 49: an
 * add needs no consent), the last admin is told why not; a customer in no account applies.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { dollarsToCents, formatDollars } from "../../../contract/money";
import { applicationInputSchema, APPROVES, rejectInputSchema, type AccountOrder, type InvoicePayment, type MyAccount, type OpenInvoice, type Statement } from "../../../contract/trade";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import { ACCOUNT_PAGE_TEXT, ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../../contract/texts/trade";
import type { z } from "../../../contract/zod";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { api } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { useSession } from "../../lib/session";
import { afterSave, errorAt, Field, SaveButton } from "../../components/ui/form-parts";
import { openPaymentPage, paymentMethodsQuery } from "../cart";
import { myTradeAccountQuery, tradeKeys } from "./api";
import { MemberForm, MembersTable, StatementTable } from "./parts";

const text = ACCOUNT_PAGE_TEXT;
const toastError = { toastError: true } as const;
const enc = (value: string) => encodeURIComponent(value);
/** The open invoices' columns without the card payment's checkbox (no card payments in this store). */
const withoutPay = Object.fromEntries(Object.entries(text.invoiceColumns).filter(([key]) => key !== "pay"));

const accountOrdersQuery = () =>
  queryOptions({ queryKey: tradeKeys.orders, queryFn: ({ signal }) => api.get<AccountOrder[]>("/api/account/orders?status=awaiting_approval", signal) });
const openInvoicesQuery = () => queryOptions({ queryKey: tradeKeys.invoices, queryFn: ({ signal }) => api.get<OpenInvoice[]>("/api/account/invoices", signal) });
const myStatementQuery = () => queryOptions({ queryKey: tradeKeys.statement, queryFn: ({ signal }) => api.get<Statement>("/api/account/statement", signal) });

export default function AccountPage() {
  const account = useQuery(myTradeAccountQuery());
  return (
    <div className="flex flex-col gap-6">
      <PageTitle title={text.title} />
      <h2 className="text-2xl font-semibold">{text.title}</h2>
      <QueryView query={account} isEmpty={() => false} empty={null}>
        {(a) => (a ? <Member account={a} /> : <ApplyForm />)}
      </QueryView>
    </div>
  );
}

function Member({ account }: { account: MyAccount }) {
  const queryClient = useQueryClient();
  const isAdmin = account.role === "admin";
  const remove = useMutation({
    mutationFn: (userId: string) => api.delete<MyAccount>(`/api/account/members/${enc(userId)}`),
    onSuccess: () => {
      toast.success(ADMIN_TRADE_TEXT.memberRemoved);
      return queryClient.invalidateQueries({ queryKey: tradeKeys.all });
    },
    meta: toastError,
  });
  return (
    <>
      <div>
        <h3 className="text-xl font-semibold">{account.name}</h3>
        <p>{text.yourRole(ADMIN_TRADE_TEXT.roles[account.role])}</p>
        <p>
          {ADMIN_TRADE_TEXT.termsLabels[account.terms]} · {account.onHold ? ADMIN_TRADE_TEXT.onHold : ADMIN_TRADE_TEXT.inGoodStanding}
        </p>
        <p>{ADMIN_TRADE_TEXT.credit(formatDollars(account.creditUsed), formatDollars(account.creditLimit), formatDollars(account.creditAvailable))}</p>
      </div>
      <OpenInvoices cardPayments={account.terms !== "none"} />
      {APPROVES.includes(account.role) && <Approvals />}
      {isAdmin && (
        <section className="flex flex-col gap-3">
          <h3 className="text-xl font-semibold">{ADMIN_TRADE_TEXT.members}</h3>
          <MembersTable account={account} busy={remove.isPending} onRemove={(userId) => remove.mutate(userId)} />
          <MemberForm base="/api/account" onSaved={() => undefined} />
        </section>
      )}
      {isAdmin && <MyStatement />}
      <LeaveAccount />
    </>
  );
}

/** POST /api/account/leave, after the question; the last admin's 409 is shown as the API words it. */
function LeaveAccount() {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const leave = useMutation({
    mutationFn: () => api.post<unknown>("/api/account/leave"),
    onSuccess: () => {
      toast.success(text.left);
      return queryClient.invalidateQueries();
    },
    meta: toastError,
  });
  return (
    <div>
      <button type="button" className="btn btn-sm btn-outline btn-error" disabled={leave.isPending} onClick={() => setAsking(true)}>
        {text.leave}
      </button>
      <ConfirmDialog
        open={asking}
        question={text.leaveConfirm}
        description={text.leaveDescription}
        confirmLabel={text.leave}
        cancelLabel={text.stay}
        busy={leave.isPending}
        onConfirm={() => {
          setAsking(false);
          leave.mutate();
        }}
        onCancel={() => setAsking(false)}
      />
    </div>
  );
}

/**
 * The account's open invoices; any member may pay several at once by card (where the store takes
 * cards): the provider's page, then back here, the webhook applying the payment.
 */
function OpenInvoices({ cardPayments }: { cardPayments: boolean }) {
  const invoices = useQuery(openInvoicesQuery());
  const methods = useQuery(paymentMethodsQuery());
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [key] = useState(() => crypto.randomUUID());
  const [params] = useSearchParams();
  const returned = params.get("payment");
  const pay = useMutation({
    mutationFn: (invoiceNumbers: string[]) => api.post<InvoicePayment>("/api/account/invoices/pay", { invoiceNumbers }, { "idempotency-key": `${key}:${invoiceNumbers.join(",")}` }),
    onSuccess: (payment) => {
      if (payment.payment) openPaymentPage(payment.payment.url);
    },
    meta: toastError,
  });
  const card = cardPayments && (methods.data?.methods.includes("card") ?? false);
  const toggle = (n: string) =>
    setChosen((was) => {
      const next = new Set(was);
      if (next.has(n)) next.delete(n);
      else next.add(n);
      return next;
    });
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{text.openInvoices}</h3>
      {returned === "return" && <p role="status">{text.payReturned}</p>}
      {returned === "cancelled" && <p role="status">{text.payCancelled}</p>}
      <QueryView query={invoices} isEmpty={(list) => list.length === 0} empty={text.noOpenInvoices}>
        {(list) => {
          const selected = list.filter((o) => chosen.has(o.invoiceNumber));
          const amount = selected.reduce((sum, o) => sum + dollarsToCents(o.open), 0) / 100;
          return (
            <>
              <DataTable label={text.openInvoices} columns={card ? text.invoiceColumns : withoutPay}>
                {list.map((o) => (
                  <tr key={o.invoiceNumber} data-testid="open-invoice">
                    {card && (
                      <td>
                        <input type="checkbox" className="checkbox" aria-label={text.payInvoice(o.invoiceNumber)} checked={chosen.has(o.invoiceNumber)} onChange={() => toggle(o.invoiceNumber)} />
                      </td>
                    )}
                    <td>{o.invoiceNumber}</td>
                    <td>#{o.number}</td>
                    <td>{o.dueDate ?? ""}</td>
                    <td>{formatDollars(o.total)}</td>
                    <td>{formatDollars(o.open)}</td>
                  </tr>
                ))}
              </DataTable>
              {card && (
                <button type="button" className="btn btn-primary self-start" disabled={selected.length === 0 || pay.isPending} onClick={() => pay.mutate(selected.map((o) => o.invoiceNumber))}>
                  {text.payByCard(formatDollars(amount))}
                </button>
              )}
            </>
          );
        }}
      </QueryView>
    </section>
  );
}

function Approvals() {
  const { user } = useSession();
  const orders = useQuery(accountOrdersQuery());
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState<AccountOrder | null>(null);
  const [reason, setReason] = useState("");
  const after = () => queryClient.invalidateQueries({ queryKey: tradeKeys.all });
  const approve = useMutation({
    mutationFn: (o: AccountOrder) => api.post<unknown>(`/api/account/orders/${enc(o._id)}/approve`),
    onSuccess: (_d, o) => {
      toast.success(text.approved(o.number));
      return after();
    },
    meta: toastError,
  });
  const reject = useMutation({
    mutationFn: ({ o, why }: { o: AccountOrder; why: string }) => api.post<unknown>(`/api/account/orders/${enc(o._id)}/reject`, { reason: why }),
    onSuccess: (_d, { o }) => {
      toast.success(text.rejected(o.number));
      setRejecting(null);
      setReason("");
      return after();
    },
    meta: toastError,
  });
  const parsed = rejectInputSchema.safeParse({ reason });
  const parsedReason = parsed.success ? { ok: true as const, reason: parsed.data.reason } : { ok: false as const, message: parsed.error.issues[0]?.message };
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{text.approvals}</h3>
      <QueryView query={orders} isEmpty={(list) => list.length === 0} empty={text.noApprovals}>
        {(list) => (
          <DataTable label={text.approvals} columns={text.approvalColumns}>
            {list.map((o) => (
              <tr key={o._id} data-testid="approval-row">
                <td>#{o.number}</td>
                <td>{o.buyer.name || o.buyer.email}</td>
                <td>{formatDollars(o.total)}</td>
                <td>{new Date(o.createdAt).toLocaleDateString("en-US")}</td>
                <td>{o.poNumber ?? ""}</td>
                <td>
                  {o.buyer.userId === user?.id ? (
                    text.yours
                  ) : (
                    <div className="flex flex-wrap gap-1">
                      <button type="button" className="btn btn-xs btn-primary" aria-label={text.approveOrder(o.number)} disabled={approve.isPending} onClick={() => approve.mutate(o)}>
                        {text.approve}
                      </button>
                      <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.rejectOrder(o.number)} onClick={() => setRejecting(o)}>
                        {text.reject}
                      </button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      {rejecting && (
        <form
          className="card bg-base-200"
          aria-label={text.rejectOrder(rejecting.number)}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (parsedReason.ok) reject.mutate({ o: rejecting, why: parsedReason.reason });
          }}
        >
          <div className="card-body flex flex-col gap-3">
            <Field label={text.reason} error={reason && !parsedReason.ok ? parsedReason.message : undefined}>
              <textarea className="textarea textarea-bordered" value={reason} onChange={(e) => setReason(e.target.value)} />
            </Field>
            <div className="flex gap-2">
              <button type="submit" className="btn btn-error" disabled={reject.isPending || !parsedReason.ok}>
                {text.reject}
              </button>
              <button type="button" className="btn" onClick={() => setRejecting(null)}>
                {ADMIN_MONEY_TEXT.common.cancel}
              </button>
            </div>
          </div>
        </form>
      )}
    </section>
  );
}

function MyStatement() {
  const statement = useQuery(myStatementQuery());
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{TRADE_TEXT.statementTitle}</h3>
      <QueryView query={statement} isEmpty={() => false} empty={null}>
        {(s) => <StatementTable statement={s} pdfUrl="/api/account/statement.pdf" />}
      </QueryView>
    </section>
  );
}

type ApplyIn = z.input<typeof applicationInputSchema>;
type ApplyOut = z.output<typeof applicationInputSchema>;

function ApplyForm() {
  const [done, setDone] = useState(false);
  const apply = useMutation({ mutationFn: (input: ApplyOut) => api.post<unknown>("/api/account/apply", input), meta: toastError });
  const form = useForm<ApplyIn, unknown, ApplyOut>({ resolver: zodResolver(applicationInputSchema), defaultValues: { name: "", taxId: "", message: "" } });
  const { errors } = form.formState;
  if (done) return <p role="status">{text.applied}</p>;
  const onSubmit = form.handleSubmit((input) => apply.mutate(input, afterSave(form.setError, text.applied, () => setDone(true))));
  return (
    <form className="card bg-base-200" aria-label={text.applyTitle} noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="card-body flex flex-col gap-3">
        <h3 className="card-title">{text.applyTitle}</h3>
        <p>{text.applyIntro}</p>
        <Field label={text.applyName} error={errorAt(errors, "name")}>
          <input className="input input-bordered" {...form.register("name")} />
        </Field>
        <Field label={text.applyTaxId} error={errorAt(errors, "taxId")}>
          <input className="input input-bordered" {...form.register("taxId")} />
        </Field>
        <Field label={text.applyMessage} error={errorAt(errors, "message")}>
          <textarea className="textarea textarea-bordered" {...form.register("message")} />
        </Field>
        <div>
          <SaveButton pending={apply.isPending} />
        </div>
      </div>
    </form>
  );
}
