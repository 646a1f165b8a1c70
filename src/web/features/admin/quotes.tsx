/**
 * The console's quotes (/admin/quotes; DESIGN "Quotes"): the list by status, and a quote's page:
 * the request as the customer sent it (the message shown as text), each revision, the form that
 * sends the next one (per-line unit prices, shipping, validity, message, an optional stock hold,
 * checked with the API's own schema) and the withdrawal. Its own chunk, loaded when opened.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { keepPreviousData, queryOptions, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { Link, Route, Routes, useParams } from "react-router";
import { toast } from "react-toastify";
import { QUOTE_STATUSES } from "../../../contract/quote-states";
import { dollarsToCents, formatDollars } from "../../../contract/money";
import { unitPriceFor } from "../../../contract/price-tiers";
import { quoteRevisionInputSchema, type AdminQuote, type QuoteRevision, type QuoteRevisionInput, type QuoteRevisionRequest } from "../../../contract/quote-schemas";
import type { Tool } from "../../../contract/schemas";
import { MONEY_TEXT } from "../../../contract/texts/money";
import { ADMIN_QUOTE_TEXT, QUOTE_REQUEST_TEXT, QUOTE_REVISION_STATUS_TEXT, QUOTE_STATUS_TEXT, QUOTE_TEXT } from "../../../contract/texts/quotes";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { QueryView } from "../../components/ui/states";
import { api, withQuery } from "../../lib/api";
import { PageTitle } from "../../lib/page-title";
import { toolQuery } from "../catalog";
import { adminKeys, PAGE_SIZE } from "./api";
import { AdminList, useFilters, when } from "./ui";

const text = ADMIN_QUOTE_TEXT;
const key = (...parts: unknown[]) => [...adminKeys.all, "quotes", ...parts] as const;

const quotesQuery = (f: { status?: string; page: number }) =>
  queryOptions({
    queryKey: key("list", f),
    queryFn: ({ signal }) => api.list<AdminQuote>(withQuery("/api/admin/quotes", { ...f, limit: PAGE_SIZE }), signal),
    placeholderData: keepPreviousData,
  });
const quoteQuery = (id: string) => queryOptions({ queryKey: key("one", id), queryFn: ({ signal }) => api.get<AdminQuote>(`/api/admin/quotes/${encodeURIComponent(id)}`, signal) });
const pdfUrl = (id: string, revision: number) => `/api/admin/quotes/${encodeURIComponent(id)}/pdf?revision=${revision}`;
/** What a toast says about a refused action (the console's other mutations do the same). */
const toastError = { onError: (error: Error) => toast.error(error.message) };

export default function QuotesSection() {
  return (
    <Routes>
      <Route index element={<QuotesList />} />
      <Route path=":id" element={<QuoteDetail />} />
    </Routes>
  );
}

function QuotesList() {
  const { values, page, set } = useFilters(["status"] as const);
  const quotes = useQuery(quotesQuery({ ...values, page }));
  return (
    <div>
      <PageTitle title={text.heading} />
      <h2 className="mb-4 text-2xl font-semibold">{text.heading}</h2>
      <label className="form-control mb-4 w-60">
        <span className="label-text">{QUOTE_TEXT.status}</span>
        <select className="select select-bordered" value={values.status} onChange={(e) => set("status", e.target.value)}>
          <option value="">{text.allStatuses}</option>
          {QUOTE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {QUOTE_STATUS_TEXT[s]}
            </option>
          ))}
        </select>
      </label>
      <AdminList
        query={quotes}
        label={text.heading}
        empty={text.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[text.columns.number, text.columns.customer, text.columns.status, text.columns.lines, text.columns.requested, text.columns.total]}
      >
        {(q) => (
          <tr key={q._id} data-testid="admin-quote-row">
            <td>
              <Link className="link" to={`/admin/quotes/${encodeURIComponent(q._id)}`}>
                {q.number}
              </Link>
            </td>
            <td>{q.customer ? `${q.customer.name} (${q.customer.email})` : "–"}</td>
            <td>{QUOTE_STATUS_TEXT[q.status]}</td>
            <td>{q.lines.map((l) => `${l.quantity} × ${l.name}`).join(", ")}</td>
            <td>{when(q.createdAt)}</td>
            <td>{q.revisions.at(-1) ? formatDollars(q.revisions.at(-1)?.total ?? 0) : "–"}</td>
          </tr>
        )}
      </AdminList>
    </div>
  );
}

function QuoteDetail() {
  const { id = "" } = useParams();
  const quote = useQuery(quoteQuery(id));
  return (
    <div>
      <Link to="/admin/quotes" className="link mb-4 inline-block">
        {text.back}
      </Link>
      <QueryView query={quote} isEmpty={() => false} empty={null}>
        {(q) => <QuoteView quote={q} />}
      </QueryView>
    </div>
  );
}

