import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useParams } from "react-router";
import { CONFIRMATION_TEXT } from "../../../contract/texts/cart";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { DeliveryAndPayment, OrderLines, orderQuery } from "../account";
import type { ConfirmationState } from "./checkout-page";
import { PageTitle } from "../../lib/page-title";

/** After a checkout: the order's number, lines, total, delivery and how to pay. */
export default function ConfirmationPage() {
  const { id = "" } = useParams();
  const state = (useLocation().state ?? {}) as ConfirmationState;
  const order = useQuery(orderQuery(id));

  if (order.isPending) {
    return (
      <>
        <PageTitle title={null} />
        <Spinner />
      </>
    );
  }
  if (order.isError) {
    const missing = order.error instanceof ApiRequestError && order.error.status === 404;
    return (
      <div className="mx-auto max-w-xl px-4 py-10">
        <PageTitle title={null} />
        <ErrorState message={missing ? ORDER_TEXT.notFound : order.error.message} onRetry={missing ? undefined : () => void order.refetch()} />
      </div>
    );
  }
  const placed = order.data;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <PageTitle title={ORDER_TEXT.heading(placed.number)} />
      <div role="status" className="alert alert-success alert-soft flex flex-col items-start">
        <h1 className="text-2xl font-bold">{CONFIRMATION_TEXT.heading(placed.number)}</h1>
        <p>{CONFIRMATION_TEXT.lead}</p>
      </div>
      {state.priceChanged && (
        <p role="alert" className="alert alert-warning alert-soft">
          {CONFIRMATION_TEXT.priceChanged}
        </p>
      )}
      <OrderLines order={placed} />
      <DeliveryAndPayment order={placed} />
      <div className="flex flex-wrap gap-3">
        <Link to={`/dashboard/orders/${encodeURIComponent(placed._id)}`} className="btn btn-primary">
          {CONFIRMATION_TEXT.details}
        </Link>
        <Link to="/dashboard" className="btn btn-outline">
          {CONFIRMATION_TEXT.myOrders}
        </Link>
        <Link to="/tools" className="btn btn-ghost">
          {CONFIRMATION_TEXT.continueShopping}
        </Link>
      </div>
    </div>
  );
}
