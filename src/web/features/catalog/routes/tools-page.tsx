import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { CATEGORIES, CATEGORY_LABELS, PAGE_SIZE_DEFAULT } from "../../../../contract/constants";
import { CATALOG_TEXT } from "../../../../contract/texts/catalog";
import { TEXT } from "../../../../contract/texts/site";
import { QueryView } from "../../../components/ui/states";
import { catalogueQuery, toolsQuery } from "../api";
import { ToolGrid } from "../components/tool-card";
import { usePageTitle } from "../../../lib/page-title";

/** The catalogue: category, search text and page all live in the URL, so links and Back work. */
export function ToolsPage() {
  const [params, setParams] = useSearchParams();
  const listQuery = catalogueQuery(params);
  const { category, q, page } = listQuery;
  const [draft, setDraft] = useState(q ?? "");
  // Back, Forward and links change the search in the URL: the box follows it.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setDraft(q ?? "");
  }
  const query = useQuery(toolsQuery(listQuery));
  usePageTitle(category ? CATEGORY_LABELS[category] : CATALOG_TEXT.heading);
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE_SIZE_DEFAULT));

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: draft.trim() || undefined, page: undefined });
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">{category ? CATEGORY_LABELS[category] : CATALOG_TEXT.heading}</h1>
      <div className="mb-8 flex flex-col gap-4 md:flex-row md:items-end">
        <label className="form-control">
          <span className="label-text mb-1 block text-sm font-medium">{CATALOG_TEXT.categoryLabel}</span>
          <select
            name="category"
            className="select select-bordered"
            value={category ?? ""}
            onChange={(e) => update({ category: e.target.value || undefined, page: undefined })}
          >
            <option value="">{CATALOG_TEXT.allCategories}</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <form role="search" onSubmit={onSearch} className="flex flex-1 items-end gap-2">
          <label className="form-control flex-1">
            <span className="label-text mb-1 block text-sm font-medium">{CATALOG_TEXT.searchLabel}</span>
            <input
              type="search"
              name="q"
              className="input input-bordered w-full"
              placeholder={CATALOG_TEXT.searchPlaceholder}
              value={draft}
              maxLength={100}
              onChange={(e) => setDraft(e.target.value)}
            />
          </label>
          <button type="submit" className="btn btn-primary">
            {CATALOG_TEXT.search}
          </button>
        </form>
      </div>
      <QueryView
        query={query}
        isEmpty={(d) => d.items.length === 0}
        empty={q || category ? CATALOG_TEXT.empty : TEXT.home.emptyCatalog}
      >
        {(data) => (
          <>
            <p className="text-base-content/80 mb-4 text-sm" aria-live="polite">
              {CATALOG_TEXT.results(data.total)}
            </p>
            <ToolGrid tools={data.items} headingLevel={2} />
            {pages > 1 && (
              <nav aria-label={TEXT.a11y.pages} className="mt-8 flex items-center justify-center gap-4">
                <button type="button" className="btn" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
                  {CATALOG_TEXT.previous}
                </button>
                <span>{CATALOG_TEXT.page(page, pages)}</span>
                <button type="button" className="btn" disabled={page >= pages} onClick={() => update({ page: String(page + 1) })}>
                  {CATALOG_TEXT.next}
                </button>
              </nav>
            )}
          </>
        )}
      </QueryView>
    </div>
  );
}

export default ToolsPage;
