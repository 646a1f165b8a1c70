/** The console's tax rates: the table, a form to add or edit one, and the CSV round trip (issue 31). */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "react-toastify";
import { COUNTRIES } from "../../../contract/geo";
import { TAX_RATE_CSV_COLUMNS, taxRateInputSchema, type TaxRate } from "../../../contract/money-schemas";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import { afterSave, CountryRegion, errorAt, Field, FormCard, numberOrUndefined } from "./form-parts";
import { ApiRequestError } from "../../lib/api";
import { percentOf } from "./money-format";
import { DeleteQuestion, MoneyList, MoneyPageHeading, RowActions } from "./money-list";
import { TAX_RATES_CSV_URL, taxRatesQuery, useDeleteTaxRate, useImportTaxRates, useSaveTaxRate } from "./money-api";
import type { z } from "../../../contract/zod";

const text = ADMIN_MONEY_TEXT.taxRates;
const commonText = ADMIN_MONEY_TEXT.common;

export default function TaxRatesPage() {
  const rates = useQuery(taxRatesQuery());
  const [editing, setEditing] = useState<TaxRate | "new" | null>(null);
  const [deleting, setDeleting] = useState<TaxRate | null>(null);
  const remove = useDeleteTaxRate();
  return (
    <div>
      <MoneyPageHeading title={ADMIN_MONEY_TEXT.sections.taxRates} addLabel={text.add} onAdd={() => setEditing("new")} />
      {editing && <TaxRateForm key={editing === "new" ? "new" : editing._id} rate={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      <CsvFile />
      <MoneyList query={rates} label={ADMIN_MONEY_TEXT.sections.taxRates} empty={text.empty} columns={text.columns}>
        {(rate) => (
          <tr key={rate._id} data-testid="tax-rate-row">
            <td>{COUNTRIES[rate.country]?.name ?? rate.country}</td>
            <td>{rate.region || commonText.wholeCountry}</td>
            <td>{rate.postalPrefix || text.anyPostal}</td>
            <td>{rate.name}</td>
            <td>{percentOf(rate.rateBasisPoints)}</td>
            <td>{rate.taxShipping ? commonText.yes : commonText.no}</td>
            <RowActions name={rate.name} onEdit={() => setEditing(rate)} onDelete={() => setDeleting(rate)} />
          </tr>
        )}
      </MoneyList>
      <DeleteQuestion
        item={deleting}
        question={text.confirmDelete}
        busy={remove.isPending}
        onDelete={(rate) => remove.mutate(rate._id, { onSuccess: () => toast.success(text.deleted) })}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

type FormIn = z.input<typeof taxRateInputSchema>;
type FormOut = z.output<typeof taxRateInputSchema>;

/** Add or edit, with the route's own schema; a refusal leaves the form open with what was typed. */
export function TaxRateForm({ rate, onDone }: { rate: TaxRate | null; onDone: () => void }) {
  const save = useSaveTaxRate();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(taxRateInputSchema),
    defaultValues: rate
      ? { country: rate.country, region: rate.region, postalPrefix: rate.postalPrefix, name: rate.name, rateBasisPoints: rate.rateBasisPoints, taxShipping: rate.taxShipping }
      : { country: "", region: "", postalPrefix: "", name: "", taxShipping: false },
  });
  const { errors } = form.formState;
  const basisPoints = useWatch({ control: form.control, name: "rateBasisPoints" });
  const title = rate ? text.editTitle(rate.name) : text.newTitle;
  const onSubmit = form.handleSubmit((input) => save.mutate({ rateId: rate?._id ?? null, input }, afterSave(form.setError, rate ? text.saved : text.created, onDone)));
  return (
    <FormCard title={title} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
        <CountryRegion control={form.control} register={form.register} setValue={form.setValue} errors={errors} country="country" region="region" />
        <Field label={text.postalPrefix} error={errorAt(errors, "postalPrefix")}>
          <input className="input input-bordered" {...form.register("postalPrefix")} />
        </Field>
        <Field label={text.name} error={errorAt(errors, "name")}>
          <input className="input input-bordered" {...form.register("name")} />
        </Field>
        <Field
          label={text.rate}
          error={errorAt(errors, "rateBasisPoints")}
          hint={typeof basisPoints === "number" && Number.isInteger(basisPoints) && basisPoints >= 0 && basisPoints <= 10_000 ? text.ratePreview(percentOf(basisPoints)) : undefined}
        >
          <input type="number" inputMode="numeric" step="1" min="0" max="10000" className="input input-bordered" {...form.register("rateBasisPoints", { setValueAs: numberOrUndefined })} />
        </Field>
        <label className="flex cursor-pointer items-center gap-2 self-end">
          <input type="checkbox" className="checkbox" {...form.register("taxShipping")} />
          <span>{text.taxShipping}</span>
        </label>
    </FormCard>
  );
}

/** Export is a plain download; import sends the chosen file, and a refusal names the bad row here. */
function CsvFile() {
  const importCsv = useImportTaxRates();
  const [problem, setProblem] = useState<{ message: string; rows: string[] } | null>(null);
  const hintId = useId();
  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setProblem(null);
    const csv = await file.text();
    importCsv.mutate(csv, {
      onSuccess: (rates) => toast.success(text.imported(rates.length)),
      // The message names the first bad row; the details name every one the server found.
      onError: (error) => setProblem({ message: error.message, rows: error instanceof ApiRequestError ? (error.body.details ?? []).slice(1).map((d) => d.message) : [] }),
      // The same file may be chosen again after it is fixed: an unchanged input fires no change.
      onSettled: () => (input.value = ""),
    });
  };
  return (
    <section className="card bg-base-200 mb-6" aria-label={text.csvTitle}>
      <div className="card-body flex flex-col gap-3">
        <h3 className="card-title">{text.csvTitle}</h3>
        <div className="flex flex-wrap items-end gap-4">
          <a className="btn" href={TAX_RATES_CSV_URL} download="tax-rates.csv">
            {text.export}
          </a>
          <label className="form-control flex flex-col gap-1">
            <span className="label-text">{text.import}</span>
            <input
              type="file"
              accept=".csv,text/csv"
              className="file-input file-input-bordered"
              aria-describedby={hintId}
              disabled={importCsv.isPending}
              onChange={(e) => void onFile(e.currentTarget)}
            />
          </label>
          {importCsv.isPending && (
            <span role="status" className="flex items-center gap-2">
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              {text.importing}
            </span>
          )}
        </div>
        <p id={hintId} className="text-base-content/80 text-sm">
          {text.importHint}
          <code>{TAX_RATE_CSV_COLUMNS.join(",")}</code>
        </p>
        {problem && (
          <div className="text-error" role="alert" data-testid="csv-problem">
            <p>
              {text.importFailed} {problem.message}
            </p>
            {problem.rows.length > 0 && (
              <ul className="list-disc pl-6">
                {problem.rows.map((row) => (
                  <li key={row}>{row}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </section>
  );
}
