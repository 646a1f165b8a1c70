import type { OrderStatus } from "../../../contract/order-lifecycle";
import { ORDER_TEXT } from "../../../contract/texts/orders";

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });
export const orderDate = (iso: string) => dateFormat.format(new Date(iso));

// A tint and a border of the status's colour; the text keeps the page's colour (contrast).
const BADGE: Record<OrderStatus, string> = {
  pending: "border-warning bg-warning/15",
  paid: "border-info bg-info/15",
  shipped: "border-primary bg-primary/15",
  delivered: "border-success bg-success/15",
  cancelled: "border-base-content/40 bg-base-200",
  awaiting_payment: "border-warning bg-warning/15",
  awaiting_approval: "border-warning bg-warning/15",
  refunding: "border-warning bg-warning/15",
};

/** An order's status in words, coloured by where it stands. */
export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`badge text-base-content ${BADGE[status]}`} data-testid="order-status" data-status={status}>
      {ORDER_TEXT.status[status]}
    </span>
  );
}
