/** The console's specification definitions (issue 50): key, name, unit, kind and whether shoppers filter on it. */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useForm, type FieldValues, type UseFormReturn } from "react-hook-form";
import { toast } from "react-toastify";
import { specDefinitionInputSchema, specDefinitionPatchSchema, specKinds, type SpecDefinition } from "../../../contract/catalogue-schemas";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import type { z } from "../../../contract/zod";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { specsQuery, useDeleteSpec, useSaveSpec } from "./catalogue-api";
import { DeleteQuestion, Problem, savedThen } from "./catalogue-parts";
import { errorAt, Field, FormCard } from "./form-parts";
import { MoneyPageHeading } from "./money-list";

const text = CATALOGUE_ADMIN_TEXT.specs;
const common = CATALOGUE_ADMIN_TEXT.common;

export default function SpecsPage() {
  const specs = useQuery(specsQuery());
  const [editing, setEditing] = useState<SpecDefinition | "new" | null>(null);
  const [deleting, setDeleting] = useState<SpecDefinition | null>(null);
  const remove = useDeleteSpec();
  return (
    <div>
      <MoneyPageHeading title={CATALOGUE_ADMIN_TEXT.sections.specs} addLabel={text.add} onAdd={() => setEditing("new")} />
      <p className="mb-4 text-sm">{text.intro}</p>
      {editing === "new" && <NewSpecForm onDone={() => setEditing(null)} />}
      {editing && editing !== "new" && <EditSpecForm key={editing.key} spec={editing} onDone={() => setEditing(null)} />}
      <Problem error={remove.error} onDismiss={() => remove.reset()} />
      <QueryView query={specs} isEmpty={(list) => list.length === 0} empty={text.empty}>
        {(list) => (
          <DataTable label={CATALOGUE_ADMIN_TEXT.sections.specs} columns={text.columns}>
            {list.map((spec) => (
              <tr key={spec.key} data-testid="spec-row">
                <td className="font-mono">{spec.key}</td>
                <td>{spec.name}</td>
                <td>{spec.unit ?? ""}</td>
                <td>{text.kinds[spec.kind]}</td>
                <td>{spec.filterable ? common.yes : common.no}</td>
                <td className="flex flex-wrap gap-1">
                  <button type="button" className="btn btn-xs" aria-label={text.editLabel(spec.name)} onClick={() => setEditing(spec)}>
                    {common.edit}
                  </button>
                  <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.deleteLabel(spec.name)} onClick={() => setDeleting(spec)}>
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
          if (deleting) remove.mutate(deleting.key, { onSuccess: () => toast.success(text.deleted) });
        }}
      />
    </div>
  );
}

/** An empty unit is none. */
const unitOrNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

/** The fields both forms have: name, unit, kind, filterable. */
function SpecFields<T extends FieldValues>({ form }: { form: UseFormReturn<T> }) {
  // The two forms' values share these four names; react-hook-form's paths are typed per form.
  const f = form as unknown as UseFormReturn<{ name: string; unit?: string | null; kind: string; filterable?: boolean }>;
  const { errors } = f.formState;
  return (
    <>
      <Field label={text.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...f.register("name")} />
      </Field>
      <Field label={text.unit} error={errorAt(errors, "unit")}>
        <input className="input input-bordered" {...f.register("unit", { setValueAs: unitOrNull })} />
      </Field>
      <Field label={text.kind} error={errorAt(errors, "kind")}>
        <select className="select select-bordered" {...f.register("kind")}>
          {specKinds.map((kind) => (
            <option key={kind} value={kind}>
              {text.kinds[kind]}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex cursor-pointer items-center gap-2 self-end">
        <input type="checkbox" className="checkbox" {...f.register("filterable")} />
        <span>{text.filterable}</span>
      </label>
    </>
  );
}

function NewSpecForm({ onDone }: { onDone: () => void }) {
  const save = useSaveSpec();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<z.input<typeof specDefinitionInputSchema>, unknown, z.output<typeof specDefinitionInputSchema>>({
    resolver: zodResolver(specDefinitionInputSchema),
    defaultValues: { key: "", name: "", unit: null, kind: "text", filterable: false },
  });
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: null, input }, savedThen(form.setError, setProblem, text.created, onDone, "key"));
  });
  return (
    <FormCard title={text.newTitle} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <Field label={text.key} error={errorAt(form.formState.errors, "key")} hint={text.keyHint}>
        <input className="input input-bordered font-mono" autoCapitalize="none" {...form.register("key")} />
      </Field>
      <SpecFields form={form} />
    </FormCard>
  );
}

function EditSpecForm({ spec, onDone }: { spec: SpecDefinition; onDone: () => void }) {
  const save = useSaveSpec();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<z.input<typeof specDefinitionPatchSchema>, unknown, z.output<typeof specDefinitionPatchSchema>>({
    resolver: zodResolver(specDefinitionPatchSchema),
    defaultValues: { name: spec.name, unit: spec.unit, kind: spec.kind, filterable: spec.filterable },
  });
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: spec.key, input }, savedThen(form.setError, setProblem, text.saved, onDone));
  });
  return (
    <FormCard title={text.editTitle(spec.name)} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <SpecFields form={form} />
    </FormCard>
  );
}
