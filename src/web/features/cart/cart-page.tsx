import { useQueries, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { lineProblem } from "../../../contract/cart";
import { dollarsToCents, centsToDollars, formatDollars } from "../../../contract/money";
import { nextTier, tierReached, unitPriceFor } from "../../../contract/price-tiers";
import type { CartLine, Tool } from "../../../contract/schemas";
import { CART_TEXT } from "../../../contract/texts/cart";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { QUOTE_REQUEST_TEXT } from "../../../contract/texts/quotes";
import { VALIDATION_TEXT } from "../../../contract/texts/validation";
import { MoneyTotals, type MoneyAmounts } from "../../components/ui/money-totals";
import { TierNote } from "../../components/ui/price-tiers";
import { EmptyState, ErrorState, QueryView, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { useSession } from "../../lib/session";
import { toolQuery } from "../catalog";
import { cartQuery, useSetCartLine } from "./api";
import { useGuestCart, type GuestLine } from "./guest-cart";
import { guestCart } from "./guest-cart-edit";
import { fixingQuantity, problemText } from "./problems";
import { PageTitle } from "../../lib/page-title";

const ROW = "border-base-300 rounded-box mb-4 block border p-3 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0";
const CELL =
  "flex items-center justify-between gap-4 py-2 text-right before:font-medium before:text-left before:content-[attr(data-label)] md:table-cell md:py-4 md:text-left md:before:content-none";

export default function CartPage() {
  const { user, isPending } = useSession();
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <PageTitle title={CART_TEXT.heading} />
      <h1 className="mb-6 text-3xl font-bold">{CART_TEXT.heading}</h1>
      {isPending ? <Spinner /> : user ? <AccountCart /> : <VisitorCart />}
    </div>
  );
}

/** What the cart view needs to change a line; each cart keeps its lines its own way. */
interface LineActions {
  set: (toolId: string, quantity: number) => void;
  /** The line being saved, if any. */
  busy: string | null;
  /** The last refusal from the server, for the line it concerns. */
  refused: { toolId: string; message: string } | null;
}

function AccountCart() {
  const cart = useQuery(cartQuery());
  const save = useSetCartLine();
  const actions: LineActions = {
    set: (toolId, quantity) => save.mutate({ toolId, quantity }),
    busy: save.isPending ? (save.variables?.toolId ?? null) : null,
    refused: save.isError && save.variables ? { toolId: save.variables.toolId, message: save.error.message } : null,
  };
  return (
    <QueryView query={cart} isEmpty={(c) => c.lines.length === 0} empty={<EmptyCart />}>
      {(c) => <CartView lines={c.lines} total={c.total} amounts={c} actions={actions} />}
    </QueryView>
  );
}

/** A visitor's cart: the browser keeps ids and quantities; names, prices and stock come from the catalogue. */
function VisitorCart() {
  const held = useGuestCart();
  const tools = useQueries({ queries: held.map((line) => ({ ...toolQuery(line.toolId), retry: false })) });
  const actions: LineActions = { set: (toolId, quantity) => guestCart.set(toolId, quantity), busy: null, refused: null };

  if (held.length === 0) return <EmptyState><EmptyCart /></EmptyState>;
  if (tools.some((t) => t.isPending)) return <Spinner />;
  const failed = tools.find((t) => t.isError && !(t.error instanceof ApiRequestError && t.error.status === 404));
  if (failed) return <ErrorState message={failed.error?.message} onRetry={() => void failed.refetch()} />;

  const lines = held.map((line, index) => visitorLine(line, tools[index]?.data));
  const total = centsToDollars(lines.reduce((sum, l) => sum + dollarsToCents(l.lineTotal), 0));
  return (
    <>
      <p className="text-base-content/80 mb-4">{CART_TEXT.guestNote}</p>
      <CartView lines={lines} total={total} actions={actions} />
    </>
  );
}

function visitorLine(line: GuestLine, tool: Pick<Tool, "name" | "image" | "price" | "minimumQuantity" | "availableQuantity" | "priceTiers"> | undefined): CartLine {
  if (!tool) {
    return { toolId: line.toolId, name: CART_TEXT.unknownTool, image: "", unitPrice: 0, quantity: line.quantity, minimumQuantity: 1, availableQuantity: 0, lineTotal: 0, problem: "UNAVAILABLE" };
  }
  // The tier the quantity reaches, as the server prices it (contract/price-tiers.ts).
  const tiers = tool.priceTiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) }));
  const unitCents = unitPriceFor(dollarsToCents(tool.price), tiers, line.quantity);
  const reached = tierReached(tiers, line.quantity);
  const next = nextTier(tiers, line.quantity);
  return {
    toolId: line.toolId,
    name: tool.name,
    image: tool.image,
    unitPrice: centsToDollars(unitCents),
    quantity: line.quantity,
    minimumQuantity: tool.minimumQuantity,
    availableQuantity: tool.availableQuantity,
    lineTotal: centsToDollars(unitCents * line.quantity),
    problem: lineProblem({ quantity: line.quantity, minimumQuantity: tool.minimumQuantity, availableQuantity: tool.availableQuantity, active: true }),
    ...(reached ? { tier: { minQuantity: reached.minQuantity, price: centsToDollars(reached.priceCents) } } : {}),
    ...(next ? { nextTier: { minQuantity: next.minQuantity, price: centsToDollars(next.priceCents), more: next.more } } : {}),
  };
}

