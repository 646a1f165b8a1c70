/**
 * What the console's money pages share around their forms: the heading with its add button,
 * the whole list (loading, error, empty, table), each row's edit and delete buttons, and the
 * delete question.
 */
import type { ReactNode } from "react";
import { ADMIN_MONEY_TEXT } from "../../../contract/texts/admin";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { QueryView, type QueryLike } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { DataTable } from "../../components/ui/data-table";

const commonText = ADMIN_MONEY_TEXT.common;

export function MoneyPageHeading({ title, addLabel, onAdd }: { title: string; addLabel: string; onAdd: () => void }) {
  return (
    <>
      <PageTitle title={title} />
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-2xl font-semibold">{title}</h2>
        <button type="button" className="btn btn-primary" onClick={onAdd}>
          {addLabel}
        </button>
      </div>
    </>
  );
}

/** A whole list, not paged: the store has tens of rates, codes and methods, not thousands. */
export function MoneyList<T extends { _id: string }>({
  query,
  label,
  empty,
  columns,
  children,
}: {
  query: QueryLike<T[]>;
  label: string;
  empty: ReactNode;
  columns: Readonly<Record<string, string>>;
  children: (item: T) => ReactNode;
}) {
  return (
    <QueryView query={query} isEmpty={(list) => list.length === 0} empty={empty}>
      {(list) => (
        <DataTable label={label} columns={columns}>
          {list.map((item) => children(item))}
        </DataTable>
      )}
    </QueryView>
  );
}

/** A row's buttons; each names its record, since every row has the same two. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete?: () => void }) {
  return (
    <td className="flex flex-wrap gap-1">
      <button type="button" className="btn btn-xs" aria-label={`${commonText.edit} ${name}`} onClick={onEdit}>
        {commonText.edit}
      </button>
      {onDelete && (
        <button type="button" className="btn btn-xs btn-error btn-outline" aria-label={`${commonText.delete} ${name}`} onClick={onDelete}>
          {commonText.delete}
        </button>
      )}
    </td>
  );
}

/** Asks before deleting `item` (null: closed). */
export function DeleteQuestion<T extends { _id: string; name: string }>({
  item,
  question,
  busy,
  onDelete,
  onClose,
}: {
  item: T | null;
  question: string;
  busy: boolean;
  onDelete: (item: T) => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={item !== null}
      question={question}
      description={item?.name}
      confirmLabel={commonText.delete}
      cancelLabel={commonText.cancel}
      busy={busy}
      onConfirm={() => {
        if (item) onDelete(item);
        onClose();
      }}
      onCancel={onClose}
    />
  );
}
