/**
 * Subtotal, discount, shipping, tax and total (DESIGN "Money"), the same on the cart, the
 * checkout, the confirmation, My Orders and the order page.
 */
import { formatDollars } from "../../../contract/money";
import { MONEY_TEXT } from "../../../contract/texts/money";

export interface MoneyAmounts {
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
}

/** What each row says beside its amount: the code, the method and the rate when they are known. */
export interface MoneyLabels {
  discount?: string;
  shipping?: string;
  tax?: string;
}

/** 875 basis points → `8.75%`. */
export const percentOf = (basisPoints: number): string => `${String(Math.round(basisPoints) / 100)}%`;

/** The rows' words for an order: its code, its shipping method and its tax rate (or exemption). */
export function orderMoneyLabels(order: {
  promoCode: string | null;
  shippingMethodName: string;
  taxRate: { name: string; rateBasisPoints: number } | null;
  taxExemptCertificate: string | null;
}): MoneyLabels {
  return {
    discount: order.promoCode ? MONEY_TEXT.discountWithCode(order.promoCode) : MONEY_TEXT.discount,
    shipping: order.shippingMethodName ? MONEY_TEXT.shippingWithMethod(order.shippingMethodName) : MONEY_TEXT.shipping,
    tax: order.taxExemptCertificate
      ? MONEY_TEXT.taxExempt(order.taxExemptCertificate)
      : order.taxRate
        ? MONEY_TEXT.taxWithRate(order.taxRate.name, percentOf(order.taxRate.rateBasisPoints))
        : MONEY_TEXT.tax,
  };
}

/** A discount reads as money taken off. */
export const formatDiscount = (discount: number): string => (discount > 0 ? formatDollars(-discount) : formatDollars(0));

interface Props {
  amounts: MoneyAmounts;
  labels?: MoneyLabels;
  /** The total's test id (the pages' tests have read `cart-total`, `checkout-total`, `order-total`). */
  totalTestId: string;
  /** Names the list for screen readers where a page shows more than one. */
  label?: string;
  /** Smaller type, for a row of a list. */
  compact?: boolean;
  /** The amounts are being worked out again. */
  busy?: boolean;
}

export function MoneyTotals({ amounts, labels = {}, totalTestId, label, compact = false, busy = false }: Props) {
  const rows: Array<{ key: string; name: string; value: string }> = [
    { key: "subtotal", name: MONEY_TEXT.subtotal, value: formatDollars(amounts.subtotal) },
    { key: "discount", name: labels.discount ?? MONEY_TEXT.discount, value: formatDiscount(amounts.discount) },
    { key: "shipping", name: labels.shipping ?? MONEY_TEXT.shipping, value: formatDollars(amounts.shipping) },
    { key: "tax", name: labels.tax ?? MONEY_TEXT.tax, value: formatDollars(amounts.tax) },
  ];
  return (
    <dl
      aria-label={label}
      aria-busy={busy || undefined}
      data-testid={`${totalTestId}s`}
      className={`grid grid-cols-[1fr_auto] gap-x-4 ${compact ? "gap-y-0 text-xs" : "gap-y-1"} ${busy ? "opacity-60" : ""}`}
    >
      {rows.map((row) => (
        <div key={row.key} className="contents" data-testid={`money-${row.key}`}>
          <dt className="text-base-content/80">{row.name}</dt>
          <dd className="text-right whitespace-nowrap" data-testid={`money-${row.key}-amount`}>
            {row.value}
          </dd>
        </div>
      ))}
      <div className={`border-base-300 col-span-2 grid grid-cols-subgrid border-t pt-1 font-bold ${compact ? "" : "text-lg"}`}>
        <dt>{MONEY_TEXT.total}</dt>
        <dd className="text-right whitespace-nowrap" data-testid={totalTestId}>
          {formatDollars(amounts.total)}
        </dd>
      </div>
    </dl>
  );
}
