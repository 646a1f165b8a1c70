/**
 * What was given back of an order (DESIGN "Refunds and returns"): each refund with when, what
 * (units and shipping), how much, why, how it stands and its credit note, and the total refunded.
 * The customer's order page and the console's show the same list.
 */
import { formatDollars } from "../../../contract/money";
import type { Order, OrderRefund } from "../../../contract/schemas";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { REFUND_TEXT } from "../../../contract/texts/refunds";
import { DataTable } from "./data-table";

const text = REFUND_TEXT.page;
const dateTime = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/** A refund's credit note, as a download. */
export const refundCreditNoteUrl = (orderId: string, refundId: string) =>
  `/api/order/${encodeURIComponent(orderId)}/invoice?document=credit-note&refund=${encodeURIComponent(refundId)}`;

function what(r: OrderRefund): string[] {
  const parts = r.lines.map((l) => text.units(l.quantity, l.name));
  if (r.shipping > 0 || (r.kind === "refund" && r.lines.length === 0)) parts.push(`${text.shipping} ${formatDollars(r.shipping)}`);
  if (parts.length === 0) parts.push(PAYMENT_TEXT.refunds.kinds[r.kind]);
  return parts;
}

export function OrderRefundList({ order, headingLevel = 2 }: { order: Pick<Order, "_id" | "refunds" | "refundedTotal">; headingLevel?: 2 | 3 }) {
  const refunds = order.refunds ?? [];
  if (refunds.length === 0) return null;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby="order-refunds" data-testid="order-refunds">
      <Heading id="order-refunds" className="mb-2 text-lg font-semibold">
        {text.title}
      </Heading>
      <DataTable labelledBy="order-refunds" columns={text.columns} small>
        {refunds.map((r) => (
          <tr key={r._id} data-testid="order-refund" data-status={r.status}>
            <td>{dateTime(r.createdAt)}</td>
            <td>
              {what(r).map((part) => (
                <span key={part} className="block">
                  {part}
                </span>
              ))}
            </td>
            <td data-testid="refund-amount">{formatDollars(r.amount)}</td>
            <td>
              {r.kind === "refund" ? r.reason : PAYMENT_TEXT.refunds.kinds[r.kind]}
              {r.kind !== "refund" && r.reason && <span className="block text-xs">{r.reason}</span>}
            </td>
            <td data-testid="refund-status">
              {PAYMENT_TEXT.refunds.statuses[r.status]}
              {r.error && r.status !== "succeeded" && <span className="text-error block text-xs">{r.error}</span>}
            </td>
            <td>
              {r.creditNoteNumber ? (
                <a className="link" href={refundCreditNoteUrl(order._id, r._id)} download data-testid="refund-credit-note">
                  {text.creditNoteLink(r.creditNoteNumber)}
                </a>
              ) : (
                text.none
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <p className="mt-2" data-testid="order-refunded-total">
        {text.refundedTotal(formatDollars(order.refundedTotal ?? 0))}
      </p>
    </section>
  );
}
