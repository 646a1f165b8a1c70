import { useCallback, useEffect, useRef, type ReactNode } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { ADMIN_TEXT } from "../../../contract/texts/admin";
import { DataTable } from "../../components/ui/data-table";
import { QueryView, type QueryLike } from "../../components/ui/states";
import { PageTitle } from "../../lib/page-title";
import { hasNextPage } from "../../lib/paging";
import { PAGE_SIZE } from "./api";

const pagingText = ADMIN_TEXT.paging;

/** Filters and the page live in the address, so a list can be linked to and reloaded. */
export function useFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const values = Object.fromEntries(keys.map((k) => [k, params.get(k) ?? ""])) as Record<K, string>;
  const page = Math.max(1, Number(params.get("page") ?? "1") || 1);
  const set = (key: K | "page", value: string) => {
    // The admin has left the list (a click on a row whose page is still loading keeps the list on
    // screen meanwhile): a search still waiting is dropped, not sent as a move back to the list.
    if (window.location.pathname !== pathname) return;
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== "page") next.delete("page");
    setParams(next, { replace: true });
  };
  return { values, page, set };
}

/** How long typing in a console search box must pause before the list is asked for. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * `callback` once the calls have stopped for `ms`, with the last call's arguments: typing a
 * search asks for one list, not one per key. The latest render's `callback` is the one called,
 * so it sees the filters as they are then; a call still waiting when the page closes is dropped.
 */
export function useDebouncedCallback<A extends unknown[]>(callback: (...args: A) => void, ms: number): (...args: A) => void {
  const latest = useRef(callback);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    latest.current = callback;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (...args: A) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => latest.current(...args), ms);
    },
    [ms],
  );
}

/** A list's pager. Past a capped total (`exact: false`), 'Next' stays while pages come back full. */
export function Pager({ page, total, exact, shown, onPage }: { page: number; total: number; exact: boolean; shown: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, page, Math.ceil(total / PAGE_SIZE));
  const next = hasNextPage({ page, total, exact, shown, limit: PAGE_SIZE });
  return (
    <nav aria-label={pagingText.label} className="mt-4 flex flex-wrap items-center gap-3">
      <button type="button" className="btn btn-sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {pagingText.previous}
      </button>
      <span className="text-sm">{pagingText.page(page, pages, total, exact)}</span>
      <button type="button" className="btn btn-sm" disabled={!next} onClick={() => onPage(page + 1)}>
        {pagingText.next}
      </button>
    </nav>
  );
}

export function Table({ children, label }: { children: ReactNode; label: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="table" aria-label={label}>
        {children}
      </table>
    </div>
  );
}

/** A page of a console list, as the admin API answers it. */
export interface ListPage<T> {
  items: T[];
  total: number;
  exact: boolean;
}

/**
 * A console list: its loading, error and empty states, the table with one header cell per
 * column, a row per item (`children` renders the `<tr>`), and the pager.
 */
export function AdminList<T>({
  query,
  label,
  empty,
  columns,
  page,
  onPage,
  children,
}: {
  query: QueryLike<ListPage<T>>;
  label: string;
  empty: ReactNode;
  columns: readonly ReactNode[];
  page: number;
  onPage: (page: number) => void;
  children: (item: T) => ReactNode;
}) {
  return (
    <QueryView query={query} isEmpty={(d) => d.items.length === 0} empty={empty}>
      {({ items, total, exact }) => (
        <>
          <DataTable label={label} columns={columns}>
            {items.map((item) => children(item))}
          </DataTable>
          <Pager page={page} total={total} exact={exact} shown={items.length} onPage={onPage} />
        </>
      )}
    </QueryView>
  );
}

export const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * A console list's title and its filter by status ('All' first; the choice lives in the address,
 * see useFilters): the refunds' and returns' pages.
 */
export function StatusFilterHeading<S extends string>({
  title,
  filterLabel,
  allLabel,
  statuses,
  statusLabels,
  value,
  onChange,
}: {
  title: string;
  filterLabel: string;
  allLabel: string;
  statuses: readonly S[];
  statusLabels: Readonly<Record<S, string>>;
  value: string;
  onChange: (status: string) => void;
}) {
  return (
    <>
      <PageTitle title={title} />
      <h2 className="mb-4 text-2xl font-semibold">{title}</h2>
      <label className="mb-4 flex items-center gap-2">
        <span className="text-sm font-medium">{filterLabel}</span>
        <select className="select select-bordered select-sm" value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">{allLabel}</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {statusLabels[s]}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** An order's number, linking to its console page. */
export const OrderNumberLink = ({ orderId, number }: { orderId: string; number: string | number }) => (
  <Link className="link" to={`/admin/orders/${orderId}`}>
    #{number}
  </Link>
);
