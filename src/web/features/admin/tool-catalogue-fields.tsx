/**
 * The tool form's catalogue fields (issue 50): SKU, GTIN, brand, the category from the tree, the
 * specifications the definitions offer (a number field for a number, a checkbox for yes or no, a
 * text field for a text), the photos (upload, reorder, remove) and the product with its option
 * values. The values are the create and change payloads' own (adminToolFormSchema checks them).
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useWatch, type UseFormReturn } from "react-hook-form";
import type { AdminTool, AdminToolInput } from "../../../contract/admin-schemas";
import type { SpecDefinition, SpecValue } from "../../../contract/catalogue-schemas";
import { photoSrcSet, PHOTO_MAX_BYTES } from "../../../contract/images";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import { brandsQuery, categoriesQuery, productsQuery, specsQuery } from "./catalogue-api";
import { flattenTree, indented } from "./catalogue-parts";
import { errorAt, Field, FieldError } from "./form-parts";
import { useUploadPhoto } from "./api";

const text = CATALOGUE_ADMIN_TEXT.toolForm;

export type ToolFormValues = Omit<AdminToolInput, "lowStockThreshold"> & { lowStockThreshold?: number | null };
type Form = UseFormReturn<ToolFormValues>;

/** The form's starting catalogue values: a tool's own, or none for a new one. */
export function catalogueDefaults(tool: AdminTool | null): Partial<ToolFormValues> {
  if (!tool) return { sku: undefined, gtin: null, brand: null, specs: {}, productId: null, optionValues: {} };
  return {
    sku: tool.sku,
    gtin: tool.gtin,
    brand: tool.brand?.slug ?? null,
    category: tool.categoryPath.at(-1)?.slug ?? tool.category,
    specs: Object.fromEntries(tool.specs.map((spec) => [spec.key, spec.value])),
    images: tool.images,
    productId: tool.product?._id ?? null,
    optionValues: tool.optionValues,
  };
}

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const emptyToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

