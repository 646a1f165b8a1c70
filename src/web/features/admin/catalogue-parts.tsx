/**
 * What the console's catalogue pages share: a refusal told in the page (the server's own words, by
 * what was refused), a save's outcome put at the form's fields, and the delete question.
 */
import type { FieldValues, UseFormSetError } from "react-hook-form";
import { toast } from "react-toastify";
import type { CategoryNode } from "../../../contract/catalogue-schemas";
import { CATALOGUE_ADMIN_TEXT } from "../../../contract/texts/catalogue-admin";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { ApiRequestError } from "../../lib/api";
import { showServerErrors } from "./form-parts";

const common = CATALOGUE_ADMIN_TEXT.common;

/** A refused action: the server's message (its code kept for tests and support), or nothing. */
export function Problem({ error, onDismiss }: { error: Error | null; onDismiss?: () => void }) {
  if (!error) return null;
  const code = error instanceof ApiRequestError ? error.code : undefined;
  return (
    <div role="alert" className="alert alert-error alert-soft mb-4 flex flex-wrap justify-between" data-error-code={code}>
      <span>
        <strong>{common.refused}</strong> {error.message}
      </span>
      {onDismiss && (
        <button type="button" className="btn btn-sm" onClick={onDismiss}>
          {common.cancel}
        </button>
      )}
    </div>
  );
}

/**
 * A form's save: said and closed on success; a 400's field messages at their fields, a 409 such as a
 * taken slug at `conflictField` when given, anything else told by `setProblem` above the form.
 */
export function savedThen<T extends FieldValues>(
  setError: UseFormSetError<T>,
  setProblem: (error: Error | null) => void,
  saved: string,
  onDone: () => void,
  conflictField?: Parameters<UseFormSetError<T>>[0],
) {
  return {
    onSuccess: () => {
      toast.success(saved);
      onDone();
    },
    onError: (error: Error) => {
      if (error instanceof ApiRequestError && error.status === 400 && (error.body.details ?? []).length > 0) {
        showServerErrors(error, setError);
        return;
      }
      if (error instanceof ApiRequestError && error.status === 409 && conflictField) {
        setError(conflictField, { type: "server", message: error.message });
        return;
      }
      setProblem(error);
    },
  };
}

/** Asks before deleting the named record (null: closed). */
export function DeleteQuestion({ name, question, onDelete, onClose }: { name: string | null; question: string; onDelete: () => void; onClose: () => void }) {
  return (
    <ConfirmDialog
      open={name !== null}
      question={question}
      description={name ?? undefined}
      confirmLabel={common.delete}
      cancelLabel={common.cancel}
      onConfirm={() => {
        onDelete();
        onClose();
      }}
      onCancel={onClose}
    />
  );
}

/** The flat list (parents first, siblings by position) as each category's children. */
export function childrenByParent(list: CategoryNode[]): Map<string | null, CategoryNode[]> {
  const byParent = new Map<string | null, CategoryNode[]>();
  for (const node of list) byParent.set(node.parentSlug, [...(byParent.get(node.parentSlug) ?? []), node]);
  return byParent;
}

/** Each category with its depth, in the tree's order: what an indented select lists. */
export function flattenTree(list: CategoryNode[]): { node: CategoryNode; depth: number }[] {
  const byParent = childrenByParent(list);
  const out: { node: CategoryNode; depth: number }[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const node of byParent.get(parent) ?? []) {
      out.push({ node, depth });
      visit(node.slug, depth + 1);
    }
  };
  visit(null, 0);
  return out;
}

/** A category's name indented by its depth, for `<option>`s (which take no markup). */
export const indented = (name: string, depth: number) => `${"\u00a0\u00a0\u00a0".repeat(depth)}${depth > 0 ? "– " : ""}${name}`;
