import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import { nextStatuses, ORDER_STATUSES } from "../../../contract/order-lifecycle";
import type { AdminOrder } from "../../../contract/admin-schemas";
import { COUNTRIES } from "../../../contract/geo";
import { ADMIN_MONEY_TEXT, ADMIN_TEXT } from "../../../contract/texts/admin";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { orderQuery, ordersQuery, useMoveOrder, useRefundOrder } from "./api";
import { OrderRefundList } from "../../components/ui/order-refunds";
import { REFUND_REASON_MAX, refundInputSchema } from "../../../contract/refund-schemas";
import { REFUND_TEXT } from "../../../contract/texts/refunds";
import { percentOf } from "./money-format";
import { OrderShipmentList } from "../../components/ui/order-shipments";
import { stillToCome } from "../../../contract/shipment-schemas";
import { SHIPMENT_TEXT } from "../../../contract/texts/shipments";
import { mayShip, ShipForm, ShipmentActions } from "./ship-form";
import { AdminList, SEARCH_DEBOUNCE_MS, useDebouncedCallback, useFilters, when } from "./ui";

const ordersText = ADMIN_TEXT.orders;
const moneyText = ADMIN_MONEY_TEXT.orders;

const invoiceUrl = (id: string) => `/api/order/${encodeURIComponent(id)}/invoice`;
const creditNoteUrl = (id: string) => `${invoiceUrl(id)}?document=credit-note`;

/** Each money line of an order, as the customer's invoice shows them. */
function moneyRows(o: AdminOrder): { label: string; value: string; testId: string }[] {
  const shippingName = o.shippingMethodName || (o.shippingMethod === "pickup" ? moneyText.pickup : ordersText.none);
  const taxLabel = o.taxExemptCertificate
    ? `${MONEY_TEXT.tax} (${moneyText.exempt(o.taxExemptCertificate)})`
    : o.taxRate
      ? MONEY_TEXT.taxWithRate(o.taxRate.name, percentOf(o.taxRate.rateBasisPoints))
      : `${MONEY_TEXT.tax} (${moneyText.noTax})`;
  return [
    { label: MONEY_TEXT.subtotal, value: formatDollars(o.subtotal), testId: "order-subtotal" },
    { label: o.promoCode ? MONEY_TEXT.discountWithCode(o.promoCode) : MONEY_TEXT.discount, value: o.discount ? `−${formatDollars(o.discount)}` : formatDollars(0), testId: "order-discount" },
    { label: MONEY_TEXT.shippingWithMethod(shippingName), value: formatDollars(o.shipping), testId: "order-shipping" },
    { label: taxLabel, value: formatDollars(o.tax), testId: "order-tax" },
    { label: MONEY_TEXT.total, value: formatDollars(o.total), testId: "order-total" },
  ];
}

/** What the owner must look at about a payment, in words, with its code (what the provider's dashboard and the logs say). */
const paymentProblemText = (code: string) => {
  const words = PAYMENT_TEXT.problems[code];
  return `${moneyText.paymentProblem}: ${words ? `${words} (${code})` : code}`;
};

