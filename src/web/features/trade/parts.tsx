/**
 * Pieces of a trade account's pages that the console and the member's dashboard share: the
 * members' table, the add-a-member form (one schema, the routes' own) and the statement's table
 * with its ageing and PDF link.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { formatDollars } from "../../../contract/money";
import { ACCOUNT_ROLES, memberInputSchema, type Statement, type TradeAccount } from "../../../contract/trade";
import { ADMIN_TRADE_TEXT, TRADE_TEXT } from "../../../contract/texts/trade";
import type { z } from "../../../contract/zod";
import { api } from "../../lib/api";
import { DataTable } from "../../components/ui/data-table";
import { afterSave, errorAt, Field, numberOrNull, SaveButton } from "../../components/ui/form-parts";

const text = ADMIN_TRADE_TEXT;
const toastError = { toastError: true } as const;

type MemberIn = z.input<typeof memberInputSchema>;
type MemberOut = z.output<typeof memberInputSchema>;

export function MembersTable({ account, onRemove, busy }: { account: TradeAccount; onRemove?: (userId: string) => void; busy: boolean }) {
  const limit = (v: number | null | undefined) => (v === null || v === undefined ? text.noLimit : formatDollars(v));
  if (account.members.length === 0) return <p>{text.noMembers}</p>;
  return (
    <DataTable label={text.members} columns={text.memberColumns}>
      {account.members.map((m) => (
        <tr key={m.userId} data-testid="member-row">
          <td>{m.name}</td>
          <td>{m.email}</td>
          <td>{text.roles[m.role]}</td>
          <td>{limit(m.orderLimit)}</td>
          <td>{limit(m.monthlyLimit)}</td>
          <td>
            {onRemove && (
              <button type="button" className="btn btn-xs btn-error btn-outline" disabled={busy} aria-label={text.removeMember(m.email)} onClick={() => onRemove(m.userId)}>
                {text.remove}
              </button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The add-a-member form, the console's and the account admin's (`base`: the members' API). */
export function MemberForm({ base, onSaved }: { base: string; onSaved: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (input: MemberOut) => api.post<TradeAccount>(`${base}/members`, input),
    onSuccess: () => queryClient.invalidateQueries(),
    meta: toastError,
  });
  const form = useForm<MemberIn, unknown, MemberOut>({ resolver: zodResolver(memberInputSchema), defaultValues: { email: "", role: "buyer", orderLimit: null, monthlyLimit: null } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) =>
    save.mutate(input, {
      ...afterSave(form.setError, text.memberAdded, () => {
        form.reset();
        onSaved();
      }),
    }),
  );
  return (
    <form className="card bg-base-200" aria-label={text.addMember} noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="card-body grid gap-3 md:grid-cols-2">
        <h4 className="card-title md:col-span-2">{text.addMember}</h4>
        <Field label={text.email} error={errorAt(errors, "email")}>
          <input type="email" className="input input-bordered" {...form.register("email")} />
        </Field>
        <Field label={text.role} error={errorAt(errors, "role")}>
          <select className="select select-bordered" {...form.register("role")}>
            {ACCOUNT_ROLES.map((r) => (
              <option key={r} value={r}>
                {text.roles[r]}
              </option>
            ))}
          </select>
        </Field>
        <Field label={text.orderLimit} error={errorAt(errors, "orderLimit")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("orderLimit", { setValueAs: numberOrNull })} />
        </Field>
        <Field label={text.monthlyLimit} error={errorAt(errors, "monthlyLimit")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("monthlyLimit", { setValueAs: numberOrNull })} />
        </Field>
        <div className="md:col-span-2">
          <SaveButton pending={save.isPending} />
        </div>
      </div>
    </form>
  );
}

/** A statement's table, ageing and PDF link (the console's and the dashboard's). */
export function StatementTable({ statement, pdfUrl }: { statement: Statement; pdfUrl: string }) {
  return (
    <div className="flex flex-col gap-3">
      <a className="link" href={pdfUrl} target="_blank" rel="noreferrer">
        {text.statementPdf}
      </a>
      {statement.lines.length === 0 ? (
        <p>{text.noStatementLines}</p>
      ) : (
        <DataTable label={TRADE_TEXT.statementTitle} columns={text.statementColumns}>
          {statement.lines.map((l) => (
            <tr key={`${l.type}-${l.number}-${l.date}`}>
              <td>{l.date}</td>
              <td>{TRADE_TEXT.statementTypes[l.type]}</td>
              <td>{l.number}</td>
              <td>{formatDollars(l.amount)}</td>
              <td>{formatDollars(l.balance)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      <dl className="grid grid-cols-2 gap-x-4 md:grid-cols-5">
        <dt className="font-semibold">{TRADE_TEXT.balance}</dt>
        <dd>{formatDollars(statement.balance)}</dd>
        {(Object.keys(TRADE_TEXT.ageing) as (keyof typeof TRADE_TEXT.ageing)[]).map((k) => (
          <div key={k}>
            <dt className="font-semibold">{TRADE_TEXT.ageing[k]}</dt>
            <dd>{formatDollars(statement.ageing[k])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

