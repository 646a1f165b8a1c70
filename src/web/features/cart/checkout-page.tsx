import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { useForm, useWatch, type UseFormRegisterReturn } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { formatDollars } from "../../../contract/money";
import { PICKUP, promoCodeSchema, type CartEstimate, type ShippingOption } from "../../../contract/money-schemas";
import { checkoutFormSchema, PO_NUMBER_MAX, type Cart, type CheckoutFormInput, type CheckoutFormValues, type Profile } from "../../../contract/schemas";
import { CART_TEXT, CHECKOUT_TEXT } from "../../../contract/texts/cart";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../../contract/texts/payments";
import { MoneyTotals, type MoneyLabels } from "../../components/ui/money-totals";
import { TierNote } from "../../components/ui/price-tiers";
import { EmptyState, ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { AddressFields, PickupPlace, profileQuery } from "../account";
import { cartQuery, newIdempotencyKey, useCheckout } from "./api";
import { ESTIMATE_DEBOUNCE_MS, estimateInput, estimateQuery, servedMethod, useDebounced } from "./estimate";
import { offeredMethods, openPaymentPage, paymentMethodsQuery } from "./payment-methods";
import { myTradeAccountQuery } from "../trade";
import { TRADE_TEXT } from "../../../contract/texts/trade";
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

/** Pickup at the store, offered before any address is known. */
const PICKUP_OPTION: ShippingOption = { id: PICKUP, name: MONEY_TEXT.pickup, price: 0 };
const PROMO_FIELD_ID = "promo-code";
const isPromoProblem = (code: string) => code.startsWith("PROMO_");

function CheckoutForm({ cart, profile }: { cart: Cart; profile: Profile }) {
  const navigate = useNavigate();
  const checkout = useCheckout();
  const methods = useQuery(paymentMethodsQuery());
  const trade = useQuery(myTradeAccountQuery());
  const onTerms = !!trade.data && trade.data.terms !== "none";
  // A card order is paid on the provider's page: from the 201 on, the browser is on its way there.
  const [leaving, setLeaving] = useState(false);
  // One key per attempt: a double click or a retry after a lost answer is the same checkout.
  const [key, setKey] = useState(newIdempotencyKey);
  const form = useForm<CheckoutFormInput, unknown, CheckoutFormValues>({
    resolver: zodResolver(checkoutFormSchema),
    defaultValues: {
      address: profile.address,
      city: profile.city,
      region: profile.region,
      postalCode: profile.postalCode,
      country: profile.country,
      phone: profile.phone,
      shippingMethod: PICKUP,
      promoCode: undefined,
      paymentMethod: "cash_on_delivery",
      note: "",
      // Offered ticked when the profile has no delivery details yet.
      saveToProfile: profile.address === "" || profile.phone === "",
    },
  });
  const { errors } = form.formState;
  const blocked = cart.lines.some((l) => l.problem !== null);

  const [country, region, postalCode, city, shippingMethod, promoCode] = useWatch({
    control: form.control,
    name: ["country", "region", "postalCode", "city", "shippingMethod", "promoCode"],
  });
  const input = useMemo(
    () => estimateInput({ country, region, postalCode, city, shippingMethod, promoCode }),
    [country, region, postalCode, city, shippingMethod, promoCode],
  );
  const asked = useDebounced(input, ESTIMATE_DEBOUNCE_MS);
  const estimate = useQuery(estimateQuery(cart.version, asked));
  const waiting = input !== null && JSON.stringify(input) !== JSON.stringify(asked);
  // The estimate on screen answers the inputs on the page now.
  const current: CartEstimate | undefined = input !== null && !waiting && !estimate.isPlaceholderData && !estimate.isFetching ? estimate.data : undefined;
  const settling = input !== null && (waiting || estimate.isFetching || estimate.isPlaceholderData);

  const options: ShippingOption[] = input === null ? [PICKUP_OPTION] : (estimate.data?.shippingOptions ?? [PICKUP_OPTION]);
  // A method that does not serve the new address gives way to pickup (the totals follow).
  const chosen = shippingMethod ?? PICKUP;
  useEffect(() => {
    if (current && servedMethod(chosen, current.shippingOptions) !== chosen) form.setValue("shippingMethod", PICKUP);
  }, [current, chosen, form]);
  const noShipping = current !== undefined && current.shippingOptions.every((o) => o.id === PICKUP);

  // Without an address the estimate cannot be asked: the cart's own totals are pickup's, with no code.
  const amounts = input === null ? cart : (estimate.data ?? cart);
  const applied = input === null ? undefined : promoCode;
  const labels: MoneyLabels = {
    discount: applied && amounts.discount > 0 ? MONEY_TEXT.discountWithCode(applied) : MONEY_TEXT.discount,
    shipping: MONEY_TEXT.shippingWithMethod(options.find((o) => o.id === chosen)?.name ?? MONEY_TEXT.pickup),
    tax: profile.taxExemptCertificate ? MONEY_TEXT.taxExempt(profile.taxExemptCertificate) : MONEY_TEXT.tax,
  };

  const checkoutCode = checkout.error instanceof ApiRequestError ? checkout.error.code : null;
  const promoProblems = (current?.problems ?? []).filter((p) => isPromoProblem(p.code)).map((p) => p.message);

  const onSubmit = (values: CheckoutFormValues) => {
    if (checkout.isPending) return;
    // The code the estimate refused would refuse the order too: the field says why.
    if (applied && promoProblems.length > 0) {
      document.getElementById(PROMO_FIELD_ID)?.focus();
      return;
    }
    checkout.mutate(
      { input: { ...values, promoCode: applied, cartVersion: cart.version, expectedTotal: amounts.total }, key },
      {
        onSuccess: (result) => {
          if (result.payment) {
            setLeaving(true);
            openPaymentPage(result.payment.url);
            return;
          }
          void navigate(`/checkout/confirmation/${encodeURIComponent(result.order._id)}`, {
            replace: true,
            state: { priceChanged: result.priceChanged } satisfies ConfirmationState,
          });
        },
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
          <AddressFields form={form} />
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

        <fieldset className="flex flex-col gap-3" aria-busy={settling || undefined} data-testid="shipping-options">
          <legend className="mb-2 text-lg font-semibold">{MONEY_TEXT.shippingMethod}</legend>
          {options.map((option) => (
            <ShippingChoice key={option.id} option={option} register={form.register("shippingMethod")} />
          ))}
          {input === null && <p className="text-base-content/80 text-sm">{MONEY_TEXT.deliveryNeedsAddress}</p>}
          {noShipping && (
            <p role="status" className="alert alert-warning alert-soft text-sm" data-testid="no-shipping">
              {MONEY_TEXT.noShipping}
            </p>
          )}
          {errors.shippingMethod && (
            <span role="alert" className="text-error text-sm">
              {errors.shippingMethod.message}
            </span>
          )}
        </fieldset>

        <fieldset className="flex flex-col gap-3">
          <legend className="mb-2 text-lg font-semibold">{CHECKOUT_TEXT.payment}</legend>
          {offeredMethods(methods.data, onTerms).map((method) => (
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
          <span className="mb-1 block text-sm font-medium">{trade.data?.poRequired ? TRADE_TEXT.poNumberRequired : TRADE_TEXT.poNumberOptional}</span>
          <input type="text" className="input input-bordered w-full" maxLength={PO_NUMBER_MAX} aria-invalid={!!errors.poNumber} {...form.register("poNumber")} />
          {errors.poNumber && (
            <span role="alert" className="text-error mt-1 block text-sm">
              {errors.poNumber.message}
            </span>
          )}
        </label>

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
                <TierNote tier={line.tier} nextTier={line.nextTier} tradePrice={line.tradePrice} />
                {line.problem && <span className="text-error block text-sm">{problemText(line)}</span>}
              </span>
              <span className="whitespace-nowrap">{formatDollars(line.lineTotal)}</span>
            </li>
          ))}
        </ul>
        <PromoCodeField
          applied={applied}
          needsAddress={promoCode !== undefined && promoCode !== "" && input === null}
          problems={promoProblems.length > 0 ? promoProblems : checkoutCode && isPromoProblem(checkoutCode) ? [checkout.error?.message ?? ""] : []}
          confirmed={current !== undefined && promoProblems.length === 0}
          onApply={(code) => form.setValue("promoCode", code || undefined)}
        />
        <div className="flex flex-col gap-1">
          <MoneyTotals amounts={amounts} labels={labels} totalTestId="checkout-total" label={MONEY_TEXT.totals} busy={settling} />
          <div aria-live="polite" className="text-sm">
            {settling && (
              <span className="flex items-center gap-2" data-testid="totals-updating">
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                {MONEY_TEXT.updatingTotals}
              </span>
            )}
          </div>
        </div>
        {estimate.isError && input !== null && !waiting && (
          <div role="alert" className="text-error flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>
              {MONEY_TEXT.totalsFailed} {estimate.error.message}
            </span>
            <button type="button" className="btn btn-xs" onClick={() => void estimate.refetch()}>
              {MONEY_TEXT.retryTotals}
            </button>
          </div>
        )}
        <Link to="/cart" className="link link-primary text-sm">
          {CHECKOUT_TEXT.editCart}
        </Link>
        {blocked && (
          <p role="status" className="text-error text-sm">
            {CART_TEXT.fixFirst}
          </p>
        )}
        <button type="submit" className="btn btn-primary btn-lg" disabled={blocked || checkout.isPending || settling || leaving}>
          {(checkout.isPending || leaving) && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {checkout.isPending ? CHECKOUT_TEXT.placing : leaving ? PAYMENT_TEXT.redirecting : CHECKOUT_TEXT.place}
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

/** One shipping method with its price; pickup says where and when to collect. */
function ShippingChoice({ option, register }: { option: ShippingOption; register: UseFormRegisterReturn<"shippingMethod"> }) {
  const pickup = option.id === PICKUP;
  const detailsId = `shipping-${option.id}-details`;
  return (
    <label className="border-base-300 rounded-box flex cursor-pointer items-start gap-3 border p-3" data-testid="shipping-option" data-method-id={option.id}>
      <input type="radio" value={option.id} className="radio radio-sm mt-1" aria-describedby={pickup ? detailsId : undefined} {...register} />
      <span className="flex-1">
        <span className="flex justify-between gap-3 font-medium">
          <span>{option.name}</span>
          <span className="whitespace-nowrap" data-testid="shipping-price">
            {option.price === 0 ? MONEY_TEXT.free : formatDollars(option.price)}
          </span>
        </span>
        {pickup && (
          <span id={detailsId} className="block">
            <span className="text-base-content/80 block text-sm">{MONEY_TEXT.pickupNote}</span>
            <PickupPlace />
          </span>
        )}
      </span>
    </label>
  );
}

/**
 * The code as typed, and Apply: the estimate checks it, and what it says (or the checkout's
 * refusal) shows at the field. The typed text stays as it is whatever the answer.
 */
function PromoCodeField({
  applied,
  needsAddress,
  problems,
  confirmed,
  onApply,
}: {
  applied: string | undefined;
  needsAddress: boolean;
  problems: string[];
  confirmed: boolean;
  onApply: (code: string) => void;
}) {
  const [draft, setDraft] = useState(applied ?? "");
  const [invalid, setInvalid] = useState<string | null>(null);
  const apply = () => {
    const parsed = promoCodeSchema.safeParse(draft);
    if (!parsed.success) return setInvalid(parsed.error.issues[0]?.message ?? MONEY_TEXT.promoCodeInvalid);
    setInvalid(null);
    onApply(parsed.data);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter applies the code; it does not place the order.
    if (event.key !== "Enter") return;
    event.preventDefault();
    apply();
  };
  const error = invalid ?? (needsAddress ? MONEY_TEXT.promoNeedsAddress : problems[0]) ?? null;
  return (
    <div>
      <label htmlFor={PROMO_FIELD_ID} className="mb-1 block text-sm font-medium">
        {MONEY_TEXT.promoCode}
      </label>
      <div className="join w-full">
        <input
          id={PROMO_FIELD_ID}
          type="text"
          autoComplete="off"
          autoCapitalize="characters"
          className="input input-bordered join-item w-full"
          value={draft}
          aria-invalid={error ? true : undefined}
          aria-describedby="promo-code-message"
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="btn join-item" onClick={apply}>
          {MONEY_TEXT.applyPromo}
        </button>
      </div>
      <div id="promo-code-message" className="mt-1 text-sm">
        {error ? (
          <span role="alert" className="text-error block" data-testid="promo-problem">
            {error}
          </span>
        ) : (
          applied &&
          confirmed && (
            <span role="status" className="text-success flex items-center justify-between gap-2" data-testid="promo-applied">
              {MONEY_TEXT.promoApplied(applied)}
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                onClick={() => {
                  setDraft("");
                  onApply("");
                }}
              >
                {MONEY_TEXT.removePromo}
              </button>
            </span>
          )
        )}
      </div>
    </div>
  );
}
