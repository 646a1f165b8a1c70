/**
 * Request a quote (/dashboard/quotes/new; DESIGN "Quotes"): tools and quantities, a needed-by date, a
 * delivery address and a message, checked by the API's own schema. The home page's 'Request For
 * Quote' leads here, and the cart's 'Ask for a quote' with `?from=cart` fills in the cart's lines.
 * A request cannot be changed once sent: the customer is taken to it in My Quotes.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify";
import { formatDollars } from "../../../contract/money";
import { quoteRequestInputSchema, type QuoteRequestInput } from "../../../contract/quote-schemas";
import { QUOTE_REQUEST_TEXT } from "../../../contract/texts/quotes";
import { ErrorState, Spinner } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { AddressFields, profileQuery } from "../account";
import { cartQuery } from "../cart";
import { quoteToolsQuery, useRequestQuote } from "./api";

const text = QUOTE_REQUEST_TEXT;

export default function RequestQuotePage() {
  const [params] = useSearchParams();
  const fromCart = params.get("from") === "cart";
  const tools = useQuery(quoteToolsQuery());
  const profile = useQuery(profileQuery());
  const cart = useQuery({ ...cartQuery(), enabled: fromCart });

  const ready = !tools.isPending && !profile.isPending && (!fromCart || !cart.isPending);
  return (
    <div className="max-w-3xl">
      <PageTitle title={text.title} />
      <h2 className="mb-2 text-2xl font-semibold">{text.title}</h2>
      <p className="text-base-content/80 mb-6">{text.intro}</p>
      {!ready ? (
        <Spinner />
      ) : tools.isError ? (
        <ErrorState message={text.toolsError} onRetry={() => void tools.refetch()} />
      ) : (
        <RequestForm
          tools={tools.data ?? []}
          lines={fromCart && cart.data ? cart.data.lines.map((l) => ({ toolId: l.toolId, quantity: l.quantity })) : undefined}
          address={profile.data}
          fromCart={fromCart && (cart.data?.lines.length ?? 0) > 0}
        />
      )}
    </div>
  );
}

interface ToolOption {
  _id: string;
  name: string;
  price: number;
  minimumQuantity: number;
}

function RequestForm({
  tools,
  lines,
  address,
  fromCart,
}: {
  tools: ToolOption[];
  lines: { toolId: string; quantity: number }[] | undefined;
  address: { address: string; city: string; region: string; postalCode: string; country: string } | undefined;
  fromCart: boolean;
}) {
  const navigate = useNavigate();
  const send = useRequestQuote();
  const form = useForm<QuoteRequestInput>({
    resolver: zodResolver(quoteRequestInputSchema),
    defaultValues: {
      lines: lines && lines.length > 0 ? lines : [{ toolId: "", quantity: 1 }],
      message: "",
      address: address?.address ?? "",
      city: address?.city ?? "",
      region: address?.region ?? "",
      postalCode: address?.postalCode ?? "",
      country: address?.country ?? "",
    },
  });
  const rows = useFieldArray({ control: form.control, name: "lines" });
  const errors = form.formState.errors;
  const watched = useWatch({ control: form.control, name: "lines" });
  const toolOf = new Map(tools.map((t) => [t._id, t]));

  const onSubmit = form.handleSubmit((values) =>
    send.mutate(
      values,
      {
        onSuccess: (quote) => {
          toast.success(text.sent(quote.number));
          void navigate(`/dashboard/quotes/${encodeURIComponent(quote._id)}`);
        },
      },
    ),
  );
  const number = (v: unknown) => (v === "" || v === null || Number.isNaN(v) ? undefined : Number(v));

  return (
    <form className="flex flex-col gap-6" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={text.title}>
      {fromCart && <p className="bg-base-200 rounded-box p-3 text-sm">{text.fromCart}</p>}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-lg font-semibold">
          {text.lines}
        </legend>
        {rows.fields.map((row, i) => {
          const tool = toolOf.get(watched[i]?.toolId ?? "");
          const rowErrors = errors.lines?.[i];
          return (
            <div key={row.id} className="flex flex-wrap items-end gap-3" data-testid="quote-request-line">
              <label className="form-control min-w-0 flex-1">
                <span className="mb-1 block text-sm font-medium">{text.tool}</span>
                <select className="select select-bordered w-full" aria-label={text.toolOf(i + 1)} aria-invalid={!!rowErrors?.toolId} {...form.register(`lines.${i}.toolId`)}>
                  <option value="">{text.chooseTool}</option>
                  {tools.map((t) => (
                    <option key={t._id} value={t._id}>
                      {t.name} ({formatDollars(t.price)})
                    </option>
                  ))}
                </select>
              </label>
              <label className="form-control">
                <span className="mb-1 block text-sm font-medium">{text.quantity}</span>
                <input
                  type="number"
                  min={tool?.minimumQuantity ?? 1}
                  step={1}
                  inputMode="numeric"
                  className="input input-bordered w-28"
                  aria-label={text.quantityOf(i + 1)}
                  aria-invalid={!!rowErrors?.quantity}
                  {...form.register(`lines.${i}.quantity`, { setValueAs: number })}
                />
              </label>
              {rows.fields.length > 1 && (
                <button type="button" className="btn btn-ghost btn-sm text-error" aria-label={text.removeLine(i + 1)} onClick={() => rows.remove(i)}>
                  ×
                </button>
              )}
              {tool && <span className="text-base-content/70 w-full text-xs">{text.minimum(tool.minimumQuantity)}</span>}
              {(rowErrors?.toolId ?? rowErrors?.quantity) && (
                <span role="alert" className="text-error w-full text-sm">
                  {rowErrors.toolId?.message ?? rowErrors.quantity?.message}
                </span>
              )}
            </div>
          );
        })}
        {errors.lines?.message && (
          <p role="alert" className="text-error text-sm">
            {errors.lines.message}
          </p>
        )}
        <button type="button" className="btn btn-sm self-start" onClick={() => rows.append({ toolId: "", quantity: 1 })}>
          {text.addLine}
        </button>
      </fieldset>

      <label className="form-control">
        <span className="mb-1 block text-sm font-medium">{text.neededBy}</span>
        <input type="date" className="input input-bordered w-48" aria-invalid={!!errors.neededBy} {...form.register("neededBy", { setValueAs: (v: string) => v || undefined })} />
        {errors.neededBy && (
          <span role="alert" className="text-error mt-1 block text-sm">
            {errors.neededBy.message}
          </span>
        )}
      </label>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-lg font-semibold">{text.delivery}</legend>
        <label className="form-control">
          <span className="mb-1 block text-sm font-medium">{text.street}</span>
          <input type="text" autoComplete="street-address" className="input input-bordered w-full" {...form.register("address")} />
        </label>
        <AddressFields form={form} />
      </fieldset>

      <label className="form-control">
        <span className="mb-1 block text-sm font-medium">{text.message}</span>
        <textarea className="textarea textarea-bordered w-full" rows={4} aria-invalid={!!errors.message} {...form.register("message")} />
        {errors.message && (
          <span role="alert" className="text-error mt-1 block text-sm">
            {errors.message.message}
          </span>
        )}
      </label>

      {send.isError && (
        <p role="alert" className="text-error">
          {send.error.message}
        </p>
      )}
      <button type="submit" className="btn btn-primary btn-lg self-start" disabled={send.isPending}>
        {send.isPending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
        {send.isPending ? text.sending : text.submit}
      </button>
    </form>
  );
}
