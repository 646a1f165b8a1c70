/**
 * The customer's returns of an order (issue 40, DESIGN "Refunds and returns"): each with its
 * state, and on a delivered order within RETURN_DAYS of its delivery the form that asks for one
 * (the contract's returnInputSchema checks it before it is sent; the server checks it again).
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "react-toastify";
import { RETURN_DAYS } from "../../../contract/constants";
import { returnInputSchema } from "../../../contract/refund-schemas";
import type { Order, OrderReturn } from "../../../contract/schemas";
import { REFUND_TEXT } from "../../../contract/texts/refunds";
import { ReturnReasonCell, ReturnUnitsCell } from "../../components/ui/return-cells";
import { api } from "../../lib/api";
import { orderQuery } from "../account";

const text = REFUND_TEXT.returns;
const DAY_MS = 24 * 60 * 60 * 1000;
const dateTime = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** Units of each line the customer may still return: bought less open returns and refunds that did not fail. */
function unitsLeft(order: Order): Map<string, number> {
  const left = new Map(order.lines.map((l) => [l.toolId, l.quantity]));
  for (const r of order.returns ?? []) if (r.status !== "refused" && r.status !== "refunded") for (const l of r.lines) left.set(l.toolId, (left.get(l.toolId) ?? 0) - l.quantity);
  for (const r of order.refunds ?? []) if (r.status !== "failed") for (const l of r.lines) left.set(l.toolId, (left.get(l.toolId) ?? 0) - l.quantity);
  return left;
}

function ReturnForm({ order }: { order: Order }) {
  const queryClient = useQueryClient();
  const left = unitsLeft(order);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (input: unknown) => api.post<OrderReturn>(`/api/order/${encodeURIComponent(order._id)}/returns`, input),
    onSuccess: () => {
      toast.success(text.page.sent);
      setQuantities({});
      setReason("");
      void queryClient.invalidateQueries({ queryKey: orderQuery(order._id).queryKey });
    },
    onError: (error) => setProblem(error.message),
  });
  if ([...left.values()].every((n) => n <= 0)) return null;
  return (
    <form
      aria-labelledby="return-form"
      className="border-base-300 rounded-box grid max-w-xl gap-3 border p-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = returnInputSchema.safeParse({
          lines: Object.entries(quantities)
            .filter(([, q]) => q > 0)
            .map(([toolId, quantity]) => ({ toolId, quantity })),
          reason,
        });
        if (!parsed.success) {
          setProblem(parsed.error.issues[0]?.message ?? text.linesRequired);
          return;
        }
        setProblem(null);
        ask.mutate(parsed.data);
      }}
    >
      <h3 id="return-form" className="font-semibold">
        {text.page.ask}
      </h3>
      <p className="text-sm">{text.page.intro(RETURN_DAYS)}</p>
      {order.lines.map((l) => {
        const max = Math.max(0, left.get(l.toolId) ?? 0);
        return (
          <label key={l.toolId} className="flex flex-wrap items-center justify-between gap-2">
            <span>{text.page.quantity(l.name, max)}</span>
            <input
              type="number"
              className="input input-sm w-24"
              min={0}
              max={max}
              disabled={max === 0}
              value={quantities[l.toolId] ?? 0}
              onChange={(e) => setQuantities((q) => ({ ...q, [l.toolId]: Math.max(0, Math.min(max, Math.trunc(Number(e.target.value) || 0))) }))}
            />
          </label>
        );
      })}
      <label className="flex flex-col gap-1">
        <span>{text.page.reason}</span>
        <input type="text" className="input input-sm w-full" value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem && (
        <p role="alert" className="text-error" data-testid="return-problem">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-outline btn-sm" disabled={ask.isPending}>
          {text.page.submit}
        </button>
      </div>
    </form>
  );
}

export function OrderReturns({ order }: { order: Order }) {
  const returns = order.returns ?? [];
  const deliveredAt = [...order.history].reverse().find((e) => e.status === "delivered")?.at;
  // The moment the page was shown (read once, as the order was): within the window from the delivery, the form is offered.
  const [shownAt] = useState(() => Date.now());
  const open = order.status === "delivered" && deliveredAt !== undefined && shownAt - new Date(deliveredAt).getTime() <= RETURN_DAYS * DAY_MS;
  if (returns.length === 0 && !open) return null;
  return (
    <section aria-labelledby="order-returns" className="flex flex-col gap-3" data-testid="order-returns">
      <h2 id="order-returns" className="text-lg font-semibold">
        {text.page.title}
      </h2>
      {returns.length > 0 && (
        <div className="overflow-x-auto">
          <table className="table-sm table" aria-labelledby="order-returns">
            <thead className="text-base-content">
              <tr>
                {Object.values(text.page.columns).map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {returns.map((r) => (
                <tr key={r._id} data-testid="order-return" data-status={r.status}>
                  <td>{dateTime(r.updatedAt)}</td>
                  <ReturnUnitsCell lines={r.lines} />
                  <ReturnReasonCell reason={r.reason} note={r.note} />
                  <td data-testid="return-status">{text.statuses[r.status]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {open && <ReturnForm order={order} />}
    </section>
  );
}