function QuoteView({ quote }: { quote: AdminQuote }) {
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState(false);
  const withdraw = useMutation({
    mutationFn: () => api.post<AdminQuote>(`/api/admin/quotes/${encodeURIComponent(quote._id)}/withdraw`),
    onSuccess: () => toast.success(text.withdrawn),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key() }),
    ...toastError,
  });
  const open = quote.status === "requested" || quote.status === "sent" || quote.status === "expired";
  const address = quote.country === "" && quote.address === "" ? QUOTE_TEXT.pickup : [quote.address, quote.city, quote.region, quote.postalCode, quote.country].filter(Boolean).join(", ");
  return (
    <div className="flex flex-col gap-6">
      <PageTitle title={`${text.heading} ${quote.number}`} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-2xl font-semibold">{quote.number}</h2>
        <span className="badge badge-outline text-base-content" data-testid="admin-quote-status">
          {QUOTE_STATUS_TEXT[quote.status]}
        </span>
        {quote.orderId && (
          <Link className="link" to={`/admin/orders/${encodeURIComponent(quote.orderId)}`}>
            {QUOTE_TEXT.viewOrder}
          </Link>
        )}
      </div>
      <section className="bg-base-200 rounded-box p-4" aria-label={text.requested}>
        <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-medium">{text.customer}</dt>
          <dd>{quote.customer ? `${quote.customer.name} (${quote.customer.email})` : "–"}</dd>
          <dt className="font-medium">{text.requested}</dt>
          <dd>
            {when(quote.createdAt)}: {quote.lines.map((l) => `${l.quantity} × ${l.name}`).join(", ")}
          </dd>
          <dt className="font-medium">{QUOTE_TEXT.deliverTo}</dt>
          <dd>{address}</dd>
          {quote.neededBy && (
            <>
              <dt className="font-medium">{QUOTE_TEXT.neededBy}</dt>
              <dd>{quote.neededBy}</dd>
            </>
          )}
          {quote.message && (
            <>
              <dt className="font-medium">{QUOTE_TEXT.yourMessage}</dt>
              <dd className="whitespace-pre-line" data-testid="admin-quote-message">
                {quote.message}
              </dd>
            </>
          )}
        </dl>
      </section>

      <section aria-labelledby="quote-revisions">
        <h3 id="quote-revisions" className="mb-2 text-lg font-semibold">
          {text.revisions}
        </h3>
        {quote.revisions.length === 0 ? (
          <p>{text.none}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {[...quote.revisions].reverse().map((r) => (
              <RevisionSummary key={r.revision} quoteId={quote._id} revision={r} />
            ))}
          </ul>
        )}
      </section>

      {open && <RevisionForm quote={quote} />}
      {open && (
        <div>
          <button type="button" className="btn btn-error btn-outline" onClick={() => setWithdrawing(true)} disabled={withdraw.isPending}>
            {text.withdraw}
          </button>
          <ConfirmDialog
            open={withdrawing}
            question={text.withdrawConfirm}
            confirmLabel={text.withdraw}
            cancelLabel={QUOTE_TEXT.keep}
            busy={withdraw.isPending}
            onConfirm={() => {
              setWithdrawing(false);
              withdraw.mutate();
            }}
            onCancel={() => setWithdrawing(false)}
          />
        </div>
      )}
    </div>
  );
}

function RevisionSummary({ quoteId, revision }: { quoteId: string; revision: QuoteRevision }) {
  return (
    <li className="border-base-300 rounded-box border p-3 text-sm" data-testid="admin-revision">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-semibold">{QUOTE_TEXT.revision(revision.revision)}</span>
        <span className="badge badge-outline text-base-content">{QUOTE_REVISION_STATUS_TEXT[revision.status]}</span>
        <span>
          {MONEY_TEXT.total}: {formatDollars(revision.total)}
        </span>
        <span>
          {QUOTE_TEXT.validUntil}: {when(revision.validUntil)}
        </span>
        <a className="link ml-auto" href={pdfUrl(quoteId, revision.revision)} download>
          {QUOTE_TEXT.pdf(revision.revision)}
        </a>
      </div>
      <p>{revision.lines.map((l) => `${l.quantity} × ${l.name} @ ${formatDollars(l.unitPrice)}`).join(", ")}</p>
    </li>
  );
}

/** Two weeks from today, as the date input holds it. */
const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

function RevisionForm({ quote }: { quote: AdminQuote }) {
  const queryClient = useQueryClient();
  const last = quote.revisions.at(-1);
  // The lines start as the last revision's, else as asked, at the tool's list or tier price for the quantity.
  const start = last ? last.lines.map((l) => ({ toolId: l.toolId, name: l.name, quantity: l.quantity, unitPrice: l.unitPrice })) : quote.lines.map((l) => ({ ...l, unitPrice: 0 }));
  const tools = useQueries({ queries: start.map((l) => ({ ...toolQuery(l.toolId), retry: false })) });
  const priceOf = (tool: Tool | undefined, quantity: number) =>
    tool ? unitPriceFor(dollarsToCents(tool.price), tool.priceTiers.map((t) => ({ minQuantity: t.minQuantity, priceCents: dollarsToCents(t.price) })), quantity) / 100 : undefined;
  if (tools.some((t) => t.isPending)) return null;
  const defaults = start.map((l, i) => ({ ...l, unitPrice: last ? l.unitPrice : (priceOf(tools[i]?.data, l.quantity) ?? 0) }));
  // Keyed by the revision it sends: once sent, the next one starts from fresh defaults (no hold carried over).
  return (
    <RevisionFormFields
      key={quote.revisions.length}
      quote={quote}
      lines={defaults}
      listPrices={start.map((l, i) => priceOf(tools[i]?.data, l.quantity))}
      onSent={() => queryClient.invalidateQueries({ queryKey: key() })}
    />
  );
}

