/**
 * The console's category tree (issue 50): the four main categories and what is under them. Add
 * under a parent, rename, move up or down among siblings (buttons, so the keyboard does it too),
 * move under another parent, delete; the server's refusals (CATEGORY_IN_USE, CATEGORY_CYCLE) are
 * told above the tree in its own words.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "react-toastify";
import { categoryInputSchema, categoryPatchSchema, type CategoryNode } from "../../../contract/catalogue-schemas";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import type { z } from "../../../contract/zod";
import { QueryView } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { categoriesQuery, useDeleteCategory, useSaveCategory } from "./catalogue-api";
import { childrenByParent, DeleteQuestion, flattenTree, indented, Problem, savedThen } from "./catalogue-parts";
import { errorAt, Field, FormCard } from "./form-parts";

const text = CATALOGUE_ADMIN_TEXT.categories;
const common = CATALOGUE_ADMIN_TEXT.common;

/**
 * After a move by keyboard the moved category keeps the focus: on the same button, or on the other
 * one when it reached the end (a disabled button cannot hold it), once the tree shows the new order.
 */
function keepFocus(node: CategoryNode, by: -1 | 1, frames = 30) {
  const labels = by === -1 ? [text.moveUpLabel(node.name), text.moveDownLabel(node.name)] : [text.moveDownLabel(node.name), text.moveUpLabel(node.name)];
  const buttons = [...document.querySelectorAll<HTMLButtonElement>("button[aria-label]")];
  const target = labels.map((label) => buttons.find((b) => b.getAttribute("aria-label") === label && !b.disabled)).find(Boolean);
  // The buttons are disabled while the move is saved: wait (a frame at a time, half a second at most) for them to come back.
  if (target) target.focus();
  else if (frames > 0) requestAnimationFrame(() => keepFocus(node, by, frames - 1));
}

type Editing = { kind: "new"; parentSlug: string } | { kind: "rename"; node: CategoryNode } | null;

export default function CategoriesPage() {
  const categories = useQuery(categoriesQuery());
  const save = useSaveCategory();
  const remove = useDeleteCategory();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CategoryNode | null>(null);
  const [problem, setProblem] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);

  /** Moves a category one place among its siblings: their positions rewritten 0, 1, 2… in the new order. */
  const shift = async (siblings: CategoryNode[], index: number, by: -1 | 1) => {
    const order = [...siblings];
    const [moving] = order.splice(index, 1);
    if (!moving) return;
    order.splice(index + by, 0, moving);
    setProblem(null);
    setBusy(true);
    try {
      for (const [position, node] of order.entries()) {
        if (node.position !== position) await save.mutateAsync({ current: node.slug, input: { position } });
      }
      toast.success(text.moved);
      keepFocus(moving, by);
    } catch (error) {
      setProblem(error as Error);
    } finally {
      setBusy(false);
    }
  };
  const moveUnder = (node: CategoryNode, parentSlug: string) => {
    setProblem(null);
    save.mutate({ current: node.slug, input: { parentSlug } }, { onSuccess: () => toast.success(text.moved), onError: setProblem });
  };

  return (
    <div>
      <PageTitle title={CATALOGUE_ADMIN_TEXT.sections.categories} />
      <h2 className="mb-2 text-2xl font-semibold">{CATALOGUE_ADMIN_TEXT.sections.categories}</h2>
      <p className="mb-4 text-sm">{text.intro}</p>
      <Problem error={problem ?? remove.error} onDismiss={() => (setProblem(null), remove.reset())} />
      {editing?.kind === "new" && categories.data && (
        <NewCategoryForm key={`new-${editing.parentSlug}`} parentSlug={editing.parentSlug} categories={categories.data} onDone={() => setEditing(null)} />
      )}
      {editing?.kind === "rename" && <RenameCategoryForm key={`rename-${editing.node.slug}`} node={editing.node} onDone={() => setEditing(null)} />}
      <QueryView query={categories} isEmpty={(list) => list.length === 0} empty={text.empty}>
        {(list) => {
          const byParent = childrenByParent(list);
          const all = flattenTree(list);
          const branch = (parent: string | null, depth: number) => {
            const siblings = byParent.get(parent) ?? [];
            if (siblings.length === 0) return null;
            return (
              <ul className={depth === 0 ? "flex flex-col gap-2" : "border-base-300 mt-2 ml-4 flex flex-col gap-2 border-l pl-4"} aria-label={depth === 0 ? text.tree : undefined}>
                {siblings.map((node, index) => (
                  <li key={node.slug} data-testid="category-item" data-slug={node.slug}>
                    <CategoryRow
                      node={node}
                      first={index === 0}
                      last={index === siblings.length - 1}
                      busy={busy || save.isPending}
                      parents={all.filter((entry) => entry.node.slug !== node.slug)}
                      onUp={() => void shift(siblings, index, -1)}
                      onDown={() => void shift(siblings, index, 1)}
                      onMove={(parentSlug) => moveUnder(node, parentSlug)}
                      onRename={() => setEditing({ kind: "rename", node })}
                      onAdd={() => setEditing({ kind: "new", parentSlug: node.slug })}
                      onDelete={() => setDeleting(node)}
                    />
                    {branch(node.slug, depth + 1)}
                  </li>
                ))}
              </ul>
            );
          };
          return branch(null, 0);
        }}
      </QueryView>
      <DeleteQuestion
        name={deleting?.name ?? null}
        question={text.confirmDelete}
        onClose={() => setDeleting(null)}
        onDelete={() => {
          if (deleting) {
            setProblem(null);
            remove.mutate(deleting.slug, { onSuccess: () => toast.success(text.deleted) });
          }
        }}
      />
    </div>
  );
}

