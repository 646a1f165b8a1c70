/**
 * One of the customer's quotes (/dashboard/quotes/:id; DESIGN "Quotes"): what was asked, each
 * revision (newest first) with its lines, totals, validity, message (shown as text), PDF and
 * what changed since the one before; the open revision can be accepted (a payment method, one
 * Idempotency-Key per attempt: a double click makes one order) or declined.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "react-toastify";
import type { PaymentMethod } from "../../../contract/constants";
import { COUNTRIES } from "../../../contract/geo";
import { formatDollars } from "../../../contract/money";
import type { Quote, QuoteRevision } from "../../../contract/quote-schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { ORDER_TEXT } from "../../../contract/texts/orders";
import { QUOTE_REVISION_STATUS_TEXT, QUOTE_STATUS_TEXT, QUOTE_TEXT } from "../../../contract/texts/quotes";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { ErrorState, Spinner } from "../../components/ui/states";
import { ApiRequestError } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { offeredMethods, openPaymentPage, paymentMethodsQuery } from "../cart";
import { quotePdfUrl, quoteQuery, useAcceptQuote, useDeclineQuote } from "./api";
import { revisionChanges } from "./changes";
import { quoteDate } from "./my-quotes";

const text = QUOTE_TEXT;

export default function QuotePage() {
  const { id = "" } = useParams();
  const quote = useQuery(quoteQuery(id));
  if (quote.isPending) return <Spinner />;
  if (quote.isError) {
    const missing = quote.error instanceof ApiRequestError && quote.error.status === 404;
    return (
      <div>
        <PageTitle title={text.heading} />
        {missing ? (
          <p role="alert" className="text-lg">
            {text.notFound}
          </p>
        ) : (
          <ErrorState message={quote.error.message} onRetry={() => void quote.refetch()} />
        )}
        <Link to="/dashboard/quotes" className="btn btn-outline mt-4">
          {text.backToQuotes}
        </Link>
      </div>
    );
  }
  return <QuoteView quote={quote.data} />;
}

function addressOf(q: Quote): string {
  if (q.country === "" && q.address === "") return text.pickup;
  const country = q.country ? (COUNTRIES[q.country]?.name ?? q.country) : "";
  return [q.address, [q.city, [q.region, q.postalCode].filter(Boolean).join(" ")].filter(Boolean).join(", "), country].filter(Boolean).join(", ");
}

function QuoteView({ quote }: { quote: Quote }) {
  const revisions = [...quote.revisions].reverse();
  const current = quote.revisions.at(-1);
  const open = quote.status === "sent" && current?.status === "sent";
  return (
    <div className="flex flex-col gap-6">
      <PageTitle title={`${text.number} ${quote.number}`} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-semibold">
          {text.number} {quote.number}
        </h2>
        <span className="badge badge-outline text-base-content" data-testid="quote-status">
          {QUOTE_STATUS_TEXT[quote.status]}
        </span>
      </div>
      {quote.orderId && (
        <p>
          <Link to={`/dashboard/orders/${encodeURIComponent(quote.orderId)}`} className="link link-primary">
            {text.viewOrder}
          </Link>
        </p>
      )}

      <section aria-labelledby="quote-requested" className="bg-base-200 rounded-box p-4">
        <h3 id="quote-requested" className="mb-2 font-semibold">
          {text.requested}
        </h3>
        <ul className="mb-2 list-inside list-disc" data-testid="quote-requested-lines">
          {quote.lines.map((l) => (
            <li key={l.toolId}>
              {l.quantity} × {l.name}
            </li>
          ))}
        </ul>
        <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-medium">{text.deliverTo}</dt>
          <dd>{addressOf(quote)}</dd>
          {quote.neededBy && (
            <>
              <dt className="font-medium">{text.neededBy}</dt>
              <dd>{quote.neededBy}</dd>
            </>
          )}
          {quote.message && (
            <>
              <dt className="font-medium">{text.yourMessage}</dt>
              {/* Text, never markup: React escapes it. */}
              <dd className="whitespace-pre-line" data-testid="quote-message">
                {quote.message}
              </dd>
            </>
          )}
        </dl>
      </section>

      {revisions.length === 0 && <p className="text-base-content/80">{text.waiting}</p>}
      {revisions.map((r) => {
        const before = quote.revisions.find((x) => x.revision === r.revision - 1);
        return <RevisionView key={r.revision} quote={quote} revision={r} before={before} open={open && r.revision === current?.revision} />;
      })}
    </div>
  );
}

