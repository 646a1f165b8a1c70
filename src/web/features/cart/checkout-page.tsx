import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { PAYMENT_METHODS } from "../../../contract/constants";
import { formatDollars } from "../../../contract/money";
import { checkoutFormSchema, type Cart, type CheckoutFormInput, type CheckoutFormValues, type Profile } from "../../../contract/schemas";
import { CART_TEXT, CHECKOUT_TEXT } from "../../../contract/texts/cart";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { EmptyState, ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { profileQuery } from "../account";
import { cartQuery, newIdempotencyKey, useCheckout } from "./api";
import { problemText } from "./problems";
import { PageTitle } from "../../lib/page-title";

/** Router state carried to the confirmation. */
export interface ConfirmationState {
  priceChanged?: boolean;
}

export default function CheckoutPage() {
  const cart = useQuery(cartQuery());
  const profile = useQuery(profileQuery());

  let content;
  if (cart.isPending || profile.isPending) content = <Spinner />;
  else if (cart.isError) content = <ErrorState message={cart.error.message} onRetry={() => void cart.refetch()} />;
  else if (profile.isError) content = <ErrorState message={profile.error.message} onRetry={() => void profile.refetch()} />;
  else if (cart.data.lines.length === 0) {
    content = (
      <EmptyState>
        <span className="flex flex-col items-center gap-4">
          <span>{CHECKOUT_TEXT.empty}</span>
          <Link to="/tools" className="btn btn-primary">
            {CHECKOUT_TEXT.browse}
          </Link>
        </span>
      </EmptyState>
    );
  } else content = <CheckoutForm cart={cart.data} profile={profile.data} />;

  return (
    <div className="mx-auto max-w-5xl px-4 py-10">
      <PageTitle title={CHECKOUT_TEXT.heading} />
      <h1 className="mb-6 text-3xl font-bold">{CHECKOUT_TEXT.heading}</h1>
      {content}
    </div>
  );
}

function CheckoutForm({ cart, profile }: { cart: Cart; profile: Profile }) {
  const navigate = useNavigate();
  const checkout = useCheckout();
  // One key per attempt: a double click or a retry after a lost answer is the same checkout.
  const [key, setKey] = useState(newIdempotencyKey);
  const form = useForm<CheckoutFormInput, unknown, CheckoutFormValues>({
    resolver: zodResolver(checkoutFormSchema),
    defaultValues: {
      address: profile.address,
      phone: profile.phone,
      paymentMethod: "cash_on_delivery",
      note: "",
      // Offered ticked when the profile has no delivery details yet.
      saveToProfile: profile.address === "" || profile.phone === "",
    },
  });
  const { errors } = form.formState;
  const blocked = cart.lines.some((l) => l.problem !== null);

  const onSubmit = (values: CheckoutFormValues) => {
    if (checkout.isPending) return;
    checkout.mutate(
      { input: { ...values, cartVersion: cart.version, expectedTotal: cart.total }, key },
      {
        onSuccess: (result) =>
          navigate(`/checkout/confirmation/${encodeURIComponent(result.order._id)}`, {
            replace: true,
            state: { priceChanged: result.priceChanged } satisfies ConfirmationState,
          }),
        onError: (error) => {
          // The server answered and made no order: the next attempt is a new checkout.
          if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) setKey(newIdempotencyKey());
        },
      },
    );
  };

  const refusedLines = checkout.error instanceof ApiRequestError ? (checkout.error.body.lines ?? []) : [];

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="grid gap-8 md:grid-cols-[1fr_22rem]">
      <div className="flex flex-col gap-6">
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-lg font-semibold">{CHECKOUT_TEXT.delivery}</legend>
          <label className="block">
            <span className="mb-1 block text-sm font-medium">{CHECKOUT_TEXT.address}</span>
            <input type="text" autoComplete="street-address" className="input input-bordered w-full" aria-invalid={!!errors.address} {...form.register("address")} />
            {errors.address && (
              <span role="alert" className="text-error mt-1 block text-sm">
                {errors.address.message}
              </span>
            )}
          </label>
          <label className="block">
            <span className="mb-1 block text-sm font-medium">{CHECKOUT_TEXT.phone}</span>
            <input type="tel" autoComplete="tel" className="input input-bordered w-full" aria-invalid={!!errors.phone} {...form.register("phone")} />
            {errors.phone && (
              <span role="alert" className="text-error mt-1 block text-sm">
                {errors.phone.message}
              </span>
            )}
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" className="checkbox checkbox-sm" {...form.register("saveToProfile")} />
            <span>{CHECKOUT_TEXT.saveToProfile}</span>
          </label>
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-lg font-semibold">{CHECKOUT_TEXT.payment}</legend>
          {PAYMENT_METHODS.map((method) => (
            <label key={method} className="border-base-300 rounded-box flex cursor-pointer items-start gap-3 border p-3">
              <input type="radio" value={method} className="radio radio-sm mt-1" {...form.register("paymentMethod")} />
              <span>
                <span className="block font-medium">{ORDER_TEXT.paymentMethod[method]}</span>
                <span className="text-base-content/80 block text-sm">{ORDER_TEXT.paymentHint[method]}</span>
              </span>
            </label>
          ))}
          {errors.paymentMethod && (
            <span role="alert" className="text-error text-sm">
              {errors.paymentMethod.message}
            </span>
          )}
        </fieldset>

        <label className="block">
          <span className="mb-1 block text-sm font-medium">{CHECKOUT_TEXT.note}</span>
          <textarea className="textarea textarea-bordered w-full" rows={3} aria-invalid={!!errors.note} {...form.register("note")} />
          {errors.note && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.note.message}
            </span>
          )}
        </label>
      </div>

      <aside className="bg-base-200 rounded-box flex h-fit flex-col gap-4 p-5" aria-labelledby="order-summary">
        <h2 id="order-summary" className="text-xl font-semibold">
          {CHECKOUT_TEXT.summary}
        </h2>
        <ul className="flex flex-col gap-2" data-testid="checkout-lines">
          {cart.lines.map((line) => (
            <li key={line.toolId} className="flex justify-between gap-3">
              <span>
                {line.name} × {line.quantity}
                {line.problem && <span className="text-error block text-sm">{problemText(line)}</span>}
              </span>
              <span className="whitespace-nowrap">{formatDollars(line.lineTotal)}</span>
            </li>
          ))}
        </ul>
        <p className="border-base-300 flex justify-between border-t pt-3 text-lg font-bold">
          <span>{CHECKOUT_TEXT.total}</span>
          <span data-testid="checkout-total">{formatDollars(cart.total)}</span>
        </p>
        <Link to="/cart" className="link link-primary text-sm">
          {CHECKOUT_TEXT.editCart}
        </Link>
        {blocked && (
          <p role="status" className="text-error text-sm">
            {CART_TEXT.fixFirst}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-lg" disabled={blocked || checkout.isPending}>
          {checkout.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {checkout.isPending ? CHECKOUT_TEXT.placing : CHECKOUT_TEXT.place}
        </button>
        {checkout.isError && (
          <div role="alert" className="text-error text-sm">
            <p>{refusedLines.length > 0 ? CHECKOUT_TEXT.refused : checkout.error.message}</p>
            {refusedLines.length > 0 && (
              <ul className="mt-2 list-disc pl-5">
                {refusedLines.map((line) => (
                  <li key={line.toolId}>{CHECKOUT_TEXT.lineProblem(line.name, problemText(line) ?? "")}</li>
                ))}
              </ul>
            )}
            {refusedLines.length > 0 && (
              <Link to="/cart" className="link mt-2 inline-block">
                {CHECKOUT_TEXT.backToCart}
              </Link>
            )}
          </div>
        )}
      </aside>
    </form>
  );
}
