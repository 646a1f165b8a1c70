/**
 * The console's products (issue 50): the list, a product's options, and its page with its tools'
 * stock and price side by side and the missing combinations of its options made in one step.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useFieldArray, useForm } from "react-hook-form";
import { Link, Route, Routes, useParams } from "react-router";
import { toast } from "react-toastify";
import { productInputSchema, type Product } from "../../../contract/catalogue-schemas";
import { formatDollars } from "../../../contract/money";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import type { z } from "../../../contract/zod";
import { DataTable } from "../../components/ui/data-table";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { productQuery, productsQuery, productToolsQuery, useCreateCombinations, useDeleteProduct, useSaveProduct } from "./catalogue-api";
import { DeleteQuestion, Problem, savedThen } from "./catalogue-parts";
import { errorAt, Field, FieldError, FormCard } from "./form-parts";
import { MoneyPageHeading } from "./money-list";

const text = CATALOGUE_ADMIN_TEXT.products;
const common = CATALOGUE_ADMIN_TEXT.common;

export default function ProductsSection() {
  return (
    <Routes>
      <Route index element={<ProductsList />} />
      <Route path=":id" element={<ProductPage />} />
    </Routes>
  );
}

function ProductsList() {
  const products = useQuery(productsQuery());
  const [editing, setEditing] = useState<Product | "new" | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const remove = useDeleteProduct();
  return (
    <div>
      <MoneyPageHeading title={CATALOGUE_ADMIN_TEXT.sections.products} addLabel={text.add} onAdd={() => setEditing("new")} />
      <p className="mb-4 text-sm">{text.intro}</p>
      {editing && <ProductForm key={editing === "new" ? "new" : editing._id} product={editing === "new" ? null : editing} onDone={() => setEditing(null)} />}
      <Problem error={remove.error} onDismiss={() => remove.reset()} />
      <QueryView query={products} isEmpty={(list) => list.length === 0} empty={text.empty}>
        {(list) => (
          <DataTable label={CATALOGUE_ADMIN_TEXT.sections.products} columns={text.columns}>
            {list.map((product) => (
              <tr key={product._id} data-testid="product-row">
                <td>
                  <Link className="link" to={`/admin/products/${product._id}`}>
                    {product.name}
                  </Link>
                </td>
                <td>{text.optionsOf(product.options)}</td>
                <td className="flex flex-wrap gap-1">
                  <button type="button" className="btn btn-xs" aria-label={text.editLabel(product.name)} onClick={() => setEditing(product)}>
                    {common.edit}
                  </button>
                  <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.deleteLabel(product.name)} onClick={() => setDeleting(product)}>
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
          if (deleting) remove.mutate(deleting._id, { onSuccess: () => toast.success(text.deleted) });
        }}
      />
    </div>
  );
}

type FormIn = z.input<typeof productInputSchema>;
type FormOut = z.output<typeof productInputSchema>;

/** A product's name, description and options; each option's values typed as one comma-separated line. */
function ProductForm({ product, onDone }: { product: Product | null; onDone: () => void }) {
  const save = useSaveProduct();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(productInputSchema),
    defaultValues: product ? { name: product.name, description: product.description, options: product.options } : { name: "", description: "", options: [{ name: "", values: [] }] },
  });
  const options = useFieldArray({ control: form.control, name: "options" });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: product?._id ?? null, input }, savedThen(form.setError, setProblem, product ? text.saved : text.created, onDone));
  });
  return (
    <FormCard title={product ? text.editTitle(product.name) : text.newTitle} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <Field label={text.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...form.register("name")} />
      </Field>
      <Field label={text.description} error={errorAt(errors, "description")}>
        <input className="input input-bordered" {...form.register("description")} />
      </Field>
      <fieldset className="md:col-span-2">
        <legend className="label-text mb-1 font-medium">{text.options}</legend>
        {options.fields.length === 0 && <p className="text-sm">{text.noOptions}</p>}
        <ol className="flex flex-col gap-2">
          {options.fields.map((row, i) => (
            <li key={row.id} className="flex flex-wrap items-end gap-2">
              <Field label={text.optionName(i + 1)} error={errorAt(errors, `options.${i}.name`)}>
                <input className="input input-bordered w-48" {...form.register(`options.${i}.name`)} />
              </Field>
              <Controller
                control={form.control}
                name={`options.${i}.values`}
                render={({ field }) => (
                  <Field label={text.optionValues(i + 1)} error={errorAt(errors, `options.${i}.values`)} className="min-w-64 flex-1">
                    <input
                      className="input input-bordered w-full"
                      name={field.name}
                      ref={field.ref}
                      onBlur={field.onBlur}
                      // Split and joined on the same comma, so what is typed stays as typed; the schema trims each value.
                      value={field.value.join(",")}
                      onChange={(e) => field.onChange(e.target.value === "" ? [] : e.target.value.split(","))}
                    />
                  </Field>
                )}
              />
              <button type="button" className="btn btn-ghost btn-sm text-error" onClick={() => options.remove(i)}>
                {text.removeOption(i + 1)}
              </button>
            </li>
          ))}
        </ol>
        <FieldError message={errorAt(errors, "options")} />
        {options.fields.length < 3 && (
          <button type="button" className="btn btn-sm mt-2" onClick={() => options.append({ name: "", values: [] })}>
            {text.addOption}
          </button>
        )}
      </fieldset>
    </FormCard>
  );
}

