import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { toast } from "react-toastify";
import { canMove } from "../../../contract/order-lifecycle";
import type { Order } from "../../../contract/schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { DASHBOARD_TEXT } from "../../../contract/texts/shop";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { accountKeys, DeliveryAndPayment, OrderLines, orderQuery, useCancelOrder } from "../account";
import { StatusBadge, orderDate } from "./order-status";
import { PageTitle } from "../../lib/page-title";
import { TOOL_REVIEW_TEXT } from "../../../contract/texts/tool-reviews";
import { ToolReviewForm } from "../catalog";
import { OrderRefundList } from "../../components/ui/order-refunds";
import { OrderShipmentList } from "../../components/ui/order-shipments";
import { OrderReturns } from "./order-returns";

/** How often a card order awaiting its payment is asked for again. */
const PAYMENT_POLL_MS = 2_000;

/** One of the customer's orders: its lines, delivery, payment and history; cancel while the lifecycle allows. */
/** A delivered order's tools, each with its review form behind a disclosure (the server checks again: once per tool). */
function ReviewWhatYouReceived({ order }: { order: Order }) {
  const tools = [...new Map(order.lines.map((line) => [line.toolId, line.name])).entries()];
  return (
    <section aria-labelledby="order-reviews" className="flex flex-col gap-2" data-testid="order-reviews">
      <h2 id="order-reviews" className="text-lg font-semibold">
        {TOOL_REVIEW_TEXT.write}
      </h2>
      {tools.map(([toolId, name]) => (
        <details key={toolId} className="border-base-300 rounded-box border p-3">
          <summary className="cursor-pointer font-medium">{`${TOOL_REVIEW_TEXT.reviewFromOrder}: ${name}`}</summary>
          <div className="mt-3">
            <ToolReviewForm tool={{ _id: toolId, name }} />
          </div>
        </details>
      ))}
    </section>
  );
}

