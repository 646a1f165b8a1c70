/**
 * Pieces the console's money forms share: a labelled field with its error, the country and region
 * pair, and a refused save's field messages put back at their fields.
 */
import { cloneElement, isValidElement, useId, type FormEvent, type ReactNode } from "react";
import { get, useWatch, type Control, type FieldErrors, type FieldValues, type Path, type UseFormRegister, type UseFormSetError, type UseFormSetValue } from "react-hook-form";
import { COUNTRIES, COUNTRY_CODES } from "../../../contract/geo";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import { toast } from "react-toastify";
import { ApiRequestError } from "../../lib/api";

const commonText = ADMIN_MONEY_TEXT.common;

/** The message at `path`, or at the list's own `root` (a list too short, bands out of order). */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const error = get(errors, path) as { message?: unknown; root?: { message?: unknown } } | undefined;
  const message = error?.message ?? error?.root?.message;
  return typeof message === "string" && message ? message : undefined;
}

export function FieldError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <span id={id} className="text-error text-sm" role="alert">
      {message}
    </span>
  );
}

/**
 * A field: its label, its one input, and the hint and error under it. The label names the
 * input by id rather than wrapping it, so the input's name is the label alone (a wrapped select
 * would add its chosen option to it), and the input points at its hint and error.
 */
export function Field({ label, error, hint, children, className = "" }: { label: string; error: string | undefined; hint?: ReactNode; children: ReactNode; className?: string }) {
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  const control = isValidElement<Record<string, unknown>>(children)
    ? cloneElement(children, { id: inputId, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })
    : children;
  return (
    <div className={`form-control flex flex-col gap-1 ${className}`}>
      <label className="label-text" htmlFor={inputId}>
        {label}
      </label>
      {control}
      {hint && (
        <span id={hintId} className="text-base-content/80 text-sm">
          {hint}
        </span>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** Empty input → null (an optional limit or threshold); anything else a number, checked by the schema. */
export const numberOrNull = (v: unknown): number | null => (v === "" || v === null || v === undefined ? null : Number(v));
/** Empty input → undefined, so the schema's "required" message is the one shown. */
export const numberOrUndefined = (v: unknown): number | undefined => (v === "" || v === null || v === undefined ? undefined : Number(v));

/**
 * A country and its region. Changing the country empties the region, which belonged to the old
 * one. `emptyRegion` names the empty choice: the whole country, for a rate or a delivery zone.
 */
export function CountryRegion<T extends FieldValues>({
  control,
  register,
  setValue,
  errors,
  country,
  region,
  emptyRegion = commonText.wholeCountry,
}: {
  control: Control<T>;
  register: UseFormRegister<T>;
  setValue: UseFormSetValue<T>;
  errors: FieldErrors<T>;
  country: Path<T>;
  region: Path<T>;
  emptyRegion?: string;
}) {
  const chosen = useWatch({ control, name: country }) as unknown;
  const current = useWatch({ control, name: region }) as unknown;
  const listed = typeof chosen === "string" ? COUNTRIES[chosen]?.regions : undefined;
  // A country without a list takes any short code (a county's): one saved so stays choosable.
  const regions = !listed && typeof current === "string" && current ? { [current]: current } : listed;
  return (
    <>
      <Field label={commonText.country} error={errorAt(errors, country)}>
        <select
          className="select select-bordered"
          {...register(country, {
            // The region is a string path of the same form; resetting it to "" is always valid.
            onChange: () => setValue(region, "" as never, { shouldDirty: true }),
          })}
        >
          <option value="">{commonText.chooseCountry}</option>
          {COUNTRY_CODES.map((code) => (
            <option key={code} value={code}>
              {COUNTRIES[code]?.name ?? code}
            </option>
          ))}
        </select>
      </Field>
      <Field label={commonText.region} error={errorAt(errors, region)}>
        <select className="select select-bordered" {...register(region)}>
          <option value="">{regions ? emptyRegion : commonText.noRegions}</option>
          {regions &&
            Object.entries(regions).map(([code, name]) => (
              <option key={code} value={code}>
                {name} ({code})
              </option>
            ))}
        </select>
      </Field>
    </>
  );
}

/**
 * Puts a 400's field messages (`body.zones.0.name`) at the form's fields, so the owner sees
 * what the server refused where it is; the rest of the input stays as it was typed.
 */
export function showServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): void {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return;
  for (const detail of error.body.details ?? []) {
    const path = detail.path.replace(/^body\.?/, "");
    if (path) setError(path as Path<T>, { type: "server", message: detail.message });
  }
}

/**
 * What a saved form does: says so and closes; a refusal's field messages go to their fields
 * and the form stays open with what was typed (its toast comes from the mutation's meta).
 */
export function afterSave<T extends FieldValues>(setError: UseFormSetError<T>, saved: string, onDone: () => void) {
  return {
    onSuccess: () => {
      toast.success(saved);
      onDone();
    },
    onError: (error: unknown) => showServerErrors(error, setError),
  };
}

/** An add or edit form in a card, named by its title, with Save and Cancel at the end. */
export function FormCard({ title, pending, onSubmit, onCancel, children }: { title: string; pending: boolean; onSubmit: (e: FormEvent<HTMLFormElement>) => Promise<void>; onCancel: () => void; children: ReactNode }) {
  return (
    <form className="card bg-base-200 mb-6" aria-label={title} noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="card-body grid gap-3 md:grid-cols-2">
        <h3 className="card-title md:col-span-2">{title}</h3>
        {children}
        <div className="flex gap-2 md:col-span-2">
          <SaveButton pending={pending} />
          <button type="button" className="btn" onClick={onCancel}>
            {commonText.cancel}
          </button>
        </div>
      </div>
    </form>
  );
}

/** A save button that says it is saving while it is. */
export function SaveButton({ pending }: { pending: boolean }) {
  return (
    <button type="submit" className="btn btn-primary" disabled={pending} aria-busy={pending}>
      {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {pending ? commonText.saving : commonText.save}
    </button>
  );
}
