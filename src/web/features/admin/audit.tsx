import { useQuery } from "@tanstack/react-query";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { PageTitle } from "../../lib/page-title";
import { auditQuery } from "./api";
import { AdminList, useFilters, when } from "./ui";

const auditText = ADMIN_TEXT.audit;

const brief = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value).slice(0, 160));

export default function AuditPage() {
  const { page, set } = useFilters([] as const);
  const audit = useQuery(auditQuery({ page }));
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.audit} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.audit}</h2>
      <AdminList
        query={audit}
        label={ADMIN_TEXT.sections.audit}
        empty={auditText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[auditText.columns.when, auditText.columns.who, auditText.columns.action, auditText.columns.record, auditText.columns.change]}
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
