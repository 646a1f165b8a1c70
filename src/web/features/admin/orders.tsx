import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import { nextStatuses, ORDER_STATUSES } from "../../../contract/order-lifecycle";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { orderQuery, ordersQuery, useMoveOrder } from "./api";
import { AdminList, SEARCH_DEBOUNCE_MS, Table, useDebouncedCallback, useFilters, when } from "./ui";

const ordersText = ADMIN_TEXT.orders;

export default function OrdersPage() {
  const { values, page, set } = useFilters(["status", "customer"] as const);
  const orders = useQuery(ordersQuery({ ...values, page }));
  const search = useDebouncedCallback((customer: string) => set("customer", customer), SEARCH_DEBOUNCE_MS);
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.orders} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.orders}</h2>
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="form-control">
          <span className="label-text">{ordersText.status}</span>
          <select className="select select-bordered" value={values.status} onChange={(e) => set("status", e.target.value)}>
            <option value="">{ordersText.allStatuses}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ADMIN_TEXT.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="form-control">
          <span className="label-text">{ordersText.customer}</span>
          <input type="search" className="input input-bordered" defaultValue={values.customer} onChange={(e) => search(e.target.value)} />
        </label>
      </div>
      <AdminList
        query={orders}
        label={ADMIN_TEXT.sections.orders}
        empty={ordersText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[ordersText.columns.number, ordersText.columns.date, ordersText.columns.customer, ordersText.columns.tools, ordersText.columns.total, ordersText.columns.status]}
      >
        {(o) => (
          <tr key={o._id} data-testid="admin-order-row">
            <td>
              <Link className="link" to={`/admin/orders/${o._id}`}>
                #{o.number}
              </Link>
            </td>
            <td>{when(o.createdAt)}</td>
            {/* A deleted account's order has no e-mail: 'Former customer' (decision 0012). */}
            <td>{o.customer.email || o.customer.name}</td>
            <td>{o.lines.map((l) => `${l.name} × ${l.quantity}`).join(", ")}</td>
            <td>{formatDollars(o.total)}</td>
            <td>{ADMIN_TEXT.statuses[o.status]}</td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

/** One order: lines, delivery, payment, history, and only the moves the lifecycle allows. */
export function OrderPage() {
  const { id = "" } = useParams();
  const order = useQuery(orderQuery(id));
  const move = useMoveOrder();
  return (
    <div>
      <PageTitle title={order.data ? ordersText.title(order.data.number) : null} />
      <Link className="link mb-4 inline-block" to="/admin/orders">
        {ordersText.back}
      </Link>
      <QueryView query={order} isEmpty={() => false} empty={null}>
        {(o) => {
          const moves = nextStatuses(o.status, "admin");
          return (
            <div className="grid gap-6">
              <div>
                <h2 className="text-2xl font-semibold">{ordersText.title(o.number)}</h2>
                <p>
                  {o.customer.email ? `${o.customer.name} · ${o.customer.email}` : o.customer.name} · <span data-testid="order-status">{ADMIN_TEXT.statuses[o.status]}</span>
                </p>
              </div>
              <section aria-label={ordersText.moves}>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.moves}</h3>
                {moves.length === 0 ? (
                  <p>{ordersText.noMoves}</p>
                ) : (
                  <div className="flex flex-wrap gap-2">
                    {moves.map((status) => (
                      <button
                        key={status}
                        type="button"
                        className={status === "cancelled" ? "btn btn-error btn-outline" : "btn btn-primary"}
                        disabled={move.isPending}
                        onClick={() =>
                          move.mutate(
                            { id: o._id, status },
                            { onSuccess: () => toast.success(ordersText.moved(ADMIN_TEXT.statuses[status])) },
                          )
                        }
                      >
                        {ADMIN_TEXT.statuses[status]}
                      </button>
                    ))}
                  </div>
                )}
              </section>
              <section>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.lines}</h3>
                <Table label={ordersText.lines}>
                  <thead className="text-base-content">
                    <tr>
                      <th scope="col">{ordersText.columns.tools}</th>
                      <th scope="col">{ADMIN_TEXT.tools.columns.stock}</th>
                      <th scope="col">{ADMIN_TEXT.tools.columns.price}</th>
                      <th scope="col">{ordersText.columns.total}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.lines.map((l) => (
                      <tr key={l.toolId}>
                        <td>{l.name}</td>
                        <td>{l.quantity}</td>
                        <td>{formatDollars(l.unitPrice)}</td>
                        <td>{formatDollars(l.lineTotal)}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
                <p className="mt-2 font-semibold">
                  {ordersText.columns.total}: {formatDollars(o.total)}
                </p>
              </section>
              <section>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.delivery}</h3>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4">
                  <dt>{ordersText.address}</dt>
                  <dd>{o.address || ordersText.none}</dd>
                  <dt>{ordersText.phone}</dt>
                  <dd>{o.phone || ordersText.none}</dd>
                  <dt>{ordersText.payment}</dt>
                  <dd>{ordersText.payments[o.paymentMethod]}</dd>
                  <dt>{ordersText.note}</dt>
                  <dd>{o.note || ordersText.none}</dd>
                </dl>
              </section>
              <section>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.history}</h3>
                <ol data-testid="order-history">
                  {o.history.map((h, i) => (
                    <li key={i}>
                      {when(h.at)}: {ADMIN_TEXT.statuses[h.status]} ({ordersText.by[h.by]})
                    </li>
                  ))}
                </ol>
              </section>
            </div>
          );
        }}
      </QueryView>
    </div>
  );
}