function CategoryRow({
  node,
  first,
  last,
  busy,
  parents,
  onUp,
  onDown,
  onMove,
  onRename,
  onAdd,
  onDelete,
}: {
  node: CategoryNode;
  first: boolean;
  last: boolean;
  busy: boolean;
  parents: { node: CategoryNode; depth: number }[];
  onUp: () => void;
  onDown: () => void;
  onMove: (parentSlug: string) => void;
  onRename: () => void;
  onAdd: () => void;
  onDelete: () => void;
}) {
  const root = node.parentSlug === null;
  const [target, setTarget] = useState("");
  const selectId = useId();
  return (
    <div className="bg-base-200 rounded-box flex flex-wrap items-center gap-2 p-2">
      <span className="min-w-40 font-medium">
        {node.name} <span className="text-base-content/80 font-mono text-xs">{node.slug}</span>
        {root && <span className="badge badge-outline ml-2">{text.root}</span>}
      </span>
      <button type="button" className="btn btn-xs" aria-label={text.moveUpLabel(node.name)} disabled={first || busy} onClick={onUp}>
        ↑ {text.moveUp}
      </button>
      <button type="button" className="btn btn-xs" aria-label={text.moveDownLabel(node.name)} disabled={last || busy} onClick={onDown}>
        ↓ {text.moveDown}
      </button>
      {!root && (
        <span className="flex items-center gap-1">
          <label htmlFor={selectId} className="sr-only">
            {text.moveUnderLabel(node.name)}
          </label>
          <select id={selectId} className="select select-bordered select-xs w-44" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">{text.keepHere}</option>
            {parents.map(({ node: parent, depth }) => (
              <option key={parent.slug} value={parent.slug} disabled={parent.slug === node.parentSlug}>
                {indented(parent.name, depth)}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-xs" disabled={!target || busy} onClick={() => (onMove(target), setTarget(""))}>
            {text.moveUnder}
          </button>
        </span>
      )}
      <button type="button" className="btn btn-xs" aria-label={text.renameLabel(node.name)} onClick={onRename}>
        {common.rename}
      </button>
      <button type="button" className="btn btn-xs" aria-label={text.addUnderLabel(node.name)} onClick={onAdd}>
        {text.add}
      </button>
      {!root && (
        <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={text.deleteLabel(node.name)} onClick={onDelete}>
          {common.delete}
        </button>
      )}
    </div>
  );
}

type NewIn = z.input<typeof categoryInputSchema>;
type NewOut = z.output<typeof categoryInputSchema>;

function NewCategoryForm({ parentSlug, categories, onDone }: { parentSlug: string; categories: CategoryNode[]; onDone: () => void }) {
  const save = useSaveCategory();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<NewIn, unknown, NewOut>({ resolver: zodResolver(categoryInputSchema), defaultValues: { slug: "", name: "", parentSlug } });
  const { errors } = form.formState;
  const parent = categories.find((c) => c.slug === parentSlug);
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: null, input }, savedThen(form.setError, setProblem, text.created, onDone, "slug"));
  });
  return (
    <FormCard title={text.newTitle(parent?.name ?? parentSlug)} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <Field label={common.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...form.register("name")} />
      </Field>
      <Field label={common.slug} error={errorAt(errors, "slug")} hint={common.slugHint}>
        <input className="input input-bordered font-mono" autoCapitalize="none" {...form.register("slug")} />
      </Field>
      <Field label={text.parent} error={errorAt(errors, "parentSlug")}>
        <select className="select select-bordered" {...form.register("parentSlug")}>
          {flattenTree(categories).map(({ node, depth }) => (
            <option key={node.slug} value={node.slug}>
              {indented(node.name, depth)}
            </option>
          ))}
        </select>
      </Field>
    </FormCard>
  );
}

type PatchIn = z.input<typeof categoryPatchSchema>;
type PatchOut = z.output<typeof categoryPatchSchema>;

function RenameCategoryForm({ node, onDone }: { node: CategoryNode; onDone: () => void }) {
  const save = useSaveCategory();
  const [problem, setProblem] = useState<Error | null>(null);
  const form = useForm<PatchIn, unknown, PatchOut>({ resolver: zodResolver(categoryPatchSchema), defaultValues: { slug: node.slug, name: node.name } });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((input) => {
    setProblem(null);
    save.mutate({ current: node.slug, input }, savedThen(form.setError, setProblem, text.saved, onDone, "slug"));
  });
  return (
    <FormCard title={text.editTitle(node.name)} pending={save.isPending} onSubmit={onSubmit} onCancel={onDone}>
      <div className="md:col-span-2">
        <Problem error={problem} />
      </div>
      <Field label={common.name} error={errorAt(errors, "name")}>
        <input className="input input-bordered" {...form.register("name")} />
      </Field>
      <Field label={common.slug} error={errorAt(errors, "slug")} hint={common.slugHint}>
        <input className="input input-bordered font-mono" autoCapitalize="none" readOnly={node.parentSlug === null} {...form.register("slug")} />
      </Field>
    </FormCard>
  );
}