function RevisionView({ quote, revision, before, open }: { quote: Quote; revision: QuoteRevision; before: QuoteRevision | undefined; open: boolean }) {
  const changes = before ? revisionChanges(before, revision) : [];
  return (
    <section aria-labelledby={`revision-${revision.revision}`} className="border-base-300 rounded-box border p-4" data-testid="quote-revision">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h3 id={`revision-${revision.revision}`} className="text-lg font-semibold">
          {text.revision(revision.revision)}
        </h3>
        <span className="badge badge-outline text-base-content" data-testid="revision-status">
          {QUOTE_REVISION_STATUS_TEXT[revision.status]}
        </span>
        <a className="link link-primary ml-auto text-sm" href={quotePdfUrl(quote._id, revision.revision)} download>
          {text.pdf(revision.revision)}
        </a>
      </div>
      <table className="table-sm table">
        <thead className="text-base-content">
          <tr>
            <th scope="col">{ORDER_TEXT.tool}</th>
            <th scope="col">{ORDER_TEXT.quantity}</th>
            <th scope="col">{text.unitPrice}</th>
            <th scope="col">{text.lineTotal}</th>
          </tr>
        </thead>
        <tbody>
          {revision.lines.map((l) => (
            <tr key={l.toolId} data-testid="revision-line">
              <td>{l.name}</td>
              <td>{l.quantity}</td>
              <td>{formatDollars(l.unitPrice)}</td>
              <td>{formatDollars(l.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="mt-3 grid max-w-sm grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt>{MONEY_TEXT.subtotal}</dt>
        <dd className="text-right">{formatDollars(revision.subtotal)}</dd>
        <dt>{MONEY_TEXT.shipping}</dt>
        <dd className="text-right">{formatDollars(revision.shipping)}</dd>
        <dt>{revision.taxExemptCertificate ? MONEY_TEXT.taxExempt(revision.taxExemptCertificate) : MONEY_TEXT.tax}</dt>
        <dd className="text-right">{formatDollars(revision.tax)}</dd>
        <dt className="font-semibold">{MONEY_TEXT.total}</dt>
        <dd className="text-right font-semibold" data-testid="revision-total">
          {formatDollars(revision.total)}
        </dd>
        <dt>{text.validUntil}</dt>
        <dd className="text-right">{quoteDate(revision.validUntil)}</dd>
      </dl>
      {revision.message && (
        <p className="mt-3 text-sm whitespace-pre-line">
          <span className="font-medium">{text.ourMessage}: </span>
          {revision.message}
        </p>
      )}
      {revision.holdStock && revision.status === "sent" && <p className="text-success mt-2 text-sm">{text.held}</p>}
      {before && (
        <div className="mt-3 text-sm" data-testid="revision-changes">
          <p className="font-medium">{text.changes}</p>
          {changes.length === 0 ? (
            <p>{text.noChanges}</p>
          ) : (
            <ul className="list-inside list-disc">
              {changes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {open && <AcceptOrDecline quote={quote} revision={revision} />}
    </section>
  );
}

function AcceptOrDecline({ quote, revision }: { quote: Quote; revision: QuoteRevision }) {
  const navigate = useNavigate();
  const methods = useQuery(paymentMethodsQuery());
  const offered = offeredMethods(methods.data);
  const [method, setMethod] = useState<PaymentMethod>("bank_transfer");
  // One key per attempt: a retry of the same attempt (a double click, a lost answer) returns the same order.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [declining, setDeclining] = useState(false);
  const accept = useAcceptQuote();
  const decline = useDeclineQuote();

  const onAccept = () =>
    accept.mutate(
      { id: quote._id, revision: revision.revision, paymentMethod: method, key },
      {
        onSuccess: (result) => {
          if (result.payment?.url) return openPaymentPage(result.payment.url);
          toast.success(text.accepted(result.order.number));
          void navigate(`/dashboard/orders/${encodeURIComponent(result.order._id)}`);
        },
        // Refused without an order: the next attempt is a new one.
        onError: () => setKey(crypto.randomUUID()),
      },
    );

  return (
    <div className="mt-4 flex flex-col gap-3">
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium">{text.paymentMethod}</legend>
        {offered.map((m) => (
          <label key={m} className="flex items-center gap-2">
            <input type="radio" className="radio radio-sm" name={`pay-${quote._id}`} value={m} checked={method === m} onChange={() => setMethod(m)} />
            {ORDER_TEXT.paymentMethod[m]}
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="btn btn-primary" disabled={accept.isPending} onClick={onAccept}>
          {accept.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {accept.isPending ? text.accepting : text.accept}
        </button>
        <button type="button" className="btn btn-outline" disabled={decline.isPending} onClick={() => setDeclining(true)}>
          {text.decline}
        </button>
      </div>
      {(accept.isError || decline.isError) && (
        <p role="alert" className="text-error">
          {(accept.error ?? decline.error)?.message}
        </p>
      )}
      <ConfirmDialog
        open={declining}
        question={text.declineConfirm}
        confirmLabel={text.decline}
        cancelLabel={text.keep}
        busy={decline.isPending}
        onConfirm={() => {
          setDeclining(false);
          decline.mutate(quote._id, { onSuccess: () => toast.success(text.declined) });
        }}
        onCancel={() => setDeclining(false)}
      />
    </div>
  );
}
