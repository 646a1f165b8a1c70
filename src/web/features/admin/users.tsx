import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { PageTitle } from "../../lib/page-title";
import { usersQuery, useSetRole } from "./api";
import { AdminList, SEARCH_DEBOUNCE_MS, useDebouncedCallback, useFilters, when } from "./ui";

const usersText = ADMIN_TEXT.users;

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
        columns={[usersText.columns.name, usersText.columns.email, usersText.columns.role, usersText.columns.since, usersText.columns.actions]}
      >
        {(u) => (
          <tr key={u._id} data-testid="admin-user-row">
            <td>{u.name}</td>
            <td>{u.email}</td>
            <td>{u.role === "admin" ? usersText.admin : usersText.customer}</td>
            <td>{when(u.createdAt)}</td>
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
