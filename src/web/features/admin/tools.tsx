import { STOCK_ALERT_TEXT } from "../../../contract/texts/stock-alerts";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useFieldArray, useForm, type UseFormReturn } from "react-hook-form";
import { Link, useParams } from "react-router";
import { toast } from "react-toastify";
import {
  adminToolFormSchema,
  stockMovementInputSchema,
  type AdminTool,
  type StockMovementInput,
} from "../../../contract/admin-schemas";
import { CATEGORIES, CATEGORY_LABELS } from "../../../contract/constants";
import { formatDollars } from "../../../contract/money";
import { ADMIN_STOCK_REASONS } from "../../../contract/stock";
import { ADMIN_MONEY_TEXT, ADMIN_TEXT } from "../../../contract/texts/admin";
import { PRICE_TIER_TEXT } from "../../../contract/texts/price-tiers";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { photoSrcSet, PHOTO_MAX_BYTES } from "../../../contract/images";
import { ApiRequestError } from "../../lib/api";
import { showServerErrors } from "./form-parts";
import { CatalogueFields, catalogueDefaults, type ToolFormValues } from "./tool-catalogue-fields";
import { categoriesQuery } from "./catalogue-api";
import { flattenTree, indented } from "./catalogue-parts";
import { ledgerQuery, toolsQuery, useCreateTool, useDeleteTool, useMoveStock, useUpdateTool, useUploadPhoto } from "./api";
import { AdminList, SEARCH_DEBOUNCE_MS, Table, useDebouncedCallback, useFilters, when } from "./ui";

const toolsText = ADMIN_TEXT.tools;
const toolFormText = ADMIN_TEXT.toolForm;
const stockText = ADMIN_TEXT.stock;