function EmptyCart() {
  return (
    <span className="flex flex-col items-center gap-4">
      <span>{CART_TEXT.empty}</span>
      <Link to="/tools" className="btn btn-primary">
        {CART_TEXT.browse}
      </Link>
    </span>
  );
}

/** `amounts`: the account's cart as the server prices it (pickup unless asked); a visitor's has its lines' sum alone. */
function CartView({ lines, total, amounts, actions }: { lines: CartLine[]; total: number; amounts?: MoneyAmounts; actions: LineActions }) {
  const blocked = lines.some((l) => l.problem !== null);
  return (
    <div className="flex flex-col gap-6">
      <table className="table" data-testid="cart-table">
        <thead className="text-base-content hidden md:table-header-group">
          <tr>
            <th scope="col">{CART_TEXT.tool}</th>
            <th scope="col">{CART_TEXT.unitPrice}</th>
            <th scope="col">{CART_TEXT.quantity}</th>
            <th scope="col">{CART_TEXT.lineTotal}</th>
            <th scope="col">
              <span className="sr-only">{CART_TEXT.remove}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <LineRow key={line.toolId} line={line} actions={actions} />
          ))}
        </tbody>
      </table>
      <div className="flex flex-col items-end gap-3">
        {amounts ? (
          <div className="flex w-full max-w-sm flex-col gap-2">
            <MoneyTotals amounts={amounts} totalTestId="cart-total" label={MONEY_TEXT.totals} />
            <p className="text-base-content/80 text-sm">{MONEY_TEXT.cartTotalsNote}</p>
          </div>
        ) : (
          <p className="text-xl">
            <span className="font-medium">{CART_TEXT.total}: </span>
            <span className="font-bold" data-testid="cart-total">
              {formatDollars(total)}
            </span>
          </p>
        )}
        {blocked && (
          <p role="status" className="text-warning-content bg-warning/20 rounded-box px-3 py-2">
            {CART_TEXT.fixFirst}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          {/* Trade buyers ask for a price for the cart's lines (DESIGN "Quotes"): a request, nothing ordered. */}
          <Link to="/dashboard/quotes/new?from=cart" className="btn btn-outline btn-lg">
            {QUOTE_REQUEST_TEXT.fromCartButton}
          </Link>
          {blocked ? (
            <button type="button" className="btn btn-primary btn-lg" disabled>
              {CART_TEXT.checkout}
            </button>
          ) : (
            <Link to="/checkout" className="btn btn-primary btn-lg">
              {CART_TEXT.checkout}
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}

function LineRow({ line, actions }: { line: CartLine; actions: LineActions }) {
  const problem = problemText(line);
  const fix = fixingQuantity(line);
  const busy = actions.busy === line.toolId;
  const refused = actions.refused?.toolId === line.toolId ? actions.refused.message : null;
  return (
    <tr className={ROW} data-testid="cart-line" data-tool-id={line.toolId}>
      <td className={`${CELL} before:content-none`}>
        <div className="flex items-center gap-3 text-left">
          {line.image && <img src={line.image} alt="" width={64} height={48} className="rounded-box h-12 w-16 shrink-0 object-cover" />}
          <div>
            {line.problem === "UNAVAILABLE" ? (
              <span className="font-semibold">{line.name}</span>
            ) : (
              <Link to={`/tools/${line.toolId}`} className="link-hover font-semibold">
                {line.name}
              </Link>
            )}
            {line.problem !== "UNAVAILABLE" && <p className="text-base-content/70 text-xs">{CART_TEXT.limits(line.minimumQuantity, line.availableQuantity)}</p>}
            <TierNote tier={line.tier} nextTier={line.nextTier} tradePrice={line.tradePrice} />
            {problem && (
              <p className="text-error mt-1 text-sm" data-testid="line-problem">
                {problem}{" "}
                {fix !== null && (
                  <button type="button" className="btn btn-xs btn-outline ml-1" disabled={busy} onClick={() => actions.set(line.toolId, fix)}>
                    {CART_TEXT.setTo(fix)}
                  </button>
                )}
              </p>
            )}
            {refused && (
              <p role="alert" className="text-error mt-1 text-sm">
                {refused}
              </p>
            )}
          </div>
        </div>
      </td>
      <td className={CELL} data-label={CART_TEXT.unitPrice}>
        {formatDollars(line.unitPrice)}
      </td>
      <td className={CELL} data-label={CART_TEXT.quantity}>
        {line.problem === "UNAVAILABLE" ? line.quantity : <QuantityControl key={line.quantity} line={line} busy={busy} onSet={(q) => actions.set(line.toolId, q)} />}
      </td>
      <td className={CELL} data-label={CART_TEXT.lineTotal} data-testid="line-total">
        {formatDollars(line.lineTotal)}
      </td>
      <td className={`${CELL} justify-end before:content-none`}>
        <button type="button" className="btn btn-ghost btn-sm text-error" aria-label={CART_TEXT.removeLabel(line.name)} disabled={busy} onClick={() => actions.set(line.toolId, 0)}>
          {CART_TEXT.remove}
        </button>
      </td>
    </tr>
  );
}

/**
 * −, a number and +: the buttons stop at the tool's minimum and its stock; a typed number is
 * checked against the same rule before anything is saved.
 */
function QuantityControl({ line, busy, onSet }: { line: CartLine; busy: boolean; onSet: (quantity: number) => void }) {
  const [text, setText] = useState(String(line.quantity));
  const [message, setMessage] = useState<string | null>(null);
  const messageId = `quantity-message-${line.toolId}`;

  const commit = (event?: FormEvent) => {
    event?.preventDefault();
    const quantity = Number(text.trim());
    if (text.trim() === "" || !Number.isInteger(quantity) || quantity < 1) return setMessage(VALIDATION_TEXT.invalidData);
    if (quantity === line.quantity) return setMessage(null);
    const { minimumQuantity, availableQuantity } = line;
    const problem = problemText({ minimumQuantity, availableQuantity, problem: lineProblem({ minimumQuantity, availableQuantity, quantity, active: true }) });
    if (problem) return setMessage(problem);
    setMessage(null);
    onSet(quantity);
  };

  return (
    <form onSubmit={commit} noValidate className="flex flex-col items-end gap-1 md:items-start">
      <div className="flex items-center gap-1">
        <button
          type="button"
          className="btn btn-sm"
          aria-label={CART_TEXT.fewer(line.name)}
          disabled={busy || line.quantity - 1 < line.minimumQuantity}
          onClick={() => onSet(Math.min(line.quantity - 1, line.availableQuantity))}
        >
          −
        </button>
        <input
          type="number"
          inputMode="numeric"
          min={line.minimumQuantity}
          max={line.availableQuantity}
          step={1}
          className="input input-sm w-20 text-center"
          aria-label={CART_TEXT.quantityLabel(line.name)}
          aria-invalid={message !== null}
          aria-describedby={message ? messageId : undefined}
          value={text}
          disabled={busy}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit()}
        />
        <button
          type="button"
          className="btn btn-sm"
          aria-label={CART_TEXT.more(line.name)}
          disabled={busy || line.quantity + 1 > line.availableQuantity}
          onClick={() => onSet(Math.max(line.quantity + 1, line.minimumQuantity))}
        >
          +
        </button>
      </div>
      {message && (
        <p id={messageId} role="alert" className="text-error text-sm">
          {message}
        </p>
      )}
    </form>
  );
}
