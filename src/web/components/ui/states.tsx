import type { ReactNode } from "react";
import { TEXT } from "../../../contract/texts/site";

export function Spinner({ label = TEXT.states.loading }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center justify-center gap-3 py-10">
      <span className="loading loading-spinner loading-lg text-primary" aria-hidden="true" />
      <span className="text-base-content/80">{label}</span>
    </div>
  );
}

export function ErrorState({ message = TEXT.states.error, onRetry }: { message?: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="alert alert-error alert-soft my-6 flex flex-wrap justify-between">
      <span>{message}</span>
      {onRetry && (
        <button type="button" className="btn btn-sm" onClick={onRetry}>
          {TEXT.states.retry}
        </button>
      )}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="text-base-content/80 rounded-box bg-base-200 my-6 p-8 text-center">{children}</p>;
}

export interface QueryLike<T> {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** Loading, error-with-retry, empty, or the content: every list goes through this. */
export function QueryView<T>({
  query,
  isEmpty,
  empty,
  loading,
  children,
}: {
  query: QueryLike<T>;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  loading?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <>{loading ?? <Spinner />}</>;
  if (query.isError || query.data === undefined) {
    return <ErrorState message={query.error?.message} onRetry={() => void query.refetch()} />;
  }
  if (isEmpty(query.data)) return <EmptyState>{empty}</EmptyState>;
  return <>{children(query.data)}</>;
}