export default function OrderPage() {
  const { id = "" } = useParams();
  const order = useQuery({
    ...orderQuery(id),
    // Only the provider moves a card order on (its payment, a refund's confirmation): ask again until it has.
    refetchInterval: (query) =>
      query.state.data?.status === "awaiting_payment" || query.state.data?.status === "refunding" || (query.state.data?.refunds ?? []).some((r) => r.status === "pending") ? PAYMENT_POLL_MS : false,
  });
  const status = order.data?.status;
  const queryClient = useQueryClient();
  const awaited = useRef(false);
  useEffect(() => {
    if (status === "awaiting_payment" || status === "refunding") awaited.current = true;
    else if (status && awaited.current) {
      // The order moved on while shown (paid or cancelled by the store): My Orders is stale too.
      awaited.current = false;
      void queryClient.invalidateQueries({ queryKey: accountKeys.orders, exact: true });
    }
  }, [status, queryClient]);
  const [asking, setAsking] = useState(false);
  const cancel = useCancelOrder({
    onSuccess: () => toast.success(DASHBOARD_TEXT.orders.cancelled),
    onError: (error) => toast.error(error.message),
  });

  if (order.isPending) {
    return (
      <>
        <PageTitle title={null} />
        <Spinner />
      </>
    );
  }
  if (order.isError) {
    const missing = order.error instanceof ApiRequestError && (order.error.status === 404 || order.error.status === 400);
    return (
      <div>
        <PageTitle title={null} />
        <ErrorState message={missing ? ORDER_TEXT.notFound : order.error.message} onRetry={missing ? undefined : () => void order.refetch()} />
        <Link to="/dashboard" className="link link-primary">
          {ORDER_TEXT.backToOrders}
        </Link>
      </div>
    );
  }
  const current = order.data;
  const cancellable = canMove(current.status, "cancelled", "customer");

  return (
    <article className="flex flex-col gap-6" aria-labelledby="order-heading">
      <PageTitle title={ORDER_TEXT.heading(current.number)} />
      <Link to="/dashboard" className="link link-primary text-sm">
        {ORDER_TEXT.backToOrders}
      </Link>
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="order-heading" className="text-2xl font-semibold">
            {ORDER_TEXT.heading(current.number)}
          </h2>
          <p className="text-base-content/80 text-sm">{ORDER_TEXT.placedOn(orderDate(current.createdAt))}</p>
        </div>
        <div className="flex items-center gap-3">
          <StatusBadge status={current.status} />
          {cancellable && (
            <button type="button" className="btn btn-error btn-sm" disabled={cancel.isPending} onClick={() => setAsking(true)}>
              {ORDER_TEXT.cancel}
            </button>
          )}
        </div>
      </header>
      <OrderLines order={current} />
      {current.status === "delivered" && <ReviewWhatYouReceived order={current} />}
      <DeliveryAndPayment order={current} />
      <OrderDocuments order={current} />
      <OrderShipmentList order={current} />
      <OrderRefundList order={current} />
      <OrderReturns order={current} />
      <section aria-labelledby="order-history">
        <h2 id="order-history" className="mb-2 text-lg font-semibold">
          {ORDER_TEXT.history}
        </h2>
        <ol className="border-base-300 ml-2 border-l-2" data-testid="order-history">
          {current.history.map((event, index) => (
            <li key={`${event.status}-${event.at}-${index}`} className="relative pb-4 pl-5" data-testid="history-event" data-status={event.status}>
              <span className="bg-primary absolute top-1.5 -left-[7px] h-3 w-3 rounded-full" aria-hidden="true" />
              <span className="font-medium">{ORDER_TEXT.status[event.status]}</span>{" "}
              <span className="text-base-content/80 text-sm">
                {ORDER_TEXT.by[event.by]} · <time dateTime={event.at}>{orderDate(event.at)}</time>
              </span>
              {event.note && (
                <span className="text-base-content/80 block text-sm" data-testid="history-note">
                  {event.note}
                </span>
              )}
            </li>
          ))}
        </ol>
      </section>
      <ConfirmDialog
        open={asking}
        question={DASHBOARD_TEXT.orders.confirm}
        confirmLabel={DASHBOARD_TEXT.orders.yes}
        cancelLabel={DASHBOARD_TEXT.orders.no}
        onConfirm={() => {
          setAsking(false);
          cancel.mutate(current._id);
        }}
        onCancel={() => setAsking(false)}
      />
    </article>
  );
}

/** The order's invoice (from when it is placed) and credit note (from when it is cancelled), as PDFs. */
function OrderDocuments({ order }: { order: Order }) {
  if (!order.invoiceNumber && !order.creditNoteNumber) return null;
  const path = `/api/order/${encodeURIComponent(order._id)}/invoice`;
  return (
    <section aria-labelledby="order-documents">
      <h2 id="order-documents" className="mb-2 text-lg font-semibold">
        {MONEY_TEXT.documents}
      </h2>
      <ul className="flex flex-wrap gap-3">
        {order.invoiceNumber && <DocumentLink href={path} label={MONEY_TEXT.downloadInvoice} name={`${MONEY_TEXT.invoice} ${order.invoiceNumber}`} testId="invoice" />}
        {order.creditNoteNumber && (
          <DocumentLink href={`${path}?document=credit-note`} label={MONEY_TEXT.downloadCreditNote} name={`${MONEY_TEXT.creditNote} ${order.creditNoteNumber}`} testId="credit-note" />
        )}
      </ul>
    </section>
  );
}

function DocumentLink({ href, label, name, testId }: { href: string; label: string; name: string; testId: string }) {
  return (
    <li>
      <a href={href} download className="btn btn-outline btn-sm" data-testid={`${testId}-link`}>
        {label}
      </a>
      <span className="text-base-content/80 ml-2 text-sm" data-testid={`${testId}-number`}>
        {name}
      </span>
    </li>
  );
}
