/**
 * The console's delivery methods (issue 31): each has zones (the countries and regions it
 * delivers to) priced by weight bands, and an optional free-delivery threshold. Pickup at the
 * store is built in and not edited here; the page says so.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useFieldArray, useForm, type Control, type FieldErrors, type UseFormGetValues, type UseFormRegister, type UseFormSetValue } from "react-hook-form";
import { toast } from "react-toastify";
import { COUNTRIES } from "../../../contract/geo";
import { formatDollars } from "../../../contract/money";
import { shippingMethodInputSchema, type ShippingMethod } from "../../../contract/money-schemas";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import type { z } from "../../../contract/zod";
import { afterSave, CountryRegion, errorAt, Field, FieldError, FormCard, numberOrNull, numberOrUndefined } from "./form-parts";
import { DeleteQuestion, MoneyList, MoneyPageHeading, RowActions } from "./money-list";
import { shippingQuery, useDeleteShippingMethod, useSaveShippingMethod } from "./money-api";

const text = ADMIN_MONEY_TEXT.shipping;
const commonText = ADMIN_MONEY_TEXT.common;

const placeOf = (d: { country: string; region: string }) => (d.region ? `${d.region}, ${d.country}` : (COUNTRIES[d.country]?.name ?? d.country));

export default function ShippingPage() {
  const methods = useQuery(shippingQuery());
  const [editing, setEditing] = useState<ShippingMethod | "new" | null>(null);
  const [deleting, setDeleting] = useState<ShippingMethod | null>(null);
  const remove = useDeleteShippingMethod();
  return (
    <div>
      <MoneyPageHeading title={ADMIN_MONEY_TEXT.sections.shipping} addLabel={text.add} onAdd={() => setEditing("new")} />
      <section className="alert alert-info alert-soft mb-6 flex flex-col items-start" aria-label={text.pickupTitle}>
        <h3 className="font-semibold">{text.pickupTitle}</h3>
        <p>{text.pickupNote}</p>
      </section>
      {editing && <ShippingForm key={editing === "new" ? "new" : editing._id} method={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      <MoneyList query={methods} label={ADMIN_MONEY_TEXT.sections.shipping} empty={text.empty} columns={text.columns}>
        {(m) => (
          <tr key={m._id} data-testid="shipping-row">
            <td>{m.name}</td>
            <td>
              <ul>
                {m.zones.map((zone, i) => (
                  <li key={i}>{text.zoneSummary(zone.name, zone.destinations.map(placeOf).join(", "), zone.bands.length)}</li>
                ))}
              </ul>
            </td>
            <td>{m.freeOver === null ? text.never : formatDollars(m.freeOver)}</td>
            <td>{m.active ? commonText.yes : commonText.no}</td>
            <RowActions name={m.name} onEdit={() => setEditing(m)} onDelete={() => setDeleting(m)} />
          </tr>
        )}
      </MoneyList>
      <DeleteQuestion
        item={deleting}
        question={text.confirmDelete}
        busy={remove.isPending}
        onDelete={(m) => remove.mutate(m._id, { onSuccess: () => toast.success(text.deleted) })}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

type FormIn = z.input<typeof shippingMethodInputSchema>;
type FormOut = z.output<typeof shippingMethodInputSchema>;

const newZone = (): FormIn["zones"][number] => ({ name: "", destinations: [{ country: "", region: "" }], bands: [{ maxGrams: 5000, price: 0 }] });

export function ShippingForm({ method, onDone }: { method: ShippingMethod | null; onDone: () => void }) {
  const save = useSaveShippingMethod();
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(shippingMethodInputSchema),
    defaultValues: method ? { name: method.name, freeOver: method.freeOver, active: method.active, zones: method.zones } : { name: "", freeOver: null, active: true, zones: [newZone()] },
  });
  const zones = useFieldArray({ control: form.control, name: "zones" });
  const { errors } = form.formState;
  const title = method ? text.editTitle(method.name) : text.newTitle;
  const onSubmit = form.handleSubmit((input) => save.mutate({ methodId: method?._id ?? null, input }, afterSave(form.setError, method ? text.saved : text.created, onDone)));
  return (
    <FormCard title={title} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
        <Field label={text.name} error={errorAt(errors, "name")}>
          <input className="input input-bordered" {...form.register("name")} />
        </Field>
        <Field label={text.freeOver} error={errorAt(errors, "freeOver")}>
          <input type="number" step="0.01" min="0" className="input input-bordered" {...form.register("freeOver", { setValueAs: numberOrNull })} />
        </Field>
        <label className="flex cursor-pointer items-center gap-2 md:col-span-2">
          <input type="checkbox" className="checkbox" {...form.register("active")} />
          <span>{text.activeLabel}</span>
        </label>
        <div className="md:col-span-2">
          <h4 className="mb-2 font-semibold">{text.zones}</h4>
          <FieldError message={errorAt(errors, "zones")} />
          <div className="flex flex-col gap-4">
            {zones.fields.map((zone, z) => (
              <fieldset key={zone.id} className="rounded-box border-base-300 bg-base-100 border p-4">
                <legend className="px-1 font-semibold">{text.zone(z + 1)}</legend>
                <ZoneFields index={z} control={form.control} register={form.register} setValue={form.setValue} getValues={form.getValues} errors={errors} />
                {zones.fields.length > 1 && (
                  <button type="button" className="btn btn-sm btn-outline btn-error mt-3" aria-label={`${text.removeZone}: ${text.zone(z + 1)}`} onClick={() => zones.remove(z)}>
                    {text.removeZone}
                  </button>
                )}
              </fieldset>
            ))}
          </div>
          <button type="button" className="btn btn-sm mt-3" onClick={() => zones.append(newZone())}>
            {text.addZone}
          </button>
        </div>
    </FormCard>
  );
}

/** One zone: its name, where it delivers, and its weight bands. */
function ZoneFields({
  index,
  control,
  register,
  setValue,
  getValues,
  errors,
}: {
  index: number;
  control: Control<FormIn>;
  register: UseFormRegister<FormIn>;
  setValue: UseFormSetValue<FormIn>;
  getValues: UseFormGetValues<FormIn>;
  errors: FieldErrors<FormIn>;
}) {
  const destinations = useFieldArray({ control, name: `zones.${index}.destinations` });
  const bands = useFieldArray({ control, name: `zones.${index}.bands` });
  const zoneLabel = text.zone(index + 1);
  return (
    <div className="grid gap-3">
      <Field label={text.zoneName} error={errorAt(errors, `zones.${index}.name`)}>
        <input className="input input-bordered" {...register(`zones.${index}.name`)} />
      </Field>
      <fieldset>
        <legend className="label-text mb-1">{text.destinations}</legend>
        <FieldError message={errorAt(errors, `zones.${index}.destinations`)} />
        {destinations.fields.map((d, i) => (
          <div key={d.id} className="grid items-end gap-2 md:grid-cols-[1fr_1fr_auto]" role="group" aria-label={`${zoneLabel}, ${text.destination(i + 1)}`}>
            <CountryRegion
              control={control}
              register={register}
              setValue={setValue}
              errors={errors}
              country={`zones.${index}.destinations.${i}.country`}
              region={`zones.${index}.destinations.${i}.region`}
            />
            <button type="button" className="btn btn-sm" disabled={destinations.fields.length === 1} aria-label={`${zoneLabel}: ${text.removeDestination(i + 1)}`} onClick={() => destinations.remove(i)}>
              ✕
            </button>
            <div className="md:col-span-3">
              <FieldError message={errorAt(errors, `zones.${index}.destinations.${i}`)} />
            </div>
          </div>
        ))}
        <button type="button" className="btn btn-sm mt-2" onClick={() => destinations.append({ country: "", region: "" })}>
          {text.addDestination}
        </button>
      </fieldset>
      <fieldset>
        <legend className="label-text mb-1">{text.bands}</legend>
        <FieldError message={errorAt(errors, `zones.${index}.bands`)} />
        {bands.fields.map((b, i) => (
          <div key={b.id} className="grid items-end gap-2 md:grid-cols-[1fr_1fr_auto]" role="group" aria-label={`${zoneLabel}, ${text.band(i + 1)}`}>
            <Field label={text.maxGrams} error={errorAt(errors, `zones.${index}.bands.${i}.maxGrams`)}>
              <input type="number" step="1" min="0" className="input input-bordered" {...register(`zones.${index}.bands.${i}.maxGrams`, { setValueAs: numberOrUndefined })} />
            </Field>
            <Field label={text.price} error={errorAt(errors, `zones.${index}.bands.${i}.price`)}>
              <input type="number" step="0.01" min="0" className="input input-bordered" {...register(`zones.${index}.bands.${i}.price`, { setValueAs: numberOrUndefined })} />
            </Field>
            <button type="button" className="btn btn-sm" disabled={bands.fields.length === 1} aria-label={`${zoneLabel}: ${text.removeBand(i + 1)}`} onClick={() => bands.remove(i)}>
              ✕
            </button>
          </div>
        ))}
        <button
          type="button"
          className="btn btn-sm mt-2"
          onClick={() => {
            // A new band starts heavier than the last, so the order rule holds until the owner changes it.
            const last = getValues(`zones.${index}.bands`).at(-1);
            const lastGrams = Number.isInteger(last?.maxGrams) ? Number(last?.maxGrams) : 0;
            bands.append({ maxGrams: lastGrams + 5000, price: Number.isFinite(last?.price) ? Number(last?.price) : 0 });
          }}
        >
          {text.addBand}
        </button>
      </fieldset>
    </div>
  );
}
