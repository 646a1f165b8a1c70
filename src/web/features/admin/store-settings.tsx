/** The store as its invoices name it, and the address pickup orders are taxed at (issue 31). */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import { storeSettingsSchema, type StoreSettings } from "../../../contract/money-schemas";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import { MONEY_TEXT } from "../../../contract/texts/money";
import type { z } from "../../../contract/zod";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { CountryRegion, errorAt, Field, SaveButton, showServerErrors } from "./form-parts";
import { settingsQuery, useSaveSettings } from "./money-api";

const text = ADMIN_MONEY_TEXT.settings;

export default function StoreSettingsPage() {
  const settings = useQuery(settingsQuery());
  return (
    <div>
      <PageTitle title={ADMIN_MONEY_TEXT.sections.settings} />
      <h2 className="mb-2 text-2xl font-semibold">{ADMIN_MONEY_TEXT.sections.settings}</h2>
      <p className="mb-4">{text.intro}</p>
      <QueryView query={settings} isEmpty={() => false} empty={null}>
        {(current) => <SettingsForm settings={current} />}
      </QueryView>
    </div>
  );
}

type FormIn = z.input<typeof storeSettingsSchema>;
type FormOut = z.output<typeof storeSettingsSchema>;

export function SettingsForm({ settings }: { settings: StoreSettings }) {
  const save = useSaveSettings();
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(storeSettingsSchema), defaultValues: settings });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) =>
    save.mutate(input, {
      onSuccess: (saved) => {
        toast.success(text.saved);
        // What the server kept (trimmed, upper-cased) becomes the form's new starting point.
        form.reset(saved);
      },
      onError: (error) => showServerErrors(error, form.setError),
    }),
  );
  return (
    <form className="card bg-base-200" aria-label={ADMIN_MONEY_TEXT.sections.settings} noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="card-body grid gap-3 md:grid-cols-2">
        <Field label={text.legalName} error={errorAt(errors, "legalName")}>
          <input className="input input-bordered" autoComplete="organization" {...form.register("legalName")} />
        </Field>
        <Field label={text.taxId} error={errorAt(errors, "taxId")}>
          <input className="input input-bordered" {...form.register("taxId")} />
        </Field>
        <Field label={text.timeZone} error={errorAt(errors, "timeZone")}>
          <input className="input input-bordered" {...form.register("timeZone")} />
        </Field>
        <Field label={text.address} error={errorAt(errors, "address")} className="md:col-span-2">
          <input className="input input-bordered" autoComplete="street-address" {...form.register("address")} />
        </Field>
        <Field label={text.city} error={errorAt(errors, "city")}>
          <input className="input input-bordered" autoComplete="address-level2" {...form.register("city")} />
        </Field>
        <Field label={text.postalCode} error={errorAt(errors, "postalCode")}>
          <input className="input input-bordered" autoComplete="postal-code" {...form.register("postalCode")} />
        </Field>
        <CountryRegion
          control={form.control}
          register={form.register}
          setValue={form.setValue}
          errors={errors}
          country="country"
          region="region"
          emptyRegion={MONEY_TEXT.chooseRegion}
        />
        <div className="md:col-span-2">
          <SaveButton pending={save.isPending} />
        </div>
      </div>
    </form>
  );
}