export default function ToolsPage() {
  const { values, page, set } = useFilters(["q", "category", "status"] as const);
  const tools = useQuery(toolsQuery({ ...values, page }));
  const categories = useQuery(categoriesQuery());
  const search = useDebouncedCallback((q: string) => set("q", q), SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<AdminTool | "new" | null>(null);
  const [deleting, setDeleting] = useState<AdminTool | null>(null);
  const update = useUpdateTool();
  const remove = useDeleteTool();

  const setActive = (tool: AdminTool, active: boolean) =>
    update.mutate(
      { id: tool._id, patch: { active } },
      { onSuccess: () => toast.success(active ? toolsText.restored : toolsText.archivedToast) },
    );

  return (
    <div>
      <PageTitle title={ADMIN_TEXT.sections.tools} />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-2xl font-semibold">{ADMIN_TEXT.sections.tools}</h2>
        <button type="button" className="btn btn-primary" onClick={() => setEditing("new")}>
          {toolsText.add}
        </button>
      </div>
      {/* Keyed: a form opened for another tool starts from that tool's values, never the last one's. */}
      {editing && <ToolForm key={editing === "new" ? "new" : editing._id} tool={editing === "new" ? null : editing} onDone={() => setEditing(null)} onCreated={setEditing} />}
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="form-control">
          <span className="label-text">{toolsText.search}</span>
          <input type="search" className="input input-bordered" defaultValue={values.q} onChange={(e) => search(e.target.value)} />
        </label>
        <label className="form-control">
          <span className="label-text">{toolsText.category}</span>
          <select className="select select-bordered" value={values.category} onChange={(e) => set("category", e.target.value)}>
            <option value="">{toolsText.allCategories}</option>
            {/* The tree once it is read (a category lists its descendants' tools too); the four main ones meanwhile. */}
            {categories.data
              ? flattenTree(categories.data).map(({ node, depth }) => (
                  <option key={node.slug} value={node.slug}>
                    {indented(node.name, depth)}
                  </option>
                ))
              : CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {CATEGORY_LABELS[c]}
                  </option>
                ))}
          </select>
        </label>
        <label className="form-control">
          <span className="label-text">{toolsText.status}</span>
          <select className="select select-bordered" value={values.status} onChange={(e) => set("status", e.target.value)}>
            <option value="">{toolsText.any}</option>
            <option value="active">{toolsText.active}</option>
            <option value="archived">{toolsText.archived}</option>
          </select>
        </label>
      </div>
      <AdminList
        query={tools}
        label={ADMIN_TEXT.sections.tools}
        empty={toolsText.empty}
        page={page}
        onPage={(p) => set("page", String(p))}
        columns={[toolsText.columns.name, toolsText.columns.category, toolsText.columns.price, toolsText.columns.stock, STOCK_ALERT_TEXT.waiting, toolsText.columns.minimum, toolsText.columns.status, toolsText.columns.actions]}
      >
        {(tool) => (
          <tr key={tool._id} data-testid="admin-tool-row">
            <td>
              <Link className="link" to={`/admin/tools/${tool._id}`}>
                {tool.name}
              </Link>
            </td>
            <td>{tool.categoryPath.map((c) => c.name).join(" › ") || CATEGORY_LABELS[tool.category]}</td>
            <td>{formatDollars(tool.price)}</td>
            <td>
              {tool.availableQuantity}
              {tool.availableQuantity < tool.minimumQuantity ? (
                <span className="badge text-base-content border-base-content/40 bg-base-200 ml-2">{toolsText.outOfStock}</span>
              ) : (
                tool.lowStock && <span className="badge text-base-content border-warning bg-warning/15 ml-2">{toolsText.lowStock}</span>
              )}
            </td>
            <td data-testid="alerts-waiting" title={STOCK_ALERT_TEXT.waitingHint}>
              {tool.alertsWaiting ?? 0}
            </td>
            <td>{tool.minimumQuantity}</td>
            <td>{tool.active ? toolsText.active : toolsText.archived}</td>
            <td className="flex flex-wrap gap-1">
              <button type="button" className="btn btn-xs" onClick={() => setEditing(tool)}>
                {toolsText.edit}
              </button>
              {tool.active ? (
                <button type="button" className="btn btn-xs" onClick={() => setActive(tool, false)}>
                  {toolsText.archive}
                </button>
              ) : (
                <button type="button" className="btn btn-xs" onClick={() => setActive(tool, true)}>
                  {toolsText.restore}
                </button>
              )}
              <button type="button" className="btn btn-xs btn-error btn-outline" onClick={() => setDeleting(tool)}>
                {toolsText.delete}
              </button>
            </td>
          </tr>
        )}
      </AdminList>
      <ConfirmDialog
        open={deleting !== null}
        question={toolsText.confirmDelete}
        confirmLabel={toolsText.delete}
        cancelLabel={toolFormText.cancel}
        onConfirm={() => {
          if (deleting)
            remove.mutate(deleting._id, { onSuccess: (r) => toast.success(r.outcome === "deleted" ? toolsText.deleted : toolsText.archivedToast) });
          setDeleting(null);
        }}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

/** Create or edit, with the API's own zod schema. */
/** A new tool, once saved, stays open as that tool's form: its photos are uploaded there (they need its id). */
function ToolForm({ tool, onDone, onCreated }: { tool: AdminTool | null; onDone: () => void; onCreated: (created: AdminTool) => void }) {
  const create = useCreateTool();
  const update = useUpdateTool();
  const form = useForm<ToolFormValues>({
    resolver: zodResolver(adminToolFormSchema),
    defaultValues: tool
      ? {
          name: tool.name,
          category: tool.category,
          description: tool.description,
          price: tool.price,
          availableQuantity: tool.availableQuantity,
          minimumQuantity: tool.minimumQuantity,
          image: tool.image,
          lowStockThreshold: tool.lowStockThreshold,
          weightGrams: tool.weightGrams,
          priceTiers: tool.priceTiers,
          ...catalogueDefaults(tool),
        }
      : {
          name: "",
          category: "hand-tools",
          description: "",
          image: "/images/tools/claw-hammer.svg",
          minimumQuantity: 1,
          lowStockThreshold: null,
          active: true,
          priceTiers: [],
          ...catalogueDefaults(null),
        },
  });
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit((values) => {
    const options = {
      onSuccess: (saved: AdminTool) => {
        toast.success(tool ? toolsText.saved : toolsText.created);
        if (tool) onDone();
        else onCreated(saved);
      },
      // The server's refusals at their fields: a 400's details (a GTIN, a specification), a taken SKU, a combination another tool has.
      onError: (error: Error) => {
        showServerErrors(error, form.setError);
        if (error instanceof ApiRequestError && error.code === "SKU_TAKEN") form.setError("sku", { type: "server", message: error.message });
        if (error instanceof ApiRequestError && error.code === "VARIANT_EXISTS") form.setError("optionValues", { type: "server", message: error.message });
      },
    };
    if (tool) {
      // The photos are `images` (their first is the image): the old single image is not sent beside them.
      update.mutate({ id: tool._id, patch: { ...values, image: undefined } }, options);
    } else create.mutate(values, options);
  });
  const number = (v: unknown) => (v === "" || v === null || Number.isNaN(v) ? undefined : Number(v));
  const field = (name: keyof ToolFormValues, label: string, input: React.ReactNode) => (
    <label className="form-control">
      <span className="label-text">{label}</span>
      {input}
      {errors[name] && (
        <span className="text-error text-sm" role="alert">
          {(errors[name] as { message?: string } | undefined)?.message}
        </span>
      )}
    </label>
  );
  return (
    <form className="card bg-base-200 mb-6" onSubmit={(e) => void onSubmit(e)} aria-label={tool ? toolFormText.editTitle(tool.name) : toolFormText.newTitle} noValidate>
      <div className="card-body grid gap-3 md:grid-cols-2">
        <h3 className="card-title md:col-span-2">{tool ? toolFormText.editTitle(tool.name) : toolFormText.newTitle}</h3>
        {field("name", toolFormText.name, <input className="input input-bordered" {...form.register("name")} />)}
        {field("price", toolFormText.price, <input type="number" step="0.01" className="input input-bordered" {...form.register("price", { setValueAs: number })} />)}
        {field("availableQuantity", toolFormText.stock, <input type="number" className="input input-bordered" {...form.register("availableQuantity", { setValueAs: number })} />)}
        {field("minimumQuantity", toolFormText.minimum, <input type="number" className="input input-bordered" {...form.register("minimumQuantity", { setValueAs: number })} />)}
        {field(
          "lowStockThreshold",
          toolFormText.threshold,
          <input type="number" className="input input-bordered" {...form.register("lowStockThreshold", { setValueAs: (v: unknown) => number(v) ?? null })} />,
        )}
        {field(
          "weightGrams",
          ADMIN_MONEY_TEXT.toolWeight,
          <input type="number" step="1" min="0" className="input input-bordered" {...form.register("weightGrams", { setValueAs: number })} />,
        )}
        {!tool && (
          <>
            {field("image", toolFormText.image, <input className="input input-bordered" aria-describedby="image-hint" {...form.register("image")} />)}
            <p id="image-hint" className="text-base-content/80 self-end text-sm">
              {toolFormText.imageHint}
            </p>
          </>
        )}
        {!tool && (
          <label className="label cursor-pointer justify-start gap-2 md:col-span-2">
            <input type="checkbox" className="checkbox" {...form.register("active")} />
            <span className="text-base-content">{toolFormText.activeNow}</span>
          </label>
        )}
        <TierFields form={form} number={number} />
        <CatalogueFields form={form} tool={tool} />
        <div className="md:col-span-2">
          {field("description", toolFormText.description, <textarea className="textarea textarea-bordered w-full" rows={3} {...form.register("description")} />)}
        </div>
        <div className="flex gap-2 md:col-span-2">
          <button type="submit" className="btn btn-primary" disabled={create.isPending || update.isPending}>
            {toolFormText.save}
          </button>
          <button type="button" className="btn" onClick={onDone}>
            {toolFormText.cancel}
          </button>
        </div>
      </div>
    </form>
  );
}

/** The tool's price tiers (DESIGN "Price tiers"): rows of a starting quantity and a unit price, checked as the server checks them. */
function TierFields({ form, number }: { form: UseFormReturn<ToolFormValues>; number: (v: unknown) => number | undefined }) {
  const tiers = useFieldArray({ control: form.control, name: "priceTiers" });
  const errors = form.formState.errors.priceTiers;
  const text = PRICE_TIER_TEXT.form;
  return (
    <fieldset className="md:col-span-2" data-testid="price-tier-fields">
      <legend className="label-text font-medium">{text.legend}</legend>
      <p className="text-base-content/80 text-sm">{text.hint}</p>
      {tiers.fields.length === 0 && <p className="text-sm">{text.none}</p>}
      <ol className="flex flex-col gap-2">
        {tiers.fields.map((row, i) => {
          const rowErrors = errors?.[i];
          return (
            <li key={row.id} className="flex flex-wrap items-end gap-2">
              <label className="form-control">
                <span className="label-text">{text.minQuantity}</span>
                <input
                  type="number"
                  step="1"
                  className="input input-bordered w-32"
                  aria-label={text.minQuantityOf(i + 1)}
                  aria-invalid={!!rowErrors?.minQuantity}
                  {...form.register(`priceTiers.${i}.minQuantity`, { setValueAs: number })}
                />
              </label>
              <label className="form-control">
                <span className="label-text">{text.price}</span>
                <input
                  type="number"
                  step="0.01"
                  className="input input-bordered w-32"
                  aria-label={text.priceOf(i + 1)}
                  aria-invalid={!!rowErrors?.price}
                  {...form.register(`priceTiers.${i}.price`, { setValueAs: number })}
                />
              </label>
              <button type="button" className="btn btn-ghost btn-sm text-error" aria-label={text.removeOf(i + 1)} onClick={() => tiers.remove(i)}>
                {text.remove}
              </button>
              {(rowErrors?.minQuantity ?? rowErrors?.price) && (
                <span className="text-error w-full text-sm" role="alert">
                  {rowErrors.minQuantity?.message ?? rowErrors.price?.message}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {errors?.message && (
        <p className="text-error text-sm" role="alert">
          {errors.message}
        </p>
      )}
      <button
        type="button"
        className="btn btn-sm mt-2"
        onClick={() => {
          const values = form.getValues();
          const last = values.priceTiers?.at(-1);
          tiers.append({ minQuantity: (last?.minQuantity ?? values.minimumQuantity ?? 1) + 1, price: last?.price ?? values.price ?? 0 });
        }}
      >
        {text.add}
      </button>
    </fieldset>
  );
}

/** A tool's page in the console: its stock now, the movement form, and the ledger. */
export function ToolLedgerPage() {
  const { id = "" } = useParams();
  const ledger = useQuery(ledgerQuery(id));
  const move = useMoveStock();
  const form = useForm<StockMovementInput>({
    resolver: zodResolver(stockMovementInputSchema),
    defaultValues: { reason: "restock", note: "" },
  });
  const onSubmit = form.handleSubmit((input) =>
    move.mutate(
      { id, input },
      {
        onSuccess: () => {
          toast.success(stockText.recorded);
          form.reset({ reason: "restock", note: "" });
        },
      },
    ),
  );
  const errors = form.formState.errors;
  return (
    <div>
      <PageTitle title={ledger.data ? ledger.data.tool.name : null} />
      <Link className="link mb-4 inline-block" to="/admin/tools">
        {stockText.back}
      </Link>
      <QueryView query={ledger} isEmpty={() => false} empty={null}>
        {({ tool, movements }) => (
          <>
            <h2 className="text-2xl font-semibold">{tool.name}</h2>
            <p className="mb-4 text-lg" data-testid="stock-now">
              {stockText.current(tool.availableQuantity)}
            </p>
            <p className="mb-4" data-testid="alerts-waiting">
              {STOCK_ALERT_TEXT.waitingCount(tool.alertsWaiting ?? 0)}
            </p>
            <PhotoUpload toolId={tool._id} image={tool.image} name={tool.name} />
            <form className="card bg-base-200 mb-6" onSubmit={(e) => void onSubmit(e)} noValidate aria-label={stockText.submit}>
              <div className="card-body grid gap-3 md:grid-cols-3">
                <label className="form-control">
                  <span className="label-text">{stockText.delta}</span>
                  <input type="number" className="input input-bordered" {...form.register("delta")} />
                  {errors.delta && (
                    <span className="text-error text-sm" role="alert">
                      {errors.delta.message}
                    </span>
                  )}
                </label>
                <label className="form-control">
                  <span className="label-text">{stockText.reason}</span>
                  <select className="select select-bordered" {...form.register("reason")}>
                    {ADMIN_STOCK_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {stockText.reasons[r]}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="form-control">
                  <span className="label-text">{stockText.note}</span>
                  <input className="input input-bordered" {...form.register("note")} />
                  {errors.note && (
                    <span className="text-error text-sm" role="alert">
                      {errors.note.message}
                    </span>
                  )}
                </label>
                <div>
                  <button type="submit" className="btn btn-primary" disabled={move.isPending}>
                    {stockText.submit}
                  </button>
                </div>
              </div>
            </form>
            <h3 className="mb-2 text-xl font-semibold">{stockText.title}</h3>
            <Table label={stockText.title}>
              <thead className="text-base-content">
                <tr>
                  <th scope="col">{stockText.columns.when}</th>
                  <th scope="col">{stockText.columns.kind}</th>
                  <th scope="col">{stockText.columns.change}</th>
                  <th scope="col">{stockText.columns.why}</th>
                  <th scope="col">{stockText.columns.by}</th>
                  <th scope="col">{stockText.columns.order}</th>
                </tr>
              </thead>
              <tbody>
                {movements.map((m) => (
                  <tr key={m._id} data-testid="movement-row">
                    <td>{when(m.createdAt)}</td>
                    <td>{stockText.reasons[m.reason]}</td>
                    <td>{m.delta > 0 ? `+${m.delta}` : m.delta}</td>
                    <td>{m.note}</td>
                    <td>{m.by ?? ADMIN_TEXT.orders.none}</td>
                    <td>{m.orderId ? <Link className="link" to={`/admin/orders/${m.orderId}`}>{m.orderId.slice(0, 8)}</Link> : ADMIN_TEXT.orders.none}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </>
        )}
      </QueryView>
    </div>
  );
}

const photoText = ADMIN_TEXT.photo;

/** The tool's photo, and an upload with its progress. */
function PhotoUpload({ toolId, image, name }: { toolId: string; image: string; name: string }) {
  const upload = useUploadPhoto();
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const onFile = (file: File | undefined) => {
    if (!file) return;
    setProblem(null);
    // The server decides (it reads the bytes); this only spares a 5 MB upload that cannot pass.
    if (file.size > PHOTO_MAX_BYTES) {
      setProblem(photoText.tooLarge);
      return;
    }
    setProgress(0);
    upload.mutate(
      { id: toolId, file, onProgress: setProgress },
      {
        onSuccess: () => toast.success(photoText.uploaded),
        onError: (e) => setProblem(e.message),
        onSettled: () => setProgress(null),
      },
    );
  };
  return (
    <section className="card bg-base-200 mb-6" aria-label={photoText.title}>
      <div className="card-body flex flex-col gap-4 md:flex-row md:items-center">
        <img src={image} srcSet={photoSrcSet(image)} sizes="160px" alt={name} width={160} height={120} className="rounded-box bg-base-100 aspect-[4/3] w-40 object-cover" data-testid="tool-photo" />
        <div className="flex flex-col gap-2">
          <label className="form-control">
            <span className="label-text">{photoText.choose}</span>
            <input type="file" accept="image/jpeg,image/png,image/webp" className="text-sm" disabled={upload.isPending} onChange={(e) => onFile(e.target.files?.[0])} />
          </label>
          <span className="text-base-content/80 text-sm">{photoText.hint}</span>
          {progress !== null && (
            <label className="flex items-center gap-2 text-sm">
              {photoText.progress(progress)}
              <progress className="w-48" value={progress} max={100} />
            </label>
          )}
          {problem && (
            <span className="text-error text-sm" role="alert">
              {problem}
            </span>
          )}
        </div>
      </div>
    </section>
  );
}
