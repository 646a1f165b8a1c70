/** The outbox: every e-mail the store wrote, sent, failed or pending (decision 0012). */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MAIL_STATUSES, type MailEntry } from "../../../contract/admin-schemas";
import { MAIL_ADMIN_TEXT as M } from "../../../contract/texts/mail";
import { QueryView } from "../../components/ui/states";
import { api, withQuery } from "../../lib/api";
import { usePageTitle } from "../../lib/page-title";
import { PERSONAL_KEY } from "../../lib/session";
import { Pager, Table, useFilters, when } from "./ui";

const PAGE_SIZE = 20;
const mailQuery = (f: { status?: string; page: number }) =>
  queryOptions({
    queryKey: [PERSONAL_KEY, "admin", "mail", f],
    queryFn: ({ signal }) => api.list<MailEntry>(withQuery("/api/admin/mail", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });

export default function MailPage() {
  usePageTitle(M.section);
  const { values, page, set } = useFilters(["status"] as const);
  const status = values.status || undefined;
  const mail = useQuery(mailQuery({ ...(status ? { status } : {}), page }));
  return (
    <div>
      <h2 className="mb-4 text-2xl font-semibold">{M.section}</h2>
      <label className="mb-4 flex items-center gap-2">
        <span className="text-sm font-medium">{M.filter}</span>
        <select className="select select-bordered select-sm" value={status ?? ""} onChange={(e) => set("status", e.target.value)}>
          <option value="">{M.all}</option>
          {MAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {M.statuses[s]}
            </option>
          ))}
        </select>
      </label>
      <QueryView query={mail} isEmpty={(d) => d.items.length === 0} empty={M.empty}>
        {({ items, total, exact }) => (
          <>
            <Table label={M.section}>
              <thead className="text-base-content">
                <tr>
                  <th scope="col">{M.columns.when}</th>
                  <th scope="col">{M.columns.to}</th>
                  <th scope="col">{M.columns.subject}</th>
                  <th scope="col">{M.columns.status}</th>
                  <th scope="col">{M.columns.attempts}</th>
                  <th scope="col">{M.columns.note}</th>
                </tr>
              </thead>
              <tbody>
                {items.map((m) => (
                  <tr key={m._id} data-testid="mail-row">
                    <td>{when(m.createdAt)}</td>
                    <td>{m.to}</td>
                    <td>{m.subject}</td>
                    <td>{M.statuses[m.status]}</td>
                    <td>{m.attempts}</td>
                    <td className="max-w-xs text-xs break-all">{m.lastError ?? (m.nextAttemptAt ? when(m.nextAttemptAt) : m.sentAt ? when(m.sentAt) : "")}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager page={page} total={total} exact={exact} shown={items.length} onPage={(p) => set("page", String(p))} />
          </>
        )}
      </QueryView>
    </div>
  );
}
