import { formatDollars } from "../../../../contract/money";
import type { Order } from "../../../../contract/schemas";
import { CONFIRMATION_TEXT } from "../../../../contract/texts/cart";
import { PICKUP } from "../../../../contract/money-schemas";
import { MONEY_TEXT } from "../../../../contract/texts/money";
import { ORDER_TEXT } from "../../../../contract/texts/orders";
import { PAYMENT_TEXT } from "../../../../contract/texts/payments";
import { formatDiscount, orderMoneyLabels } from "../../../components/ui/money-totals";
import { addressLines } from "./address";
import { PickupPlace } from "./pickup-place";

/** An order's lines as they were ordered, and its subtotal, discount, shipping, tax and total. */
export function OrderLines({ order }: { order: Order }) {
  const labels = orderMoneyLabels(order);
  return (
    <table className="table" data-testid="order-lines">
      <caption className="sr-only">{ORDER_TEXT.lines}</caption>
      <thead className="text-base-content">
        <tr>
          <th scope="col">{ORDER_TEXT.tool}</th>
          <th scope="col" className="text-right">
            {ORDER_TEXT.quantity}
          </th>
          <th scope="col" className="hidden text-right sm:table-cell">
            {ORDER_TEXT.unitPrice}
          </th>
          <th scope="col" className="text-right">
            {ORDER_TEXT.lineTotal}
          </th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line) => (
          <tr key={line.toolId} data-testid="order-line">
            <td>{line.name}</td>
            <td className="text-right">{line.quantity}</td>
            <td className="hidden text-right sm:table-cell">{formatDollars(line.unitPrice)}</td>
            <td className="text-right">{formatDollars(line.lineTotal)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot className="text-base-content">
        <FootRow name={MONEY_TEXT.subtotal} value={formatDollars(order.subtotal)} testId="order-subtotal" />
        <FootRow name={labels.discount ?? MONEY_TEXT.discount} value={formatDiscount(order.discount)} testId="order-discount" />
        <FootRow name={labels.shipping ?? MONEY_TEXT.shipping} value={formatDollars(order.shipping)} testId="order-shipping" />
        <FootRow name={labels.tax ?? MONEY_TEXT.tax} value={formatDollars(order.tax)} testId="order-tax" />
        <FootRow name={ORDER_TEXT.total} value={formatDollars(order.total)} testId="order-total" strong />
      </tfoot>
    </table>
  );
}

/** A row of the totals under the lines: the name spans the columns before the amount (one fewer on a phone, where the unit price is hidden). */
function FootRow({ name, value, testId, strong = false }: { name: string; value: string; testId: string; strong?: boolean }) {
  const size = strong ? "text-base" : "py-1 font-normal";
  return (
    <tr data-testid={`${testId}-row`}>
      <th scope="row" colSpan={2} className={`text-base-content ${size} sm:hidden`}>
        {name}
      </th>
      <th scope="row" colSpan={3} className={`text-base-content hidden ${size} sm:table-cell`}>
        {name}
      </th>
      <td className={`text-right ${strong ? "text-base font-bold" : "py-1"}`} data-testid={testId}>
        {value}
      </td>
    </tr>
  );
}

/** Where the order goes, how it is paid and (for a bank transfer) where to send the money. */
export function DeliveryAndPayment({ order }: { order: Order }) {
  return (
    <div className="grid gap-6 sm:grid-cols-2">
      <section aria-labelledby="order-delivery">
        <h2 id="order-delivery" className="mb-2 text-lg font-semibold">
          {ORDER_TEXT.delivery}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="font-medium">{ORDER_TEXT.address}</dt>
          <dd data-testid="order-address">
            {addressLines(order).map((line, index) => (
              <span key={index} className="block">
                {line}
              </span>
            ))}
          </dd>
          <dt className="font-medium">{MONEY_TEXT.shippingBy}</dt>
          <dd data-testid="order-shipping-method">
            {order.shippingMethodName || MONEY_TEXT.pickup}
            {order.shippingMethod === PICKUP && <PickupPlace />}
          </dd>
          <dt className="font-medium">{ORDER_TEXT.phone}</dt>
          <dd data-testid="order-phone">{order.phone}</dd>
          {order.note && (
            <>
              <dt className="font-medium">{ORDER_TEXT.note}</dt>
              <dd data-testid="order-note" className="break-words whitespace-pre-line">
                {order.note}
              </dd>
            </>
          )}
        </dl>
      </section>
      <section aria-labelledby="order-payment">
        <h2 id="order-payment" className="mb-2 text-lg font-semibold">
          {ORDER_TEXT.payment}
        </h2>
        <p data-testid="order-payment-method">{ORDER_TEXT.paymentMethod[order.paymentMethod]}</p>
        <PaymentInstructions order={order} />
      </section>
    </div>
  );
}

/** What the customer still has to do to pay: nothing once it is paid, delivered or cancelled. */
function PaymentInstructions({ order }: { order: Order }) {
  if (order.paymentMethod === "card") return <CardPayment order={order} />;
  if (order.paymentMethod === "cash_on_delivery") {
    if (order.status === "delivered" || order.status === "cancelled") return null;
    return <p className="text-base-content/80 mt-1 text-sm">{CONFIRMATION_TEXT.cashOnDelivery}</p>;
  }
  if (order.status !== "pending") return null;
  const bank = ORDER_TEXT.bank;
  return (
    <div className="bg-base-200 rounded-box mt-2 p-3 text-sm" data-testid="bank-details">
      <p className="mb-2">{bank.intro}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        <dt className="font-medium">{bank.holder}</dt>
        <dd>{bank.holderValue}</dd>
        <dt className="font-medium">{bank.iban}</dt>
        <dd className="font-mono">{bank.ibanValue}</dd>
        <dt className="font-medium">{bank.bic}</dt>
        <dd className="font-mono">{bank.bicValue}</dd>
        <dt className="font-medium">{ORDER_TEXT.total}</dt>
        <dd>{formatDollars(order.total)}</dd>
        <dt className="font-medium">{bank.reference}</dt>
        <dd>{bank.referenceValue(order.number)}</dd>
      </dl>
      <p className="mt-2">{bank.after}</p>
    </div>
  );
}

const holdFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * A card order's payment as the provider's webhook left it (never as the return URL says), and,
 * while it awaits the payment, the way back to the payment page and when the hold runs out.
 */
function CardPayment({ order }: { order: Order }) {
  // The payment's row is written just after the order's: until then an awaiting order's payment is open.
  const status = order.payment?.status ?? (order.status === "awaiting_payment" ? "open" : null);
  const awaiting = order.status === "awaiting_payment";
  const url = order.payment?.status === "open" ? order.payment.url : null;
  return (
    <div className="mt-1 flex flex-col gap-2 text-sm">
      {status && (
        <p className="font-medium" data-testid="order-payment-status" data-status={status}>
          {PAYMENT_TEXT.status[status]}
        </p>
      )}
      {awaiting && (
        <>
          <p role="status" data-testid="payment-waiting">
            {PAYMENT_TEXT.waiting}
          </p>
          {order.paymentHoldUntil && <p className="text-base-content/80">{PAYMENT_TEXT.payBy(holdFormat.format(new Date(order.paymentHoldUntil)))}</p>}
          {url && (
            <a href={url} className="btn btn-primary btn-sm self-start" data-testid="pay-now">
              {PAYMENT_TEXT.payNow}
            </a>
          )}
        </>
      )}
    </div>
  );
}
