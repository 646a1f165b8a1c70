import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import { canMove } from "../../../contract/order-lifecycle";
import type { Order } from "../../../contract/schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { MoneyTotals, orderMoneyLabels } from "../../components/ui/money-totals";
import { QueryView } from "../../components/ui/states";
import { addressLines, ordersQuery, useCancelOrder } from "../account";
import { StatusBadge, orderDate } from "./order-status";
import { PageTitle } from "../../lib/page-title";

const ordersText = DASHBOARD_TEXT.orders;
const ROW = "border-base-300 rounded-box mb-4 block border p-2 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0";
const CELL =
  "flex items-start justify-between gap-4 py-2 text-right before:font-medium before:text-left before:content-[attr(data-label)] md:table-cell md:py-4 md:text-left md:before:content-none";

/** Router state carried to My Orders after an order is placed. */
export interface PlacedState {
  placed?: number;
}

/** How it goes and where: the method's name and the address (an old order's single street line as it was typed). */
const deliveryOf = (order: Order) => [order.shippingMethodName, addressLines(order).join(", ")].filter((part) => part !== "").join(" · ");
const toolsOf = (order: Order) => (order.lines.length > 1 ? `${order.name} ${ordersText.moreTools(order.lines.length - 1)}` : order.name);

export default function MyOrders() {
  const orders = useQuery(ordersQuery());
  useToastForPlacedOrder();

  // The cancelled order leaves the open list at once; the catalogue's stock fetches again.
  const cancel = useCancelOrder({ onSuccess: () => toast.success(ordersText.cancelled), onError: (error) => toast.error(error.message) });
  // The order whose cancel waits for the answer to 'Are You Sure ?'.
  const [asking, setAsking] = useState<Order | null>(null);

  const onConfirm = () => {
    if (asking) cancel.mutate(asking._id);
    setAsking(null);
  };

  return (
    <div>
      <PageTitle title={DASHBOARD_TEXT.myOrders} />
      <h2 className="mb-4 text-2xl font-semibold">{DASHBOARD_TEXT.myOrders}</h2>
      <QueryView query={orders} isEmpty={(list) => list.length === 0} empty={ordersText.empty}>
        {(list) => {
          const open = list.filter((o) => o.status !== "cancelled");
          const cancelled = list.filter((o) => o.status === "cancelled");
          return (
            <>
              {open.length === 0 ? (
                <p className="text-base-content/80 rounded-box bg-base-200 my-6 p-8 text-center">{ordersText.noOpenOrders}</p>
              ) : (
                <OpenOrders orders={open} cancelling={cancel.isPending ? cancel.variables : undefined} onDelete={setAsking} />
              )}
              {cancelled.length > 0 && <CancelledOrders orders={cancelled} />}
            </>
          );
        }}
      </QueryView>
      <ConfirmDialog
        open={asking !== null}
        question={ordersText.confirm}
        confirmLabel={ordersText.yes}
        cancelLabel={ordersText.no}
        onConfirm={onConfirm}
        onCancel={() => setAsking(null)}
      />
    </div>
  );
}

/** After 'Ordered' (or a checkout) lands here: a toast with the new order's number, once. */
function useToastForPlacedOrder() {
  const location = useLocation();
  const navigate = useNavigate();
  const shown = useRef<number | null>(null);
  const placed = (location.state as PlacedState | null)?.placed;
  useEffect(() => {
    if (placed === undefined || shown.current === placed) return;
    shown.current = placed;
    toast.success(ordersText.placed(placed));
    // Forget it, so a reload or Back does not announce the order again.
    navigate(location.pathname, { replace: true, state: null });
  }, [placed, navigate, location.pathname]);
}

function OpenOrders({ orders, cancelling, onDelete }: { orders: Order[]; cancelling: string | undefined; onDelete: (order: Order) => void }) {
  // On a phone each order is a card of label/value lines (the labels are CSS, so the cells'
  // text stays the values); from md up it is a plain table.
  return (
    <table className="table" data-testid="orders-table">
      <thead className="text-base-content hidden md:table-header-group">
        <tr>
          <th scope="col">{ordersText.number}</th>
          <th scope="col">{ordersText.tool}</th>
          <th scope="col">{ordersText.quantity}</th>
          <th scope="col">{ordersText.total}</th>
          <th scope="col">{ordersText.status}</th>
          <th scope="col">{ordersText.date}</th>
          <th scope="col">
            <span className="sr-only">{ordersText.delete}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order._id} className={ROW} data-testid="order-row" data-order-id={order._id}>
            <td className={CELL} data-label={ordersText.number}>
              <span className="text-right md:text-left">
                <span className="font-semibold">#{order.number}</span>
                <span className="text-base-content/80 block font-mono text-xs break-all md:break-normal md:whitespace-nowrap" data-testid="order-id">
                  {order._id}
                </span>
                <span className="text-base-content/80 mt-1 block text-xs" data-testid="order-row-delivery">
                  {deliveryOf(order)}
                </span>
              </span>
            </td>
            <td className={CELL} data-label={ordersText.tool}>
              {toolsOf(order)}
            </td>
            <td className={CELL} data-label={ordersText.quantity}>
              {order.lines.reduce((sum, line) => sum + line.quantity, 0)}
            </td>
            <td className={CELL} data-label={ordersText.total}>
              <span className="min-w-44 md:min-w-60">
                <MoneyTotals compact amounts={order} labels={orderMoneyLabels(order)} totalTestId="order-row-total" label={MONEY_TEXT.orderBreakdown(order.number)} />
              </span>
            </td>
            <td className={CELL} data-label={ordersText.status}>
              <StatusBadge status={order.status} />
            </td>
            <td className={CELL} data-label={ordersText.date}>
              {orderDate(order.createdAt)}
            </td>
            <td className={`${CELL} justify-end gap-2 before:content-none`}>
              <Link to={`/dashboard/orders/${encodeURIComponent(order._id)}`} className="btn btn-ghost btn-sm" aria-label={ordersText.detailsLabel(order.number)}>
                {ordersText.details}
              </Link>
              {canMove(order.status, "cancelled", "customer") && (
                <button
                  type="button"
                  className="btn btn-error btn-sm"
                  disabled={cancelling === order._id}
                  aria-label={ordersText.deleteLabel(order.number)}
                  onClick={() => onDelete(order)}
                >
                  {ordersText.delete}
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Cancelled orders, folded away: the customer's history, without the open list's clutter. */
function CancelledOrders({ orders }: { orders: Order[] }) {
  return (
    <details className="border-base-300 rounded-box mt-8 border p-4" data-testid="cancelled-orders">
      <summary className="cursor-pointer font-semibold">{ordersText.cancelledSection(orders.length)}</summary>
      <div className="mt-2">
        <ul className="divide-base-300 divide-y">
          {orders.map((order) => (
            <li key={order._id} className="flex flex-wrap items-center justify-between gap-2 py-3" data-testid="cancelled-order">
              <span>
                <span className="font-semibold">#{order.number}</span> · {toolsOf(order)} · {formatDollars(order.total)} · {orderDate(order.createdAt)}
              </span>
              <span className="flex items-center gap-2">
                <StatusBadge status={order.status} />
                <Link to={`/dashboard/orders/${encodeURIComponent(order._id)}`} className="btn btn-ghost btn-sm" aria-label={ordersText.detailsLabel(order.number)}>
                  {ordersText.details}
                </Link>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
