import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import type { AdminUser } from "../../../contract/admin-schemas";
import { taxExemptInputSchema } from "../../../contract/money-schemas";
import { ADMIN_MONEY_TEXT, ADMIN_TEXT } from "../../../contract/texts/admin";
import type { z } from "../../../contract/zod";
import { PageTitle } from "../../lib/page-title";
import { usersQuery, useSetRole, useSetTaxExempt } from "./api";
import { AdminList, SEARCH_DEBOUNCE_MS, useDebouncedCallback, useFilters, when } from "./ui";

const usersText = ADMIN_TEXT.users;
const exemptText = ADMIN_MONEY_TEXT.taxExempt;

export default function UsersPage() {
  const { values, page, set } = useFilters(["q"] as const);
  const users = useQuery(usersQuery({ ...values, page }));
  const search = useDebouncedCallback((q: string) => set("q", q), SEARCH_DEBOUNCE_MS);
  const setRole = useSetRole();
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.users} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.users}</h2>
      <label className="form-control mb-4">
        <span className="label-text">{usersText.search}</span>
        <input type="search" className="input input-bordered" defaultValue={values.q} onChange={(e) => search(e.target.value)} />
      </label>
      <AdminList
        query={users}
        label={ADMIN_TEXT.sections.users}
        empty={usersText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[usersText.columns.name, usersText.columns.email, usersText.columns.role, usersText.columns.since, exemptText.column, usersText.columns.actions]}
      >
        {(u) => (
          <tr key={u._id} data-testid="admin-user-row">
            <td>{u.name}</td>
            <td>{u.email}</td>
            <td>{u.role === "admin" ? usersText.admin : usersText.customer}</td>
            <td>{when(u.createdAt)}</td>
            <td>
              <TaxExempt user={u} />
            </td>
            <td>
              <button
                type="button"
                className="btn btn-xs"
                disabled={setRole.isPending}
                onClick={() =>
                  setRole.mutate(
                    { id: u._id, role: u.role === "admin" ? "user" : "admin" },
                    { onSuccess: () => toast.success(usersText.changed) },
                  )
                }
              >
                {u.role === "admin" ? usersText.remove : usersText.grant}
              </button>
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

/** A trade customer's certificate: set it (their orders then carry no tax) or clear it. */
function TaxExempt({ user }: { user: AdminUser }) {
  const save = useSetTaxExempt();
  const current = user.taxExemptCertificate ?? "";
  const form = useForm<z.input<typeof taxExemptInputSchema>, unknown, z.output<typeof taxExemptInputSchema>>({
    resolver: zodResolver(taxExemptInputSchema),
    values: { taxExemptCertificate: current },
  });
  const error = form.formState.errors.taxExemptCertificate?.message;
  const send = (taxExemptCertificate: string) =>
    save.mutate({ id: user._id, taxExemptCertificate }, { onSuccess: () => toast.success(taxExemptCertificate ? exemptText.saved : exemptText.cleared) });
  const onSubmit = form.handleSubmit(({ taxExemptCertificate }) => send(taxExemptCertificate));
  return (
    <form className="flex flex-wrap items-start gap-1" noValidate onSubmit={(e) => void onSubmit(e)}>
      <label className="flex flex-col">
        <span className="sr-only">{exemptText.certificate(user.name)}</span>
        <input className="input input-bordered input-xs w-36" placeholder={exemptText.none} {...form.register("taxExemptCertificate")} />
        {error && (
          <span className="text-error text-xs" role="alert">
            {error}
          </span>
        )}
      </label>
      <button type="submit" className="btn btn-xs" disabled={save.isPending} aria-label={`${exemptText.set}: ${exemptText.certificate(user.name)}`}>
        {exemptText.set}
      </button>
      {current && (
        <button type="button" className="btn btn-xs" disabled={save.isPending} aria-label={`${exemptText.clear}: ${exemptText.certificate(user.name)}`} onClick={() => send("")}>
          {exemptText.clear}
        </button>
      )}
    </form>
  );
}