/** Every combination of the options' values (one, empty, without options). */
function combinations(options: Product["options"]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>((combos, option) => combos.flatMap((combo) => option.values.map((value) => ({ ...combo, [option.name]: value }))), [{}]);
}

function ProductPage() {
  const { id = "" } = useParams();
  const product = useQuery(productQuery(id));
  const tools = useQuery(productToolsQuery(id));
  const combine = useCreateCombinations();
  const save = useSaveProduct();
  return (
    <div>
      <PageTitle title={product.data?.name ?? null} />
      <Link className="link mb-4 inline-block" to="/admin/products">
        {text.back}
      </Link>
      <QueryView query={product} isEmpty={() => false} empty={null}>
        {(p) => (
          <>
            <h2 className="text-2xl font-semibold">{p.name}</h2>
            {p.description && <p className="mb-2">{p.description}</p>}
            <p className="mb-4 text-sm">{text.optionsOf(p.options)}</p>
            <h3 className="mb-2 text-xl font-semibold" id="product-tools">
              {text.tools}
            </h3>
            <p className="text-base-content/80 mb-2 text-sm">{text.defaultHint}</p>
            <Problem error={combine.error} onDismiss={() => combine.reset()} />
            <Problem error={save.error} onDismiss={() => save.reset()} />
            <QueryView query={tools} isEmpty={(list) => list.length === 0} empty={text.toolsEmpty}>
              {(list) => {
                const present = new Set(list.map((tool) => JSON.stringify(p.options.map((o) => tool.optionValues[o.name] ?? null))));
                const missing = combinations(p.options).filter((combo) => !present.has(JSON.stringify(p.options.map((o) => combo[o.name] ?? null)))).length;
                return (
                  <>
                    <DataTable
                      labelledBy="product-tools"
                      columns={[text.toolColumns.tool, ...p.options.map((o) => o.name), text.toolColumns.sku, text.toolColumns.stock, text.toolColumns.price, text.toolColumns.status]}
                    >
                      {list.map((tool) => (
                        <tr key={tool._id} data-testid="product-tool-row">
                          <td>
                            <Link className="link" to={`/admin/tools/${tool._id}`}>
                              {tool.name}
                            </Link>
                            {tool._id === p.defaultToolId ? (
                              <span className="badge badge-outline ml-2">{text.isDefault}</span>
                            ) : (
                              // An archived tool too: the owner may choose before the product goes on sale.
                              <button
                                type="button"
                                className="btn btn-ghost btn-xs ml-2"
                                aria-label={text.makeDefaultLabel(tool.name)}
                                disabled={save.isPending}
                                onClick={() => save.mutate({ current: p._id, input: { defaultToolId: tool._id } }, { onSuccess: () => toast.success(text.defaultSet(tool.name)) })}
                              >
                                {text.makeDefault}
                              </button>
                            )}
                          </td>
                          {p.options.map((o) => (
                            <td key={o.name}>{tool.optionValues[o.name] ?? ""}</td>
                          ))}
                          <td className="font-mono text-xs">{tool.sku}</td>
                          <td data-testid="product-tool-stock">{tool.availableQuantity}</td>
                          <td data-testid="product-tool-price">{formatDollars(tool.price)}</td>
                          <td>{tool.active ? text.active : text.archived}</td>
                        </tr>
                      ))}
                    </DataTable>
                    <div className="mt-4 flex flex-wrap items-center gap-3">
                      <p data-testid="missing-combinations">{missing > 0 ? text.missing(missing) : text.complete}</p>
                      {missing > 0 && (
                        <button
                          type="button"
                          className="btn btn-primary btn-sm"
                          aria-describedby="missing-hint"
                          disabled={combine.isPending}
                          onClick={() => combine.mutate(p._id, { onSuccess: (result) => toast.success(text.createdMissing(result.created.length)) })}
                        >
                          {text.createMissing}
                        </button>
                      )}
                    </div>
                    {missing > 0 && (
                      <p id="missing-hint" className="text-base-content/80 mt-1 text-sm">
                        {text.missingHint}
                      </p>
                    )}
                  </>
                );
              }}
            </QueryView>
          </>
        )}
      </QueryView>
    </div>
  );
}
