import { useQuery } from "@tanstack/react-query";
import { photoSrcSet } from "../../../contract/images";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { dollarsToCents, formatDollars } from "../../../contract/money";
import { unitPriceFor } from "../../../contract/price-tiers";
import { PRICE_TIER_TEXT } from "../../../contract/texts/price-tiers";
import { PriceTiersTable } from "../../components/ui/price-tiers";
import type { Tool } from "../../../contract/schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { PURCHASE_TEXT } from "../../../contract/texts/shop";
import { ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { addressLines, profileQuery, usePlaceOrder } from "../account";
import { AddToCartButton } from "../cart";
import { toolQuery } from "../catalog";
import { useTradeDiscount } from "../trade";
import { addToQuantity } from "./quantity";
import { PageTitle } from "../../lib/page-title";

export default function PurchasePage() {
  const { id = "" } = useParams();
  const tool = useQuery(toolQuery(id));

  if (tool.isPending) {
    return (
      <>
        <PageTitle title={null} />
        <Spinner />
      </>
    );
  }
  if (tool.isError) {
    if (tool.error instanceof ApiRequestError && tool.error.status === 404) {
      return (
        <div className="mx-auto max-w-xl px-4 py-16 text-center" role="alert">
          <PageTitle title={null} />
          <p className="text-lg">{PURCHASE_TEXT.notFound}</p>
          <Link to="/tools" className="btn btn-primary mt-6">
            {PURCHASE_TEXT.backToTools}
          </Link>
        </div>
      );
    }
    return (
      <div className="mx-auto max-w-xl px-4">
        <PageTitle title={null} />
        <ErrorState message={tool.error.message} onRetry={() => void tool.refetch()} />
      </div>
    );
  }
  // Keyed by tool: the quantity starts again at the minimum for another tool.
  return (
    <>
      <PageTitle title={tool.data.name} />
      <PurchaseForm key={tool.data._id} tool={tool.data} />
    </>
  );
}

function PurchaseForm({ tool }: { tool: Tool }) {
  const navigate = useNavigate();
  const profile = useQuery(profileQuery());
  const [quantity, setQuantity] = useState(tool.minimumQuantity);
  const [entered, setEntered] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const inStock = tool.availableQuantity >= tool.minimumQuantity;
  // The unit price the order will have: the tier the quantity reaches, less a trade account's
  // discount (the server prices it the same way).
  const discount = useTradeDiscount();
  const unitCents = unitPriceFor(
    dollarsToCents(tool.price),
    tool.priceTiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) })),
    quantity,
    discount,
  );

  // My Orders greets the new order with a toast naming its number.
  const order = usePlaceOrder({ onSuccess: (placed) => navigate("/dashboard", { state: { placed: placed.number } }) });

  const onAdd = (event: FormEvent) => {
    event.preventDefault();
    const result = addToQuantity(quantity, entered, tool.availableQuantity);
    if (result.ok) {
      setQuantity(result.quantity);
      setEntered("");
      setMessage(null);
    } else {
      setMessage(result.message);
    }
  };

  const address = profile.data?.address;
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
      <figure className="bg-base-200 rounded-box overflow-hidden">
        <img src={tool.image} srcSet={photoSrcSet(tool.image)} sizes="(min-width: 768px) 50vw, 100vw" alt={tool.name} width={640} height={480} className="w-full" />
      </figure>
      <div className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold">{tool.name}</h1>
        <p className="text-primary text-2xl font-bold" data-testid="purchase-price">
          {formatDollars(tool.price)}
        </p>
        <p className="text-base-content/80">{tool.description}</p>
        <dl className="grid grid-cols-2 gap-2">
          <dt className="font-medium">{PURCHASE_TEXT.available}</dt>
          <dd data-testid="available-quantity">{tool.availableQuantity}</dd>
          <dt className="font-medium">{PURCHASE_TEXT.minimum}</dt>
          <dd data-testid="minimum-quantity">{tool.minimumQuantity}</dd>
          <dt className="font-medium">{PURCHASE_TEXT.quantity}</dt>
          <dd data-testid="order-quantity" aria-live="polite">
            {quantity}
          </dd>
          {unitCents !== dollarsToCents(tool.price) && (
            <>
              <dt className="font-medium">{discount > 0 ? PRICE_TIER_TEXT.tradePrice : PRICE_TIER_TEXT.unitPrice}</dt>
              <dd data-testid="order-unit-price">{formatDollars(unitCents / 100)}</dd>
            </>
          )}
          <dt className="font-medium">{PURCHASE_TEXT.total}</dt>
          <dd data-testid="order-total">{formatDollars((unitCents * quantity) / 100)}</dd>
        </dl>
        <PriceTiersTable tool={tool} quantity={quantity} />
        <p className="text-base-content/80 text-sm">{MONEY_TEXT.purchaseTotalNote}</p>

        {inStock ? (
          <form onSubmit={onAdd} noValidate className="flex flex-wrap items-end gap-2">
            <label className="form-control">
              <span className="mb-1 block text-sm font-medium">{PURCHASE_TEXT.addLabel}</span>
              <input
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                className="input input-bordered w-40"
                value={entered}
                aria-invalid={message !== null}
                aria-describedby={message ? "quantity-message" : undefined}
                onChange={(e) => setEntered(e.target.value)}
              />
            </label>
            <button type="submit" className="btn btn-secondary">
              {PURCHASE_TEXT.add}
            </button>
            {message && (
              <p id="quantity-message" role="alert" className="text-error w-full text-sm">
                {message}
              </p>
            )}
          </form>
        ) : (
          <p role="status" className="text-error font-medium">
            {PURCHASE_TEXT.outOfStock}
          </p>
        )}

        <p className="text-sm">
          <span className="font-medium">{PURCHASE_TEXT.deliveryTo}: </span>
          {address ? (
            <span data-testid="delivery-address">
              {profile.data ? addressLines(profile.data).join(", ") : address}
              {profile.data?.phone ? ` · ${profile.data.phone}` : ""}
            </span>
          ) : (
            <Link to="/dashboard/profile" className="link link-primary">
              {PURCHASE_TEXT.noAddress}
            </Link>
          )}
        </p>

        <button type="button" className="btn btn-primary btn-lg" disabled={!inStock || order.isPending} onClick={() => order.mutate({ toolId: tool._id, quantity })}>
          {order.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {order.isPending ? PURCHASE_TEXT.ordering : PURCHASE_TEXT.ordered}
        </button>
        {order.isError && (
          <p role="alert" className="text-error">
            {order.error.message}
          </p>
        )}
        {inStock && <AddToCartButton tool={tool} quantity={quantity} />}
      </div>
    </div>
  );
}
