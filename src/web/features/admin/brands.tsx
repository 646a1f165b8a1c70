/** The console's brands (issue 50): list, add, rename, delete (a brand tools name stays: the server says why). */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import { brandInputSchema, type Brand } from "../../../contract/catalogue-schemas";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import type { z } from "../../../contract/zod";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { brandsQuery, useDeleteBrand, useSaveBrand } from "./catalogue-api";
import { DeleteQuestion, Problem, savedThen } from "./catalogue-parts";
import { errorAt, Field, FormCard } from "./form-parts";
import { MoneyPageHeading } from "./money-list";

const text = CATALOGUE_ADMIN_TEXT.brands;
const common = CATALOGUE_ADMIN_TEXT.common;

export default function BrandsPage() {
  const brands = useQuery(brandsQuery());
  const [editing, setEditing] = useState<Brand | "new" | null>(null);
  const [deleting, setDeleting] = useState<Brand | null>(null);
  const remove = useDeleteBrand();
  return (
    <div>
      <MoneyPageHeading title={CATALOGUE_ADMIN_TEXT.sections.brands} addLabel={text.add} onAdd={() => setEditing("new")} />
      {editing && <BrandForm key={editing === "new" ? "new" : editing.slug} brand={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      <Problem error={remove.error} onDismiss={() => remove.reset()} />
      <QueryView query={brands} isEmpty={(list) => list.length === 0} empty={text.empty}>
        {(list) => (
          <DataTable label={CATALOGUE_ADMIN_TEXT.sections.brands} columns={text.columns}>
            {list.map((brand) => (
              <tr key={brand.slug} data-testid="brand-row">
                <td>{brand.name}</td>
                <td className="font-mono">{brand.slug}</td>
                <td className="flex flex-wrap gap-1">
                  <button type="button" className="btn btn-xs" aria-label={text.editLabel(brand.name)} onClick={() => setEditing(brand)}>
                    {common.rename}
                  </button>
                  <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.deleteLabel(brand.name)} onClick={() => setDeleting(brand)}>
                    {common.delete}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </QueryView>
      <DeleteQuestion
        name={deleting?.name ?? null}
        question={text.confirmDelete}
        onClose={() => setDeleting(null)}
        onDelete={() => {
          if (deleting) remove.mutate(deleting.slug, { onSuccess: () => toast.success(text.deleted) });
        }}
      />
    </div>
  );
}

type FormIn = z.input<typeof brandInputSchema>;
type FormOut = z.output<typeof brandInputSchema>;

function BrandForm({ brand, onDone }: { brand: Brand | null; onDone: () => void }) {
  const save = useSaveBrand();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({ resolver: zodResolver(brandInputSchema), defaultValues: brand ?? { slug: "", name: "" } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: brand?.slug ?? null, input }, savedThen(form.setError, setProblem, brand ? text.saved : text.created, onDone, "slug"));
  });
  return (
    <FormCard title={brand ? text.editTitle(brand.name) : text.newTitle} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <Field label={common.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...form.register("name")} />
      </Field>
      <Field label={common.slug} error={errorAt(errors, "slug")} hint={common.slugHint}>
        <input className="input input-bordered font-mono" autoCapitalize="none" {...form.register("slug")} />
      </Field>
    </FormCard>
  );
}
