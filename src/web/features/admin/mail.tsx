/** The outbox: every e-mail the store wrote, sent, failed or pending (decision 0012). */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { MAIL_STATUSES, type MailEntry } from "../../../contract/admin-schemas";
import { MAIL_ADMIN_TEXT } from "../../../contract/texts/mail";
import { api, withQuery } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { PERSONAL_KEY } from "../../lib/session";
import { AdminList, useFilters, when } from "./ui";

const PAGE_SIZE = 20;
const mailQuery = (f: { status?: string; page: number }) =>
  queryOptions({
    queryKey: [PERSONAL_KEY, "admin", "mail", f],
    queryFn: ({ signal }) => api.list<MailEntry>(withQuery("/api/admin/mail", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });

export default function MailPage() {
  const { values, page, set } = useFilters(["status"] as const);
  const status = values.status || undefined;
  const mail = useQuery(mailQuery({ ...(status ? { status } : {}), page }));
  return (
    <div>
      <PageTitle title={MAIL_ADMIN_TEXT.section} />
      <h2 className="mb-4 text-2xl font-semibold">{MAIL_ADMIN_TEXT.section}</h2>
      <label className="mb-4 flex items-center gap-2">
        <span className="text-sm font-medium">{MAIL_ADMIN_TEXT.filter}</span>
        <select className="select select-bordered select-sm" value={status ?? ""} onChange={(e) => set("status", e.target.value)}>
          <option value="">{MAIL_ADMIN_TEXT.all}</option>
          {MAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {MAIL_ADMIN_TEXT.statuses[s]}
            </option>
          ))}
        </select>
      </label>
      <AdminList
        query={mail}
        label={MAIL_ADMIN_TEXT.section}
        empty={MAIL_ADMIN_TEXT.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[MAIL_ADMIN_TEXT.columns.when, MAIL_ADMIN_TEXT.columns.to, MAIL_ADMIN_TEXT.columns.subject, MAIL_ADMIN_TEXT.columns.status, MAIL_ADMIN_TEXT.columns.attempts, MAIL_ADMIN_TEXT.columns.note]}
      >
        {(m) => (
          <tr key={m._id} data-testid="mail-row">
            <td>{when(m.createdAt)}</td>
            <td>{m.to}</td>
            <td>{m.subject}</td>
            <td>{MAIL_ADMIN_TEXT.statuses[m.status]}</td>
            <td>{m.attempts}</td>
            <td className="max-w-xs text-xs break-all">{m.lastError ?? (m.nextAttemptAt ? when(m.nextAttemptAt) : m.sentAt ? when(m.sentAt) : "")}</td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}
