import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { usePageTitle } from "../../lib/page-title";
import { auditQuery, reviewsQuery, usersQuery, useSetReviewHidden, useSetRole } from "./api";
import { AdminList, SEARCH_DEBOUNCE_MS, useDebouncedCallback, useFilters, when } from "./ui";

const R = ADMIN_TEXT.reviews;
const U = ADMIN_TEXT.users;
const A = ADMIN_TEXT.audit;

export default function ReviewsPage() {
  usePageTitle(ADMIN_TEXT.sections.reviews);
  const { values, page, set } = useFilters(["hidden"] as const);
  const reviews = useQuery(reviewsQuery({ ...values, page }));
  const setHidden = useSetReviewHidden();
  return (
    <div>
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.reviews}</h2>
      <label className="form-control mb-4">
        <span className="label-text">{R.filter}</span>
        <select className="select select-bordered" value={values.hidden} onChange={(e) => set("hidden", e.target.value)}>
          <option value="">{R.all}</option>
          <option value="false">{R.visible}</option>
          <option value="true">{R.hiddenOnly}</option>
        </select>
      </label>
      <AdminList
        query={reviews}
        label={ADMIN_TEXT.sections.reviews}
        empty={R.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[R.columns.name, R.columns.rating, R.columns.text, R.columns.author, R.columns.state, R.columns.actions]}
      >
        {(r) => (
          <tr key={r._id} data-testid="admin-review-row">
            <td>
              {r.name}
              {r.verifiedBuyer && <span className="badge badge-success badge-soft badge-sm ml-2">{R.verified}</span>}
            </td>
            <td>{r.rating}</td>
            <td className="max-w-md break-words">{r.description}</td>
            <td>{r.authorEmail ?? ADMIN_TEXT.orders.none}</td>
            <td>{r.hidden ? R.hidden : R.shown}</td>
            <td>
              <button
                type="button"
                className="btn btn-xs"
                disabled={setHidden.isPending}
                onClick={() =>
                  setHidden.mutate(
                    { id: r._id, hidden: !r.hidden },
                    { onSuccess: () => toast.success(r.hidden ? R.restoredToast : R.hiddenToast) },
                  )
                }
              >
                {r.hidden ? R.restore : R.hide}
              </button>
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

export function UsersPage() {
  usePageTitle(ADMIN_TEXT.sections.users);
  const { values, page, set } = useFilters(["q"] as const);
  const users = useQuery(usersQuery({ ...values, page }));
  const search = useDebouncedCallback((q: string) => set("q", q), SEARCH_DEBOUNCE_MS);
  const setRole = useSetRole();
  return (
    <div>
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.users}</h2>
      <label className="form-control mb-4">
        <span className="label-text">{U.search}</span>
        <input type="search" className="input input-bordered" defaultValue={values.q} onChange={(e) => search(e.target.value)} />
      </label>
      <AdminList
        query={users}
        label={ADMIN_TEXT.sections.users}
        empty={U.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[U.columns.name, U.columns.email, U.columns.role, U.columns.since, U.columns.actions]}
      >
        {(u) => (
          <tr key={u._id} data-testid="admin-user-row">
            <td>{u.name}</td>
            <td>{u.email}</td>
            <td>{u.role === "admin" ? U.admin : U.customer}</td>
            <td>{when(u.createdAt)}</td>
            <td>
              <button
                type="button"
                className="btn btn-xs"
                disabled={setRole.isPending}
                onClick={() =>
                  setRole.mutate(
                    { id: u._id, role: u.role === "admin" ? "user" : "admin" },
                    { onSuccess: () => toast.success(U.changed) },
                  )
                }
              >
                {u.role === "admin" ? U.remove : U.grant}
              </button>
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

const brief = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value).slice(0, 160));

export function AuditPage() {
  usePageTitle(ADMIN_TEXT.sections.audit);
  const { page, set } = useFilters([] as const);
  const audit = useQuery(auditQuery({ page }));
  return (
    <div>
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.audit}</h2>
      <AdminList
        query={audit}
        label={ADMIN_TEXT.sections.audit}
        empty={A.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[A.columns.when, A.columns.who, A.columns.action, A.columns.record, A.columns.change]}
      >
        {(e) => (
          <tr key={e._id} data-testid="audit-row">
            <td>{when(e.createdAt)}</td>
            <td>{e.actorEmail}</td>
            <td>{e.action}</td>
            <td>
              {e.entity} {e.entityId.slice(0, 8)}
            </td>
            <td className="max-w-md font-mono text-xs break-all">
              {brief(e.before)} → {brief(e.after)}
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}
