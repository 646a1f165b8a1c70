import { useQuery } from "@tanstack/react-query";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import type { Order } from "../../../contract/schemas";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { QueryView } from "../../components/ui/states";
import { ordersQuery, useCancelOrder } from "../account";

const T = DASHBOARD_TEXT.orders;
const ROW = "border-base-300 rounded-box mb-4 block border p-2 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0";
const CELL =
  "flex items-start justify-between gap-4 py-2 text-right before:font-medium before:text-left before:content-[attr(data-label)] md:table-cell md:py-4 md:text-left md:before:content-none";
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

export default function MyOrders() {
  const orders = useQuery({ ...ordersQuery(), select: (list: Order[]) => list.filter((o) => o.status !== "cancelled") });

  // The cancelled order leaves the list at once; the catalogue's stock fetches again.
  const cancel = useCancelOrder({ onSuccess: () => toast.success(T.cancelled), onError: (error) => toast.error(error.message) });

  const onDelete = (order: Order) => {
    // The spec's confirmation, word for word.
    if (window.confirm(T.confirm)) cancel.mutate(order._id);
  };

  return (
    <div>
      <h2 className="mb-4 text-2xl font-semibold">{DASHBOARD_TEXT.myOrders}</h2>
      <QueryView query={orders} isEmpty={(list) => list.length === 0} empty={T.empty}>
        {(list) => (
          // On a phone each order is a card of label/value lines (the labels are CSS, so the
          // cells' text stays the values); from md up it is a plain table.
          <table className="table" data-testid="orders-table">
            <thead className="text-base-content hidden md:table-header-group">
              <tr>
                <th scope="col">{T.number}</th>
                <th scope="col">{T.tool}</th>
                <th scope="col">{T.quantity}</th>
                <th scope="col">{T.total}</th>
                <th scope="col">{T.status}</th>
                <th scope="col">{T.date}</th>
                <th scope="col">
                  <span className="sr-only">{T.delete}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((order) => (
                <tr key={order._id} className={ROW} data-testid="order-row" data-order-id={order._id}>
                  <td className={CELL} data-label={T.number}>
                    <span className="text-right md:text-left">
                      <span className="font-semibold">#{order.number}</span>
                      <span className="text-base-content/80 block font-mono text-xs break-all md:break-normal md:whitespace-nowrap" data-testid="order-id">
                        {order._id}
                      </span>
                    </span>
                  </td>
                  <td className={CELL} data-label={T.tool}>
                    {order.name}
                  </td>
                  <td className={CELL} data-label={T.quantity}>
                    {order.quantity}
                  </td>
                  <td className={CELL} data-label={T.total}>
                    {formatDollars(order.total)}
                  </td>
                  <td className={CELL} data-label={T.status}>
                    <span className="badge badge-outline capitalize">{order.status}</span>
                  </td>
                  <td className={CELL} data-label={T.date}>
                    {dateFormat.format(new Date(order.createdAt))}
                  </td>
                  <td className={`${CELL} justify-end before:content-none`}>
                    {order.status === "pending" && (
                      <button
                        type="button"
                        className="btn btn-error btn-sm"
                        disabled={cancel.isPending && cancel.variables === order._id}
                        aria-label={T.deleteLabel(order.number)}
                        onClick={() => onDelete(order)}
                      >
                        {T.delete}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </div>
  );
}
