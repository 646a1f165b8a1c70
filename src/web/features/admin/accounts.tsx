/**
 * The console's trade accounts (issue 43, DESIGN "Trade accounts"): the list with the
 * applications waiting and the certificates about to expire; an account's page with its form,
 * members, payments, statement (and its PDF) and exemption certificates. A chunk of its own.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { Link, Route, Routes, useParams } from "react-router";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import {
  accountInputSchema,
  accountPaymentInputSchema,
  ACCOUNT_TERMS,
  exemptionInputSchema,
  type AccountApplication,
  type Statement,
  type TradeAccount,
} from "../../../contract/trade";
import { ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../../contract/texts/trade";
import type { z } from "../../../contract/zod";
import { QueryView } from "../../components/ui/states";
import { api } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { adminKeys } from "./api";
import { afterSave, CountryRegion, errorAt, Field, FormCard, numberOrUndefined, SaveButton } from "./form-parts";
import { MemberForm, MembersTable, StatementTable } from "../trade";
import { MoneyList, MoneyPageHeading, RowActions } from "./money-list";
import { when } from "./ui";

const text = ADMIN_TRADE_TEXT;
const key = (...parts: unknown[]) => [...adminKeys.all, "accounts", ...parts] as const;
const enc = (value: string) => encodeURIComponent(value);
const toastError = { toastError: true } as const;

type Exemption = { _id: string; country: string; region: string; certificate: string; expiresOn: string };
type ExpiringExemption = Exemption & { accountId: string; accountName: string };

const accountsQuery = () => queryOptions({ queryKey: key("list"), queryFn: ({ signal }) => api.get<TradeAccount[]>("/api/admin/accounts?limit=100", signal) });
const applicationsQuery = () => queryOptions({ queryKey: key("applications"), queryFn: ({ signal }) => api.get<AccountApplication[]>("/api/admin/accounts/applications", signal) });
const expiringQuery = () => queryOptions({ queryKey: key("expiring"), queryFn: ({ signal }) => api.get<ExpiringExemption[]>("/api/admin/accounts/exemptions/expiring", signal) });
const accountQuery = (id: string) => queryOptions({ queryKey: key("one", id), queryFn: ({ signal }) => api.get<TradeAccount>(`/api/admin/accounts/${enc(id)}`, signal) });
const statementQuery = (id: string) => queryOptions({ queryKey: key("statement", id), queryFn: ({ signal }) => api.get<Statement>(`/api/admin/accounts/${enc(id)}/statement`, signal) });
const exemptionsQuery = (id: string) => queryOptions({ queryKey: key("exemptions", id), queryFn: ({ signal }) => api.get<Exemption[]>(`/api/admin/accounts/${enc(id)}/exemptions`, signal) });

function useAccountMutation<V, R>(fn: (v: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => queryClient.invalidateQueries({ queryKey: key() }), meta: toastError });
}

export default function AccountsSection() {
  return (
    <Routes>
      <Route index element={<AccountsPage />} />
      <Route path=":id" element={<AccountPage />} />
    </Routes>
  );
}

function AccountsPage() {
  const accounts = useQuery(accountsQuery());
  const applications = useQuery(applicationsQuery());
  const expiring = useQuery(expiringQuery());
  const [adding, setAdding] = useState(false);
  return (
    <div>
      <MoneyPageHeading title={text.section} addLabel={text.add} onAdd={() => setAdding(true)} />
      {adding && <AccountForm account={null} onDone={() => setAdding(false)} />}
      <MoneyList query={accounts} label={text.section} empty={text.empty} columns={text.columns}>
        {(a) => (
          <tr key={a._id} data-testid="account-row">
            <td>
              <Link className="link" to={`/admin/accounts/${enc(a._id)}`}>
                {a.name}
              </Link>
            </td>
            <td>{text.termsLabels[a.terms]}</td>
            <td>{formatDollars(a.creditLimit)}</td>
            <td>{formatDollars(a.creditAvailable)}</td>
            <td>{a.discountPercent}%</td>
            <td>{a.members.length}</td>
            <td>{a.onHold ? text.onHold : text.inGoodStanding}</td>
            <td>
              <Link className="btn btn-xs" to={`/admin/accounts/${enc(a._id)}`} aria-label={`${text.open} ${a.name}`}>
                {text.open}
              </Link>
            </td>
          </tr>
        )}
      </MoneyList>
      <h3 className="mt-8 mb-2 text-xl font-semibold">{text.applications}</h3>
      <MoneyList query={applications} label={text.applications} empty={text.noApplications} columns={text.applicationColumns}>
        {(a) => (
          <tr key={a._id} data-testid="application-row">
            <td>{a.name}</td>
            <td>{a.email}</td>
            <td>{a.taxId}</td>
            <td className="whitespace-pre-line">{a.message}</td>
            <td>{when(a.createdAt)}</td>
          </tr>
        )}
      </MoneyList>
      <h3 className="mt-8 mb-2 text-xl font-semibold">{text.expiring}</h3>
      <MoneyList query={expiring} label={text.expiring} empty={text.noExpiring} columns={text.expiringColumns}>
        {(e) => (
          <tr key={e._id}>
            <td>
              <Link className="link" to={`/admin/accounts/${enc(e.accountId)}`}>
                {e.accountName}
              </Link>
            </td>
            <td>{`${e.country}-${e.region}`}</td>
            <td>{e.certificate}</td>
            <td>{e.expiresOn}</td>
          </tr>
        )}
      </MoneyList>
    </div>
  );
}

type AccountIn = z.input<typeof accountInputSchema>;
type AccountOut = z.output<typeof accountInputSchema>;

function AccountForm({ account, onDone }: { account: TradeAccount | null; onDone: () => void }) {
  const save = useAccountMutation(({ input }: { input: AccountOut }) =>
    account ? api.patch<TradeAccount>(`/api/admin/accounts/${enc(account._id)}`, input) : api.post<TradeAccount>("/api/admin/accounts", input),
  );
  const form = useForm<AccountIn, unknown, AccountOut>({
    resolver: zodResolver(accountInputSchema),
    defaultValues: account
      ? { name: account.name, taxId: account.taxId, terms: account.terms, creditLimit: account.creditLimit, discountPercent: account.discountPercent, poRequired: account.poRequired }
      : { name: "", taxId: "", terms: "none", creditLimit: 0, discountPercent: 0, poRequired: false },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => save.mutate({ input }, afterSave(form.setError, account ? text.saved : text.created, onDone)));
  return (
    <FormCard title={account ? text.editTitle(account.name) : text.newTitle} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <Field label={text.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...form.register("name")} />
      </Field>
      <Field label={text.taxId} error={errorAt(errors, "taxId")}>
        <input className="input input-bordered" {...form.register("taxId")} />
      </Field>
      <Field label={text.terms} error={errorAt(errors, "terms")}>
        <select className="select select-bordered" {...form.register("terms")}>
          {ACCOUNT_TERMS.map((t) => (
            <option key={t} value={t}>
              {text.termsLabels[t]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={text.creditLimit} error={errorAt(errors, "creditLimit")}>
        <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("creditLimit", { setValueAs: numberOrUndefined })} />
      </Field>
      <Field label={text.discountPercent} error={errorAt(errors, "discountPercent")}>
        <input type="number" step="0.01" min="0" max="100" className="input input-bordered" {...form.register("discountPercent", { setValueAs: numberOrUndefined })} />
      </Field>
      <label className="flex cursor-pointer items-center gap-2 md:col-span-2">
        <input type="checkbox" className="checkbox" {...form.register("poRequired")} />
        <span>{text.poRequired}</span>
      </label>
    </FormCard>
  );
}

function AccountPage() {
  const { id = "" } = useParams();
  const account = useQuery(accountQuery(id));
  const [editing, setEditing] = useState(false);
  return (
    <div>
      <Link className="link mb-4 inline-block" to="/admin/accounts">
        {text.back}
      </Link>
      <QueryView query={account} isEmpty={() => false} empty={null}>
        {(a) => (
          <div className="flex flex-col gap-6">
            <PageTitle title={a.name} />
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 className="text-2xl font-semibold">{a.name}</h2>
              <RowActions name={a.name} onEdit={() => setEditing(true)} />
            </div>
            {editing && <AccountForm account={a} onDone={() => setEditing(false)} />}
            <p>
              {text.termsLabels[a.terms]} · {a.discountPercent}% · {a.onHold ? text.onHold : text.inGoodStanding}
              <br />
              {text.credit(formatDollars(a.creditUsed), formatDollars(a.creditLimit), formatDollars(a.creditAvailable))}
            </p>
            <Members account={a} />
            <PaymentForm accountId={a._id} />
            <StatementView accountId={a._id} />
            <Exemptions accountId={a._id} />
          </div>
        )}
      </QueryView>
    </div>
  );
}

function Members({ account }: { account: TradeAccount }) {
  const remove = useAccountMutation((userId: string) => api.delete<TradeAccount>(`/api/admin/accounts/${enc(account._id)}/members/${enc(userId)}`));
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{text.members}</h3>
      <MembersTable account={account} busy={remove.isPending} onRemove={(userId) => remove.mutate(userId, { onSuccess: () => toast.success(text.memberRemoved) })} />
      <MemberForm base={`/api/admin/accounts/${enc(account._id)}`} onSaved={() => undefined} />
    </section>
  );
}

type PaymentIn = z.input<typeof accountPaymentInputSchema>;
type PaymentOut = z.output<typeof accountPaymentInputSchema>;

function PaymentForm({ accountId }: { accountId: string }) {
  const save = useAccountMutation((input: PaymentOut) => api.post<unknown>(`/api/admin/accounts/${enc(accountId)}/payments`, input));
  const form = useForm<PaymentIn, unknown, PaymentOut>({ resolver: zodResolver(accountPaymentInputSchema), defaultValues: { reference: "" } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => save.mutate(input, afterSave(form.setError, text.paymentRecorded, () => form.reset({ reference: "" }))));
  return (
    <form className="card bg-base-200" aria-label={text.payment} noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="card-body grid gap-3 md:grid-cols-3">
        <h3 className="card-title md:col-span-3">{text.payment}</h3>
        <Field label={text.amount} error={errorAt(errors, "amount")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("amount", { setValueAs: numberOrUndefined })} />
        </Field>
        <Field label={text.reference} error={errorAt(errors, "reference")}>
          <input className="input input-bordered" {...form.register("reference")} />
        </Field>
        <Controller
          control={form.control}
          name="invoiceNumbers"
          render={({ field }) => (
            <Field label={text.invoiceNumbers} error={errorAt(errors, "invoiceNumbers")}>
              <input
                className="input input-bordered"
                name={field.name}
                ref={field.ref}
                onBlur={field.onBlur}
                value={(field.value ?? []).join(", ")}
                onChange={(e) => {
                  const numbers = e.target.value.split(",").map((n) => n.trim());
                  field.onChange(numbers.some(Boolean) ? numbers : undefined);
                }}
              />
            </Field>
          )}
        />
        <div className="md:col-span-3">
          <SaveButton pending={save.isPending} />
        </div>
      </div>
    </form>
  );
}

function StatementView({ accountId }: { accountId: string }) {
  const statement = useQuery(statementQuery(accountId));
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{TRADE_TEXT.statementTitle}</h3>
      <QueryView query={statement} isEmpty={() => false} empty={null}>
        {(s) => <StatementTable statement={s} pdfUrl={`/api/admin/accounts/${enc(accountId)}/statement.pdf`} />}
      </QueryView>
    </section>
  );
}

type ExemptionIn = z.input<typeof exemptionInputSchema>;
type ExemptionOut = z.output<typeof exemptionInputSchema>;

function Exemptions({ accountId }: { accountId: string }) {
  const exemptions = useQuery(exemptionsQuery(accountId));
  const remove = useAccountMutation((exemptionId: string) => api.delete<unknown>(`/api/admin/accounts/${enc(accountId)}/exemptions/${enc(exemptionId)}`));
  const save = useAccountMutation((input: ExemptionOut) => api.post<Exemption>(`/api/admin/accounts/${enc(accountId)}/exemptions`, input));
  const form = useForm<ExemptionIn, unknown, ExemptionOut>({ resolver: zodResolver(exemptionInputSchema), defaultValues: { country: "", region: "", certificate: "", expiresOn: "" } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => save.mutate(input, afterSave(form.setError, text.exemptionAdded, () => form.reset())));
  return (
    <section className="flex flex-col gap-3">
      <h3 className="text-xl font-semibold">{text.exemptions}</h3>
      <MoneyList query={exemptions} label={text.exemptions} empty={text.noExemptions} columns={text.exemptionColumns}>
        {(e) => (
          <tr key={e._id}>
            <td>{`${e.country}-${e.region}`}</td>
            <td>{e.certificate}</td>
            <td>{e.expiresOn}</td>
            <td>
              <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={`${text.remove} ${e.certificate}`} disabled={remove.isPending} onClick={() => remove.mutate(e._id, { onSuccess: () => toast.success(text.exemptionRemoved) })}>
                {text.remove}
              </button>
            </td>
          </tr>
        )}
      </MoneyList>
      <form className="card bg-base-200" aria-label={text.addExemption} noValidate onSubmit={(e) => void onSubmit(e)}>
        <div className="card-body grid gap-3 md:grid-cols-2">
          <h4 className="card-title md:col-span-2">{text.addExemption}</h4>
          <CountryRegion control={form.control} register={form.register} setValue={form.setValue} errors={errors} country="country" region="region" />
          <Field label={text.certificate} error={errorAt(errors, "certificate")}>
            <input className="input input-bordered" {...form.register("certificate")} />
          </Field>
          <Field label={text.expiresOn} error={errorAt(errors, "expiresOn")}>
            <input type="date" className="input input-bordered" {...form.register("expiresOn")} />
          </Field>
          <div className="md:col-span-2">
            <SaveButton pending={save.isPending} />
          </div>
        </div>
      </form>
    </section>
  );
}