export function CatalogueFields({ form, tool }: { form: Form; tool: AdminTool | null }) {
  const brands = useQuery(brandsQuery());
  const categories = useQuery(categoriesQuery());
  const { errors } = form.formState;
  return (
    <fieldset className="grid gap-3 md:col-span-2 md:grid-cols-2" data-testid="catalogue-fields">
      <legend className="label-text mb-1 font-medium">{text.catalogue}</legend>
      <Field label={text.sku} error={errorAt(errors, "sku")} hint={tool ? undefined : text.skuHint}>
        <input className="input input-bordered font-mono" autoCapitalize="characters" {...form.register("sku", { setValueAs: emptyToUndefined })} />
      </Field>
      <Field label={text.gtin} error={errorAt(errors, "gtin")} hint={text.gtinHint}>
        <input className="input input-bordered font-mono" inputMode="numeric" {...form.register("gtin", { setValueAs: emptyToNull })} />
      </Field>
      <Field label={text.brand} error={errorAt(errors, "brand")}>
        <select className="select select-bordered" {...form.register("brand", { setValueAs: emptyToNull })}>
          <option value="">{text.noBrand}</option>
          {/* A brand the tool names stays choosable while the list loads. */}
          {(brands.data ?? (tool?.brand ? [tool.brand] : [])).map((brand) => (
            <option key={brand.slug} value={brand.slug}>
              {brand.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label={text.category} error={errorAt(errors, "category")}>
        <select className="select select-bordered" {...form.register("category")}>
          {categories.data
            ? flattenTree(categories.data).map(({ node, depth }) => (
                <option key={node.slug} value={node.slug}>
                  {indented(node.name, depth)}
                </option>
              ))
            : (tool?.categoryPath ?? [{ slug: form.getValues("category"), name: form.getValues("category") }]).slice(-1).map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
        </select>
      </Field>
      <SpecFields form={form} />
      <ProductFields form={form} tool={tool} />
      {tool ? <PhotoFields form={form} toolId={tool._id} name={tool.name} /> : <p className="text-base-content/80 text-sm md:col-span-2">{text.photosLater}</p>}
    </fieldset>
  );
}

/** A number field's value: empty is none (null removes the value), else the number (NaN fails the schema, told at the field). */
const numberOrNull = (raw: string): number | null => (raw.trim() === "" ? null : Number(raw));

function SpecFields({ form }: { form: Form }) {
  const specs = useQuery(specsQuery());
  const definitions = specs.data ?? [];
  const { errors } = form.formState;
  return (
    <Controller
      control={form.control}
      name="specs"
      render={({ field }) => {
        const values = field.value ?? {};
        const set = (key: string, value: SpecValue | null) => field.onChange({ ...values, [key]: value });
        return (
          <fieldset className="grid gap-3 md:col-span-2 md:grid-cols-3" data-testid="spec-fields">
            <legend className="label-text mb-1 font-medium">{text.specs}</legend>
            {specs.isSuccess && definitions.length === 0 && <p className="text-sm md:col-span-3">{text.noSpecs}</p>}
            {definitions.map((def) => (
              <SpecInput key={def.key} def={def} value={values[def.key]} error={errorAt(errors, `specs.${def.key}`)} onChange={(value) => set(def.key, value)} />
            ))}
          </fieldset>
        );
      }}
    />
  );
}

const labelOf = (def: SpecDefinition) => (def.unit ? `${def.name} (${def.unit})` : def.name);

function SpecInput({ def, value, error, onChange }: { def: SpecDefinition; value: SpecValue | null | undefined; error: string | undefined; onChange: (value: SpecValue | null) => void }) {
  // An unticked box is "no" once the tool has a value; a tool that never had one keeps none (so an unused definition stays deletable).
  const [hadValue] = useState(value !== undefined && value !== null);
  if (def.kind === "boolean") {
    return (
      <div className="flex flex-col gap-1 self-end">
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" className="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked ? true : hadValue ? false : null)} aria-invalid={error ? true : undefined} />
          <span>{labelOf(def)}</span>
        </label>
        <FieldError message={error} />
      </div>
    );
  }
  return (
    <Field label={labelOf(def)} error={error}>
      {def.kind === "number" ? (
        <input type="number" step="any" className="input input-bordered" defaultValue={typeof value === "number" ? value : ""} onChange={(e) => onChange(numberOrNull(e.target.value))} />
      ) : (
        <input className="input input-bordered" defaultValue={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value.trim() === "" ? null : e.target.value)} />
      )}
    </Field>
  );
}

function ProductFields({ form, tool }: { form: Form; tool: AdminTool | null }) {
  const products = useQuery(productsQuery());
  // The tool's own product stays choosable (and chosen) while the list loads.
  const choices = products.data ?? (tool?.product ? [{ ...tool.product, description: "", defaultToolId: null }] : []);
  const productId = useWatch({ control: form.control, name: "productId" });
  const product = choices.find((p) => p._id === productId);
  const { errors } = form.formState;
  return (
    <>
      <Field label={text.product} error={errorAt(errors, "productId")}>
        <select
          className="select select-bordered"
          {...form.register("productId", {
            setValueAs: emptyToNull,
            // Another product's options are other options: the values start again.
            onChange: () => form.setValue("optionValues", {}, { shouldDirty: true }),
          })}
        >
          <option value="">{text.noProduct}</option>
          {choices.map((p) => (
            <option key={p._id} value={p._id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      {product && product.options.length > 0 && (
        <Controller
          control={form.control}
          name="optionValues"
          render={({ field }) => {
            const values = field.value ?? {};
            return (
              <fieldset className="flex flex-wrap gap-3 md:col-span-2" data-testid="option-value-fields">
                <legend className="label-text mb-1 font-medium">{text.product}</legend>
                {product.options.map((option) => (
                  <Field key={option.name} label={text.optionValue(option.name)} error={undefined}>
                    <select
                      className="select select-bordered"
                      value={values[option.name] ?? ""}
                      onChange={(e) => {
                        const others = Object.entries(values).filter(([name]) => name !== option.name);
                        field.onChange(Object.fromEntries(e.target.value ? [...others, [option.name, e.target.value]] : others));
                      }}
                    >
                      <option value="">{text.chooseValue}</option>
                      {option.values.map((value) => (
                        <option key={value} value={value}>
                          {value}
                        </option>
                      ))}
                    </select>
                  </Field>
                ))}
                <div className="w-full">
                  <FieldError message={errorAt(errors, "optionValues")} />
                </div>
              </fieldset>
            );
          }}
        />
      )}
    </>
  );
}

/**
 * The tool's photos in order (the first is the main one): each moved earlier or later or removed,
 * and a new one uploaded (the server adds it first to the saved photos; here it joins the list as
 * shown, first, and Save keeps the order shown).
 */
function PhotoFields({ form, toolId, name }: { form: Form; toolId: string; name: string }) {
  const upload = useUploadPhoto();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { errors } = form.formState;
  return (
    <Controller
      control={form.control}
      name="images"
      render={({ field }) => {
        const images = field.value ?? [];
        const move = (from: number, to: number) => {
          const next = [...images];
          const [photo] = next.splice(from, 1);
          if (photo === undefined) return;
          next.splice(to, 0, photo);
          field.onChange(next);
        };
        const onFile = (file: File | undefined) => {
          if (!file) return;
          setProblem(null);
          if (file.size > PHOTO_MAX_BYTES) {
            setProblem(ADMIN_TEXT.photo.tooLarge);
            return;
          }
          setProgress(0);
          upload.mutate(
            { id: toolId, file, onProgress: setProgress },
            {
              onSuccess: (updated) => {
                const added = updated.images[0];
                if (added) field.onChange([added, ...images.filter((image) => image !== added)]);
              },
              onError: (e) => setProblem(e.message),
              onSettled: () => setProgress(null),
            },
          );
        };
        return (
          <fieldset className="md:col-span-2" data-testid="photo-fields">
            <legend className="label-text mb-1 font-medium">{text.photos}</legend>
            <p className="text-base-content/80 mb-2 text-sm">{text.photosHint}</p>
            <ol className="flex flex-wrap gap-3">
              {images.map((image, i) => (
                <li key={image} className="bg-base-100 rounded-box flex flex-col items-center gap-1 p-2" data-testid="form-photo">
                  <img src={image} srcSet={photoSrcSet(image)} sizes="128px" alt={`${name}: ${text.photoAlt(i + 1)}`} width={128} height={96} className="aspect-[4/3] w-32 object-cover" />
                  <div className="flex gap-1">
                    <button type="button" className="btn btn-xs" aria-label={text.photoUp(i + 1)} disabled={i === 0} onClick={() => move(i, i - 1)}>
                      ← {text.up}
                    </button>
                    <button type="button" className="btn btn-xs" aria-label={text.photoDown(i + 1)} disabled={i === images.length - 1} onClick={() => move(i, i + 1)}>
                      {text.down} →
                    </button>
                    <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.photoRemove(i + 1)} onClick={() => field.onChange(images.filter((_, j) => j !== i))}>
                      {text.remove}
                    </button>
                  </div>
                </li>
              ))}
            </ol>
            <FieldError message={errorAt(errors, "images")} />
            <label className="form-control mt-2 flex flex-col gap-1">
              <span className="label-text">{text.addPhoto}</span>
              <input
                type="file"
                accept="image/jpeg,image/png,image/webp"
                className="text-sm"
                disabled={upload.isPending}
                onChange={(e) => {
                  onFile(e.target.files?.[0]);
                  // The same file chosen again is a second upload.
                  e.target.value = "";
                }}
              />
            </label>
            {progress !== null && (
              <label className="flex items-center gap-2 text-sm">
                {ADMIN_TEXT.photo.progress(progress)}
                <progress className="w-48" value={progress} max={100} />
              </label>
            )}
            {problem && (
              <span className="text-error text-sm" role="alert">
                {problem}
              </span>
            )}
          </fieldset>
        );
      }}
    />
  );
}
