/**
 * City, country, state or region, and postal code: the delivery address beside the spec's
 * Address input (the street line), on the checkout and on My Profile. A country with a list of
 * regions gets a select; another gets a short text field.
 */
import { useId } from "react";
import { useWatch, type FieldError, type FieldValues, type Path, type PathValue, type UseFormReturn } from "react-hook-form";
import { COUNTRIES } from "../../../../contract/geo";
import { MONEY_TEXT } from "../../../../contract/texts/money";

type AddressField = "city" | "region" | "postalCode" | "country";
export type AddressValues = Partial<Record<AddressField, string>>;

const COUNTRY_OPTIONS = Object.entries(COUNTRIES).sort(([, a], [, b]) => a.name.localeCompare(b.name));

export function AddressFields<T extends FieldValues & AddressValues>({ form }: { form: UseFormReturn<T> }) {
  const id = useId();
  // The form's own types know these four fields; Path<T> cannot say so for a T this general.
  const name = (field: AddressField) => field as Path<T>;
  const country = (useWatch({ control: form.control, name: name("country") }) as string | undefined) ?? "";
  const regions = COUNTRIES[country]?.regions ?? null;
  const errors = form.formState.errors as Partial<Record<AddressField, FieldError>>;

  const props = (field: AddressField) => {
    const error = errors[field];
    return {
      id: `${id}-${field}`,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": error ? `${id}-${field}-error` : undefined,
    };
  };
  const message = (field: AddressField) => {
    const error = errors[field];
    return error ? (
      <span id={`${id}-${field}-error`} role="alert" className="text-error mt-1 block text-sm">
        {error.message}
      </span>
    ) : null;
  };
  const caption = (field: AddressField, text: string) => (
    <label htmlFor={`${id}-${field}`} className="mb-1 block text-sm font-medium">
      {text}
    </label>
  );

  const countryField = form.register(name("country"), {
    // A region of the old country means nothing in the new one.
    onChange: (event: { target: { value: string } }) => {
      const next = COUNTRIES[event.target.value]?.regions ?? null;
      const region = (form.getValues(name("region")) as string | undefined) ?? "";
      if (region !== "" && (next ? !(region in next) : regions !== null)) form.setValue(name("region"), "" as PathValue<T, Path<T>>);
    },
  });

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div>
        {caption("city", MONEY_TEXT.city)}
        <input type="text" autoComplete="address-level2" className="input input-bordered w-full" {...props("city")} {...form.register(name("city"))} />
        {message("city")}
      </div>
      <div>
        {caption("country", MONEY_TEXT.country)}
        <select autoComplete="country" className="select select-bordered w-full" {...props("country")} {...countryField}>
          <option value="">{MONEY_TEXT.chooseCountry}</option>
          {COUNTRY_OPTIONS.map(([code, info]) => (
            <option key={code} value={code}>
              {info.name}
            </option>
          ))}
        </select>
        {message("country")}
      </div>
      <div>
        {caption("region", MONEY_TEXT.region)}
        {regions ? (
          <select key="list" autoComplete="address-level1" className="select select-bordered w-full" {...props("region")} {...form.register(name("region"))}>
            <option value="">{MONEY_TEXT.chooseRegion}</option>
            {Object.entries(regions).map(([code, regionName]) => (
              <option key={code} value={code}>
                {regionName}
              </option>
            ))}
          </select>
        ) : (
          <input key="text" type="text" maxLength={3} autoComplete="address-level1" className="input input-bordered w-full" {...props("region")} {...form.register(name("region"))} />
        )}
        {message("region")}
      </div>
      <div>
        {caption("postalCode", MONEY_TEXT.postalCode)}
        <input type="text" autoComplete="postal-code" className="input input-bordered w-full" {...props("postalCode")} {...form.register(name("postalCode"))} />
        {message("postalCode")}
      </div>
    </div>
  );
}
