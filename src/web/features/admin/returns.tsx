/** Returns: customers' requests to send units back, moved on by the owner (issue 40, DESIGN "Refunds and returns"). */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "react-toastify";
import { RETURN_STATUSES, type ReturnStatus } from "../../../contract/schemas";
import type { AdminReturn, ReturnMove } from "../../../contract/refund-schemas";
import { REFUND_TEXT } from "../../../contract/texts/refunds";
import { ReturnReasonCell, ReturnUnitsCell } from "../../components/ui/return-cells";
import { api, withQuery } from "../../lib/api";
import { PERSONAL_KEY } from "../../lib/session";
import { adminKeys } from "./api";
import { AdminList, OrderNumberLink, StatusFilterHeading, useFilters, when } from "./ui";

const PAGE_SIZE = 20;
const text = REFUND_TEXT.returns;
const returnsQuery = (f: { status?: string; page: number }) =>
  queryOptions({
    queryKey: [PERSONAL_KEY, "admin", "returns", f],
    queryFn: ({ signal }) => api.list<AdminReturn>(withQuery("/api/admin/returns", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });

const NEXT: Partial<Record<ReturnStatus, ReturnMove["status"][]>> = { requested: ["approved", "refused"], approved: ["received"] };
const LABEL: Record<ReturnMove["status"], string> = { approved: text.console.approve, refused: text.console.refuse, received: text.console.received };

function Moves({ r }: { r: AdminReturn }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState("");
  const move = useMutation({
    mutationFn: (input: ReturnMove) => api.post<AdminReturn>(`/api/admin/returns/${encodeURIComponent(r._id)}/status`, input),
    onSuccess: (moved) => {
      toast.success(text.console.moved(text.statuses[moved.status]));
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    meta: { toastError: true },
  });
  const next = NEXT[r.status] ?? [];
  if (next.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <input className="input input-xs" aria-label={`${text.console.note} (#${r.orderNumber})`} placeholder={text.console.note} value={note} onChange={(e) => setNote(e.target.value)} />
      <div className="flex flex-wrap gap-1">
        {next.map((status) => (
          <button key={status} type="button" className="btn btn-xs" disabled={move.isPending} onClick={() => move.mutate({ status, ...(note.trim() ? { note: note.trim() } : {}) })}>
            {LABEL[status]}
          </button>
        ))}
      </div>
    </div>
  );
}

export default function ReturnsPage() {
  const { values, page, set } = useFilters(["status"] as const);
  const status = values.status || undefined;
  const list = useQuery(returnsQuery({ ...(status ? { status } : {}), page }));
  const c = text.console;
  return (
    <div>
      <StatusFilterHeading
        title={c.title}
        filterLabel={c.filter}
        allLabel={c.all}
        statuses={RETURN_STATUSES}
        statusLabels={text.statuses}
        value={status ?? ""}
        onChange={(s) => set("status", s)}
      />
      <AdminList query={list} label={c.title} empty={c.empty} page={page} onPage={(p) => set("page", String(p))} columns={Object.values(c.columns)}>
        {(r) => (
          <tr key={r._id} data-testid="return-row" data-status={r.status}>
            <td>{when(r.createdAt)}</td>
            <td>
              <OrderNumberLink orderId={r.orderId} number={r.orderNumber} />
            </td>
            <td>{r.customer?.email ?? ""}</td>
            <ReturnUnitsCell lines={r.lines} />
            <ReturnReasonCell reason={r.reason} note={r.note} />
            <td data-testid="return-status">{text.statuses[r.status]}</td>
            <td>
              <Moves r={r} />
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}