/** The structured address, or the single line an order from before issue 31 kept. */
function addressLines(o: AdminOrder): string[] {
  const country = o.country ? (COUNTRIES[o.country]?.name ?? o.country) : "";
  const place = [o.city, [o.region, o.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return [o.address, place, country].filter(Boolean);
}

/** The invoice and credit note, each a download. */
export function OrderDocuments({ order }: { order: Pick<AdminOrder, "_id" | "invoiceNumber" | "creditNoteNumber"> }) {
  if (!order.invoiceNumber && !order.creditNoteNumber) return <span>{ordersText.none}</span>;
  return (
    <span className="flex flex-col gap-1">
      {order.invoiceNumber && (
        <a className="link" href={invoiceUrl(order._id)} download aria-label={`${MONEY_TEXT.downloadInvoice} ${order.invoiceNumber}`}>
          {order.invoiceNumber}
        </a>
      )}
      {order.creditNoteNumber && (
        <a className="link" href={creditNoteUrl(order._id)} download aria-label={`${MONEY_TEXT.downloadCreditNote} ${order.creditNoteNumber}`}>
          {order.creditNoteNumber}
        </a>
      )}
    </span>
  );
}

export default function OrdersPage() {
  const { values, page, set } = useFilters(["status", "customer"] as const);
  const orders = useQuery(ordersQuery({ ...values, page }));
  const search = useDebouncedCallback((customer: string) => set("customer", customer), SEARCH_DEBOUNCE_MS);
  // What waits to ship (issue 52): oldest first, each row saying what it waits for.
  const toShip = values.status === "to_ship";
  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.orders} />
      <h2 className="mb-4 text-2xl font-semibold">{ADMIN_TEXT.sections.orders}</h2>
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="form-control">
          <span className="label-text">{ordersText.status}</span>
          <select className="select select-bordered" value={values.status} onChange={(e) => set("status", e.target.value)}>
            <option value="">{ordersText.allStatuses}</option>
            <option value="to_ship">{SHIPMENT_TEXT.toShip.filter}</option>
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
        empty={toShip ? SHIPMENT_TEXT.toShip.none : ordersText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[
          ordersText.columns.number,
          ordersText.columns.date,
          ordersText.columns.customer,
          toShip ? SHIPMENT_TEXT.toShip.waitsFor : ordersText.columns.tools,
          MONEY_TEXT.subtotal,
          MONEY_TEXT.discount,
          MONEY_TEXT.shipping,
          MONEY_TEXT.tax,
          ordersText.columns.total,
          ordersText.columns.status,
          moneyText.documents,
        ]}
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
            <td>{toShip ? stillToCome(o.lines).map((l) => SHIPMENT_TEXT.page.unit(l.quantity, l.name)).join(", ") : o.lines.map((l) => `${l.name} × ${l.quantity}`).join(", ")}</td>
            <td>{formatDollars(o.subtotal)}</td>
            <td>
              {o.discount ? `−${formatDollars(o.discount)}` : formatDollars(0)}
              {o.promoCode && <span className="block font-mono text-xs">{o.promoCode}</span>}
            </td>
            <td>
              {formatDollars(o.shipping)}
              <span className="block text-xs">{o.shippingMethodName || (o.shippingMethod === "pickup" ? moneyText.pickup : "")}</span>
            </td>
            <td>{formatDollars(o.tax)}</td>
            <td className="font-semibold">{formatDollars(o.total)}</td>
            <td>
              {ADMIN_TEXT.statuses[o.status]}
              {o.paymentProblem && <span className="badge text-base-content border-error bg-error/15 mt-1 block h-auto">{paymentProblemText(o.paymentProblem)}</span>}
            </td>
            <td>
              <OrderDocuments order={o} />
            </td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

const REFUND_POLL_MS = 1000;
/** An order whose money the store holds may be refunded by lines. */
const REFUNDABLE = new Set(["paid", "shipped", "delivered"]);
const refundPending = (o: AdminOrder | undefined) => o?.status === "refunding" || (o?.refunds ?? []).some((r) => r.status === "pending");

/** The money given back for an order: each refund, what, why, how it stands at the provider, and its credit note. */
function OrderRefunds({ order }: { order: AdminOrder }) {
  return (
    <div>
      {refundPending(order) && <p className="mb-2">{PAYMENT_TEXT.refunds.waiting}</p>}
      <OrderRefundList order={order} headingLevel={3} />
    </div>
  );
}

/** Units of each line still refundable: bought less what refunds that did not fail gave back. */
function unitsLeft(o: AdminOrder): Map<string, number> {
  const left = new Map(o.lines.map((l) => [l.toolId, l.quantity]));
  for (const r of o.refunds ?? []) {
    if (r.status === "failed") continue;
    for (const l of r.lines) left.set(l.toolId, (left.get(l.toolId) ?? 0) - l.quantity);
  }
  return left;
}

const shippingLeft = (o: AdminOrder) => !(o.refunds ?? []).some((r) => r.kind === "refund" && r.status !== "failed" && r.shipping > 0) && o.shipping > 0;

/** The owner's refund of lines (DESIGN "Refunds and returns"): units per line, the shipping, restock, and why. */
function RefundForm({ order }: { order: AdminOrder }) {
  const text = REFUND_TEXT.form;
  const left = unitsLeft(order);
  const canShipping = shippingLeft(order);
  const [quantities, setQuantities] = useState<Record<string, number>>({});
  const [shipping, setShipping] = useState(false);
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState("");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [problem, setProblem] = useState<string | null>(null);
  const [returnId, setReturnId] = useState("");
  const received = (order.returns ?? []).filter((r) => r.status === "received");
  const refund = useRefundOrder();
  const nothingLeft = [...left.values()].every((n) => n <= 0) && !canShipping;
  if (nothingLeft) return <p data-testid="refund-nothing-left">{text.nothingLeft}</p>;
  return (
    <form
      aria-labelledby="refund-form"
      className="border-base-300 rounded-box grid max-w-xl gap-3 border p-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = refundInputSchema.safeParse({
          lines: Object.entries(quantities)
            .filter(([, q]) => q > 0)
            .map(([toolId, quantity]) => ({ toolId, quantity })),
          shipping,
          restock,
          reason,
          ...(returnId ? { returnId } : {}),
        });
        if (!parsed.success) {
          setProblem(parsed.error.issues[0]?.message ?? REFUND_TEXT.linesOrShipping);
          return;
        }
        setProblem(null);
        refund.mutate(
          { id: order._id, input: parsed.data, key },
          {
            onSuccess: (result) => {
              toast.success(text.done(formatDollars(result.refund.amount)));
              setQuantities({});
              setShipping(false);
              setReason("");
              setReturnId("");
              setKey(crypto.randomUUID());
            },
            onError: (error) => {
              setProblem(error.message);
              // A refusal (4xx) used the key for nothing: the next try is a new refund.
              if (error instanceof ApiRequestError && error.status < 500) setKey(crypto.randomUUID());
            },
          },
        );
      }}
    >
      <h3 id="refund-form" className="text-lg font-semibold">
        {text.title}
      </h3>
      <p className="text-sm">{text.intro}</p>
      {received.length > 0 && (
        <label className="flex flex-col gap-1">
          <span>{REFUND_TEXT.returns.console.forReturn}</span>
          <select
            className="select select-sm"
            value={returnId}
            onChange={(e) => {
              setReturnId(e.target.value);
              const chosen = received.find((r) => r._id === e.target.value);
              if (chosen) {
                // What of the return is not refunded yet (a return may be refunded in parts).
                setQuantities(Object.fromEntries(chosen.lines.map((l) => [l.toolId, l.quantity - l.refundedQuantity])));
                setReason(chosen.reason);
              }
            }}
          >
            <option value="">{REFUND_TEXT.returns.console.noReturn}</option>
            {received.map((r) => (
              <option key={r._id} value={r._id}>
                {r.lines.map((l) => REFUND_TEXT.page.units(l.quantity, l.name)).join(", ")} · {r.reason}
              </option>
            ))}
          </select>
        </label>
      )}
      {order.lines.map((l) => {
        const max = Math.max(0, left.get(l.toolId) ?? 0);
        return (
          <label key={l.toolId} className="flex flex-wrap items-center justify-between gap-2">
            <span>{text.quantity(l.name, max)}</span>
            <input
              type="number"
              className="input input-sm w-24"
              min={0}
              max={max}
              step={1}
              disabled={max === 0}
              value={quantities[l.toolId] ?? 0}
              onChange={(e) => setQuantities((q) => ({ ...q, [l.toolId]: Math.max(0, Math.min(max, Math.trunc(Number(e.target.value) || 0))) }))}
            />
          </label>
        );
      })}
      {canShipping && (
        <label className="flex items-center gap-2">
          <input type="checkbox" className="checkbox checkbox-sm" checked={shipping} onChange={(e) => setShipping(e.target.checked)} />
          {text.shipping(formatDollars(order.shipping))}
        </label>
      )}
      <label className="flex items-center gap-2">
        <input type="checkbox" className="checkbox checkbox-sm" checked={restock} onChange={(e) => setRestock(e.target.checked)} />
        {text.restock}
      </label>
      <label className="flex flex-col gap-1">
        <span>{text.reason}</span>
        <input type="text" className="input input-sm w-full" value={reason} maxLength={REFUND_REASON_MAX} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem && (
        <p role="alert" className="text-error" data-testid="refund-problem">
          {problem}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-warning" disabled={refund.isPending}>
          {text.submit}
        </button>
      </div>
    </form>
  );
}

