/** Refunds: every refund the store owes or gave back, as the refund worker sees it (decision 0016). */
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { REFUND_STATUSES } from "../../../contract/schemas";
import type { AdminRefund } from "../../../contract/admin-schemas";
import { formatDollars } from "../../../contract/money";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { api, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { AdminList, OrderNumberLink, StatusFilterHeading, useFilters, when } from "./ui";

const PAGE_SIZE = 20;
const text = PAYMENT_TEXT.refunds;
const refundsQuery = (f: { status?: string; page: number }) =>
  queryOptions({
    queryKey: [PERSONAL_KEY, "admin", "refunds", f],
    queryFn: ({ signal }) => api.list<AdminRefund>(withQuery("/api/admin/refunds", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });

export default function RefundsPage() {
  const { values, page, set } = useFilters(["status"] as const);
  const status = values.status || undefined;
  const refunds = useQuery(refundsQuery({ ...(status ? { status } : {}), page }));
  return (
    <div>
      <StatusFilterHeading
        title={text.title}
        filterLabel={text.filter}
        allLabel={text.all}
        statuses={REFUND_STATUSES}
        statusLabels={text.statuses}
        value={status ?? ""}
        onChange={(s) => set("status", s)}
      />
      <AdminList
        query={refunds}
        label={text.title}
        empty={text.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[text.columns.date, text.order, text.columns.amount, text.columns.why, text.columns.status, text.tries, text.note]}
      >
        {(r) => (
          <tr key={r._id} data-testid="refund-row">
            <td>{when(r.createdAt)}</td>
            <td>
              <OrderNumberLink orderId={r.orderId} number={r.orderNumber} />
            </td>
            <td>{formatDollars(r.amount)}</td>
            <td>{text.kinds[r.kind]}</td>
            <td>{text.statuses[r.status]}</td>
            <td>{r.tries}</td>
            <td className="max-w-xs text-xs break-all">{r.lastError ?? (r.nextAttemptAt ? when(r.nextAttemptAt) : r.settledAt ? when(r.settledAt) : "")}</td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}