function RevisionFormFields({
  quote,
  lines,
  listPrices,
  onSent,
}: {
  quote: AdminQuote;
  lines: { toolId: string; name: string; quantity: number; unitPrice: number }[];
  listPrices: (number | undefined)[];
  onSent: () => Promise<unknown>;
}) {
  const next = (quote.revisions.at(-1)?.revision ?? 0) + 1;
  const form = useForm<QuoteRevisionInput, unknown, QuoteRevisionRequest>({
    resolver: zodResolver(quoteRevisionInputSchema),
    defaultValues: { lines: lines.map(({ toolId, quantity, unitPrice }) => ({ toolId, quantity, unitPrice })), shipping: quote.revisions.at(-1)?.shipping ?? 0, validUntil: inTwoWeeks(), message: "", holdStock: false },
  });
  const rows = useFieldArray({ control: form.control, name: "lines" });
  const send = useMutation({
    mutationFn: (body: unknown) => api.post<QuoteRevision>(`/api/admin/quotes/${encodeURIComponent(quote._id)}/revisions`, body),
    onSuccess: async () => {
      toast.success(text.form.sent);
      await onSent();
    },
    ...toastError,
  });
  const errors = form.formState.errors;
  const number = (v: unknown) => (v === "" || v === null || Number.isNaN(v) ? undefined : Number(v));
  const onSubmit = form.handleSubmit((values) => send.mutate(values));
  return (
    <form className="card bg-base-200" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={text.form.title(next)}>
      <div className="card-body flex flex-col gap-3">
        <h3 className="card-title">{text.form.title(next)}</h3>
        {rows.fields.map((row, i) => {
          const name = lines[i]?.name ?? row.toolId;
          const list = listPrices[i];
          const rowErrors = errors.lines?.[i];
          return (
            <div key={row.id} className="flex flex-wrap items-end gap-3" data-testid="revision-form-line">
              <span className="min-w-48 flex-1 font-medium">{name}</span>
              <label className="form-control">
                <span className="label-text">{QUOTE_REQUEST_TEXT.quantity}</span>
                <input type="number" step="1" className="input input-bordered w-24" aria-label={text.form.quantityOf(name)} {...form.register(`lines.${i}.quantity`, { setValueAs: number })} />
              </label>
              <label className="form-control">
                <span className="label-text">{text.form.unitPrice}</span>
                <input type="number" step="0.01" className="input input-bordered w-32" aria-label={text.form.unitPriceOf(name)} {...form.register(`lines.${i}.unitPrice`, { setValueAs: number })} />
              </label>
              {list !== undefined && <span className="text-base-content/70 text-xs">{text.form.listPrice(formatDollars(list))}</span>}
              {(rowErrors?.quantity ?? rowErrors?.unitPrice) && (
                <span role="alert" className="text-error w-full text-sm">
                  {rowErrors.quantity?.message ?? rowErrors.unitPrice?.message}
                </span>
              )}
            </div>
          );
        })}
        <div className="flex flex-wrap gap-3">
          <label className="form-control">
            <span className="label-text">{text.form.shipping}</span>
            <input type="number" step="0.01" className="input input-bordered w-32" {...form.register("shipping", { setValueAs: number })} />
            {errors.shipping && (
              <span role="alert" className="text-error text-sm">
                {errors.shipping.message}
              </span>
            )}
          </label>
          <label className="form-control">
            <span className="label-text">{text.form.validUntil}</span>
            <input type="date" className="input input-bordered" {...form.register("validUntil")} />
            {errors.validUntil && (
              <span role="alert" className="text-error text-sm">
                {errors.validUntil.message}
              </span>
            )}
          </label>
        </div>
        <label className="form-control">
          <span className="label-text">{text.form.message}</span>
          <textarea className="textarea textarea-bordered w-full" rows={3} {...form.register("message")} />
        </label>
        <label className="label cursor-pointer justify-start gap-2">
          <input type="checkbox" className="checkbox" {...form.register("holdStock")} />
          <span className="text-base-content">{text.form.holdStock}</span>
        </label>
        <p className="text-base-content/80 text-sm">{text.form.taxNote}</p>
        <button type="submit" className="btn btn-primary self-start" disabled={send.isPending}>
          {text.form.send}
        </button>
      </div>
    </form>
  );
}