/** One order: lines, delivery, payment, history, and only the moves the lifecycle allows. */
export function OrderPage() {
  const { id = "" } = useParams();
  // While a refund waits for the provider (the order `refunding`, or a refund pending), the page asks again by itself.
  const order = useQuery({ ...orderQuery(id), refetchInterval: (query) => (refundPending(query.state.data) ? REFUND_POLL_MS : false) });
  const move = useMoveOrder();
  const queryClient = useQueryClient();
  // A refund the provider refused leaves the order paid: its reason stays on the page, not only in a toast
  // (refused by the refund worker now, decision 0016; an older server answered the cancel itself with 409 REFUND_REFUSED).
  const refusedNow = move.error instanceof ApiRequestError && move.error.code === "REFUND_REFUSED" ? move.error.message : null;
  const refusedBefore = order.data?.status === "paid" && order.data.paymentProblem === "REFUND_FAILED" && order.data.payment?.refundError ? PAYMENT_TEXT.refundRefused(order.data.payment.refundError) : null;
  const refused = refusedNow ?? refusedBefore;
  return (
    <div>
      <PageTitle title={order.data ? ordersText.title(order.data.number) : null} />
      <Link className="link mb-4 inline-block" to="/admin/orders">
        {ordersText.back}
      </Link>
      <QueryView query={order} isEmpty={() => false} empty={null}>
        {(o) => {
          // A pending order ships through the ship form (cash on delivery, terms), never as a whole from here.
          const moves = nextStatuses(o.status, "admin").filter((to) => !(o.status === "pending" && to === "shipped"));
          return (
            <div className="grid gap-6">
              <div>
                <h2 className="text-2xl font-semibold">{ordersText.title(o.number)}</h2>
                <p>
                  {o.customer.email ? `${o.customer.name} · ${o.customer.email}` : o.customer.name} · <span data-testid="order-status">{ADMIN_TEXT.statuses[o.status]}</span>
                </p>
              </div>
              {o.paymentProblem && (
                <div role="alert" className="alert alert-error alert-soft" data-testid="payment-problem">
                  {paymentProblemText(o.paymentProblem)}
                </div>
              )}
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
                            {
                              onSuccess: () => toast.success(ordersText.moved(ADMIN_TEXT.statuses[status])),
                              // A refused refund changed the payment (and its problem) though the order did not move.
                              onError: () => void queryClient.invalidateQueries({ queryKey: orderQuery(o._id).queryKey }),
                            },
                          )
                        }
                      >
                        {ADMIN_TEXT.statuses[status]}
                      </button>
                    ))}
                  </div>
                )}
                {refused && (
                  <p role="alert" className="text-error mt-2" data-testid="refund-refused">
                    {refused}
                  </p>
                )}
              </section>
              <section>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.lines}</h3>
                <DataTable label={ordersText.lines} columns={moneyText.lineColumns}>
                  {o.lines.map((l) => (
                    <tr key={l.toolId}>
                      <td>{l.name}</td>
                      <td>{l.quantity}</td>
                      <td>{formatDollars(l.unitPrice)}</td>
                      <td>{formatDollars(l.subtotal)}</td>
                      <td>{l.discount ? `−${formatDollars(l.discount)}` : formatDollars(0)}</td>
                      <td>{formatDollars(l.shipping)}</td>
                      <td>{formatDollars(l.tax)}</td>
                      <td>{formatDollars(l.total)}</td>
                    </tr>
                  ))}
                </DataTable>
              </section>
              <section aria-label={moneyText.money}>
                <h3 className="mb-2 text-lg font-semibold">{moneyText.money}</h3>
                <dl className="grid max-w-md grid-cols-[1fr_auto] gap-x-4" data-testid="order-money">
                  {moneyRows(o).map((row) => (
                    <div key={row.testId} className={`contents ${row.testId === "order-total" ? "font-semibold" : ""}`}>
                      <dt>{row.label}</dt>
                      <dd className="text-right" data-testid={row.testId}>
                        {row.value}
                      </dd>
                    </div>
                  ))}
                </dl>
              </section>
              <OrderShipmentList order={o} headingLevel={3} actions={(shipment) => <ShipmentActions shipment={shipment} />} />
              {mayShip(o) && <ShipForm key={`${o._id}-${o.shipments?.length ?? 0}-${o.refunds?.length ?? 0}`} order={o} />}
              {o.refunds && o.refunds.length > 0 && <OrderRefunds order={o} />}
              {REFUNDABLE.has(o.status) && <RefundForm key={`${o._id}-${o.refunds?.length ?? 0}`} order={o} />}
              <section aria-label={moneyText.documents}>
                <h3 className="mb-2 text-lg font-semibold">{moneyText.documents}</h3>
                {o.invoiceNumber || o.creditNoteNumber ? (
                  <ul className="flex flex-col gap-1">
                    {o.invoiceNumber && (
                      <li>
                        {moneyText.invoice(o.invoiceNumber)} ·{" "}
                        <a className="link" href={invoiceUrl(o._id)} download>
                          {MONEY_TEXT.downloadInvoice}
                        </a>
                      </li>
                    )}
                    {o.creditNoteNumber && (
                      <li>
                        {moneyText.creditNote(o.creditNoteNumber)} ·{" "}
                        <a className="link" href={creditNoteUrl(o._id)} download>
                          {MONEY_TEXT.downloadCreditNote}
                        </a>
                      </li>
                    )}
                  </ul>
                ) : (
                  <p>{moneyText.noDocuments}</p>
                )}
              </section>
              <section>
                <h3 className="mb-2 text-lg font-semibold">{ordersText.delivery}</h3>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4">
                  <dt>{moneyText.address}</dt>
                  <dd data-testid="order-address">
                    {addressLines(o).length === 0
                      ? ordersText.none
                      : addressLines(o).map((line) => (
                          <span key={line} className="block">
                            {line}
                          </span>
                        ))}
                  </dd>
                  <dt>{moneyText.shippingMethod}</dt>
                  <dd>{o.shippingMethodName || (o.shippingMethod === "pickup" ? moneyText.pickup : ordersText.none)}</dd>
                  <dt>{ordersText.phone}</dt>
                  <dd>{o.phone || ordersText.none}</dd>
                  <dt>{ordersText.payment}</dt>
                  <dd>{ordersText.payments[o.paymentMethod]}</dd>
                  {o.payment && (
                    <>
                      <dt>{PAYMENT_TEXT.state}</dt>
                      <dd data-testid="order-payment-status" data-status={o.payment.status}>
                        {PAYMENT_TEXT.status[o.payment.status]}
                        {o.payment.refundError && <span className="text-error block">{PAYMENT_TEXT.refundError(o.payment.refundError)}</span>}
                      </dd>
                    </>
                  )}
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
                      {h.note && <span className="block text-sm">{h.note}</span>}
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
