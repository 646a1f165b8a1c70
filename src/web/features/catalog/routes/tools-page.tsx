import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { useSearchParams } from "react-router";
import { CATEGORIES, CATEGORY_LABELS, PAGE_SIZE_DEFAULT, TOOL_SORTS, type Category } from "../../../../contract/constants";
import { CATALOG_TEXT } from "../../../../contract/texts/catalog";
import { TEXT } from "../../../../contract/texts/site";
import { QueryView } from "../../../components/ui/states";
import type { Tool } from "../../../../contract/schemas";
import { catalogueMenuQuery, type CatalogueMenu } from "../menu";
import { browseSearch, catalogueListQuery, catalogueQuery, changeBrowse, checkPriceRange, defaultSort, hasNextPage, parseBrowse, sortChosen, type BrowseState } from "../browse-state";
import { SearchBox } from "../components/search-box";
import { cardDetails } from "../components/card-details";
import { ToolGrid } from "../components/tool-card";
import { PageTitle } from "../../../lib/page-title";
import { useTypedEarly } from "../../../lib/typed-early";
import { useHydrated } from "../../../lib/hydrated";
import { CATALOG_FILTERS_TEXT } from "../../../../contract/texts/catalog-filters";
import { catalogueFacetsQuery, chosenCount, facetsQueryOf } from "../filters";
import { CatalogueFilters, FiltersSheet, usePhone } from "../components/catalogue-filters";

/**
 * Hidden fields carrying the rest of the view, so that each of the page's forms, sent without
 * JavaScript as a plain GET to /tools, keeps what it does not change (and starts at page 1).
 */
function KeepBrowse({ state, except }: { state: BrowseState; except: (keyof BrowseState)[] }) {
  const kept = new URLSearchParams(browseSearch({ ...state, page: 1 }));
  for (const key of except) kept.delete(key);
  return (
    <>
      {[...kept].map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** The category tree as the menu lists it (parents before children, each with its depth); the four roots while the menu is not there. */
export function categoryOptions(menu: CatalogueMenu | undefined): { slug: string; name: string; depth: number }[] {
  if (!menu || menu.categories.length === 0) return CATEGORIES.map((slug) => ({ slug, name: CATEGORY_LABELS[slug], depth: 0 }));
  const depths = new Map<string, number>();
  return menu.categories.map(({ slug, name, parentSlug }) => {
    const depth = parentSlug === null ? 0 : (depths.get(parentSlug) ?? 0) + 1;
    depths.set(slug, depth);
    // A root keeps the spec's name for it.
    return { slug, name: depth === 0 && slug in CATEGORY_LABELS ? CATEGORY_LABELS[slug as Category] : name, depth };
  });
}

/** A category's name by its slug: a root's own, the menu's, or the one its listed tools' paths give it. */
function categoryName(menu: CatalogueMenu | undefined, slug: string, tools: Tool[] = []): string | undefined {
  if (slug in CATEGORY_LABELS) return CATEGORY_LABELS[slug as Category];
  return menu?.categories.find((c) => c.slug === slug)?.name ?? tools.flatMap((t) => t.categoryPath).find((c) => c.slug === slug)?.name;
}

/**
 * The catalogue: category, search, sort, price range and page all live in the URL, so links and Back work.
 * Every control is also a plain `<form method="get" action="/tools">`, so the server-rendered page
 * works before (or without) the app's code; once the app runs, it takes the forms over.
 */
export function ToolsPage() {
  const [params, setParams] = useSearchParams();
  const state = parseBrowse(params);
  const { category, q, page } = state;
  // The same list (and query key) the server rendered this URL with (entry-server.tsx).
  const query = useQuery(catalogueListQuery(catalogueQuery(params)));
  // The category tree and the brands: rendered with the page by the server (entry-server.tsx).
  const menu = useQuery(catalogueMenuQuery()).data;
  // The filters' counts for the same query: rendered with the page by the server too (entry-server.tsx).
  const facets = useQuery(catalogueFacetsQuery(facetsQueryOf(catalogueQuery(params)))).data;
  const heading = (category && categoryName(menu, category, query.data?.items)) ?? CATALOG_TEXT.heading;
  const brands = state.brand ?? [];
  const resultsRef = useRef<HTMLParagraphElement>(null);
  /**
   * One catalogue form before (and without) the app: category, sort, search and price range all
   * belong to it (the `form` attribute), so any of its buttons sends every choice together. Once
   * the app has taken the page over, each control is its own form again and acts at once.
   */
  const browseId = useId();
  const hydrated = useHydrated();
  const oneForm = hydrated ? undefined : browseId;
  // On a phone, once the app runs, the filters open as a sheet; before (and without) it they are in the page.
  const sheet = usePhone() && hydrated;
  const filtersHeadingId = useId();

  const go = (next: BrowseState) => {
    const search = new URLSearchParams(browseSearch(next));
    // The view the address shows already adds nothing to the history: a choice made while React
    // was taking the page over reaches both useTypedEarly and the change event that follows.
    if (search.toString() === window.location.search.replace(/^\?/, "")) return;
    setParams(search);
  };
  /**
   * A change to the view the address shows now, which can be ahead of `state`: a choice made
   * while React was taking the page over has been sent (useTypedEarly) before the router rendered
   * it, and a change that follows must not undo it.
   */
  const change = (changes: Parameters<typeof changeBrowse>[1]) => go(changeBrowse(parseBrowse(new URLSearchParams(window.location.search)), changes));
  const asCategory = (value: string) => value || undefined;
  // A category or sort chosen before the app took the page over: both shown now, in one step.
  const filtersRef = useTypedEarly<HTMLFormElement>(
    `${category ?? ""} ${state.sort ?? ""}`,
    (form) => {
      // By place, not by form: before the app ran, the selects belonged to the catalogue's one form.
      const chosen = (name: string) => form.querySelector<HTMLSelectElement>(`select[name="${name}"]`)?.value ?? "";
      return `${chosen("category")} ${chosen("sort")}`;
    },
    (chosen) => {
      // Against the address as it is now: a choice React caught while taking the page over has been sent already.
      const now = parseBrowse(new URLSearchParams(window.location.search));
      const [chosenCategory = "", chosenSort = ""] = chosen.split(" ");
      const changes = {
        ...(chosenCategory !== (now.category ?? "") ? { category: asCategory(chosenCategory) } : {}),
        ...(chosenSort !== (now.sort ?? "") ? { sort: sortChosen(chosenSort) } : {}),
      };
      if (Object.keys(changes).length > 0) go(changeBrowse(now, changes));
    },
  );

  /*
   * The selects are uncontrolled, like the search box and the price range (components/search-box.tsx
   * says why): a render never writes over what the shopper chose. A controlled select chosen as
   * the app took the page over was set back by the app's first render after hydrating, and the
   * change event that followed sent the old choice, undoing the new one (issue 54). They follow
   * the address when it changes (Back, Forward, links; the sort's options change with the search),
   * not when they mount: they keep what was chosen before the app came, for useTypedEarly above.
   */
  const viewShown = `${category ?? ""} ${state.sort ?? ""} ${q ?? ""}`;
  const selectsShow = useRef(viewShown);
  useEffect(() => {
    if (selectsShow.current === viewShown) return;
    selectsShow.current = viewShown;
    const select = (name: string) => filtersRef.current?.querySelector<HTMLSelectElement>(`select[name="${name}"]`);
    const [categorySelect, sortSelect] = [select("category"), select("sort")];
    if (categorySelect) categorySelect.value = category ?? "";
    if (sortSelect) sortSelect.value = state.sort ?? "";
  }, [viewShown, category, state.sort, filtersRef]);
  /**
   * The tree coming after the page (a move here from another page, before the menu is read): the
   * address's category was its own stand-in option, which the tree's replaces. An uncontrolled
   * select is not set again by React when its options change, so it is set to the address here
   * rather than left to what the browser keeps selected (CI once showed "All" after such a move;
   * the same move with the tree held back did not reproduce it, so this and useTypedEarly's
   * server-HTML-only rule are both kept).
   */
  const optionSlugs = categoryOptions(menu)
    .map((c) => c.slug)
    .join(" ");
  const optionsShown = useRef(optionSlugs);
  useEffect(() => {
    if (optionsShown.current === optionSlugs) return;
    optionsShown.current = optionSlugs;
    const categorySelect = filtersRef.current?.querySelector<HTMLSelectElement>('select[name="category"]');
    if (categorySelect) categorySelect.value = category ?? "";
  }, [optionSlugs, category, filtersRef]);


  /** 'Next' and 'Previous' bring the shopper to the top of the new page, and keyboard focus to its results line. */
  const goToPage = (target: number) => {
    change({ page: target });
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
    resultsRef.current?.focus({ preventScroll: true });
  };

  const filters = (
    <CatalogueFilters state={state} menu={menu} facets={facets} categories={categoryOptions(menu)} formId={oneForm} onFilters={(chosen) => change(chosen)}>
      {/* The app sends a choice at once; without it, this button (or "Show" beside the selects) sends the one form. */}
      <noscript>
        <button type="submit" form={browseId} className="btn">
          {CATALOG_FILTERS_TEXT.applyFilters}
        </button>
      </noscript>
    </CatalogueFilters>
  );

  return (
    <div className="mx-auto max-w-7xl px-4 py-10">
      <PageTitle title={heading} />
      <h1 className="mb-6 text-3xl font-bold">{heading}</h1>
      <div className="mb-8 flex flex-col gap-4 md:flex-row md:flex-wrap md:items-end">
        <form ref={filtersRef} method="get" action="/tools" className="contents" onSubmit={(e) => e.preventDefault()}>
          <KeepBrowse state={state} except={["category", "sort", "brand"]} />
          <label className="form-control">
            <span className="label-text mb-1 block text-sm font-medium">{CATALOG_TEXT.categoryLabel}</span>
            {/* The address is the truth: no value of an earlier visit restored over it (Back). */}
            <select
              name="category"
              form={oneForm}
              autoComplete="off"
              className="select select-bordered"
              defaultValue={category ?? ""}
              onChange={(e) => change({ category: asCategory(e.target.value) })}
            >
              <option value="">{CATALOG_TEXT.allCategories}</option>
              {categoryOptions(menu).map((c) => (
                // A sub-category is indented under its parent: a root lists its descendants' tools.
                <option key={c.slug} value={c.slug}>
                  {`${"\u00a0\u00a0\u00a0".repeat(c.depth)}${c.name}`}
                </option>
              ))}
              {/* A category the address names that the menu does not (yet) list stays chosen. */}
              {category && !categoryOptions(menu).some((c) => c.slug === category) && <option value={category}>{heading}</option>}
            </select>
          </label>
          <label className="form-control">
            <span className="label-text mb-1 block text-sm font-medium">{CATALOG_TEXT.sortLabel}</span>
            <select
              name="sort"
              form={oneForm}
              autoComplete="off"
              className="select select-bordered"
              defaultValue={state.sort ?? ""}
              onChange={(e) => change({ sort: sortChosen(e.target.value) })}
            >
              {/* The default order sends no sort ("" is none), so that, sent with a new search
                  without the app, the results come by relevance rather than in the old default. */}
              {TOOL_SORTS.filter((s) => s !== "relevance" || q).map((s) => (
                <option key={s} value={s === defaultSort(q) ? "" : s}>
                  {CATALOG_TEXT.sorts[s]}
                </option>
              ))}
            </select>
          </label>
          {/* The app sends a change at once; without it, this button does. */}
          <noscript>
            <button type="submit" form={browseId} className="btn">
              {CATALOG_TEXT.applyFilters}
            </button>
          </noscript>
        </form>
        <SearchBox q={q} formId={oneForm} onSearch={(text) => change({ q: text })}>
          <KeepBrowse state={state} except={["q"]} />
        </SearchBox>
      </div>
      {/* The catalogue's one form before the app: its fields are the page's controls (their `form` attribute). */}
      <form id={browseId} method="get" action="/tools" hidden />
      <div className="md:grid md:grid-cols-[14rem_minmax(0,1fr)] md:gap-8">
        {sheet ? (
          <FiltersSheet label={CATALOG_FILTERS_TEXT.filtersChosen(chosenCount(state))}>{filters}</FiltersSheet>
        ) : (
          <section aria-labelledby={filtersHeadingId} className="mb-8 md:mb-0">
            <h2 id={filtersHeadingId} className="mb-4 text-lg font-bold">
              {CATALOG_FILTERS_TEXT.filters}
            </h2>
            {filters}
          </section>
        )}
        <div>
          <PriceRange state={state} formId={oneForm} range={facets?.price} onApply={(range) => change(range)} />
          <QueryView query={query} isEmpty={(d) => d.items.length === 0} empty={q || category || brands.length > 0 || state.spec || state.minPrice !== undefined || state.maxPrice !== undefined ? CATALOG_TEXT.empty : TEXT.home.emptyCatalog}>
            {(data) => {
              const pages = Math.max(1, Math.ceil(data.total / PAGE_SIZE_DEFAULT));
              const next = hasNextPage({ page, total: data.total, exact: data.exact, shown: data.items.length, limit: PAGE_SIZE_DEFAULT });
              return (
                <>
                  <p ref={resultsRef} tabIndex={-1} className="text-base-content/80 mb-4 text-sm outline-none" aria-live="polite">
                    {CATALOG_TEXT.results(data.total, data.exact)}
                  </p>
                  <ToolGrid tools={data.items} headingLevel={2} eagerFirst details={cardDetails} />
                  {(pages > 1 || page > 1 || next) && (
                    // A GET form: without the app's code, 'Previous' and 'Next' send the page number with the rest of the view.
                    // The app takes the sending over, from the button that sent it: a click that came
                    // while React was still taking the page over reaches this form's submit all the same.
                    <form
                      method="get"
                      action="/tools"
                      onSubmit={(e) => {
                        e.preventDefault();
                        const { submitter } = e.nativeEvent as SubmitEvent;
                        if (submitter instanceof HTMLButtonElement) goToPage(Number(submitter.value));
                      }}
                    >
                      <KeepBrowse state={state} except={[]} />
                      <nav aria-label={TEXT.a11y.pages} className="mt-8 flex items-center justify-center gap-4">
                        <button type="submit" name="page" value={page - 1} className="btn" disabled={page <= 1}>
                          {CATALOG_TEXT.previous}
                        </button>
                        <span>{data.exact ? CATALOG_TEXT.page(page, pages) : CATALOG_TEXT.pageOfMany(page, pages)}</span>
                        <button type="submit" name="page" value={page + 1} className="btn" disabled={!next}>
                          {CATALOG_TEXT.next}
                        </button>
                      </nav>
                    </form>
                  )}
                </>
              );
            }}
          </QueryView>
        </div>
      </div>
    </div>
  );
}

/** Min and max price, checked with the API's own rule before the URL changes. */
function PriceRange({
  state,
  onApply,
  formId,
  range,
}: {
  state: BrowseState;
  onApply: (range: Pick<BrowseState, "minPrice" | "maxPrice">) => void;
  formId: string | undefined;
  /** The prices the list's other filters leave (the facets'): the fields' placeholders. */
  range?: { min: number | null; max: number | null };
}) {
  const fromUrl = `${state.minPrice ?? ""}|${state.maxPrice ?? ""}`;
  const [shown, setShown] = useState(fromUrl);
  const inUrl = (price: number | undefined) => (price === undefined ? "" : String(price));
  /*
   * The fields are uncontrolled, like the search box (components/search-box.tsx says why): what
   * they show is what was typed, before the app took the page over or after, and 'Apply' sends it.
   */
  const minRef = useRef<HTMLInputElement>(null);
  const maxRef = useRef<HTMLInputElement>(null);
  const [typedError, setError] = useState<{ message: string; field: "minPrice" | "maxPrice" } | undefined>(undefined);
  // A link or a hand-edited address may carry a range the API refuses: say why beside the fields.
  const urlRange = checkPriceRange(String(state.minPrice ?? ""), String(state.maxPrice ?? ""));
  const error = typedError ?? (urlRange.ok ? undefined : urlRange);
  // Back, Forward and links change the range in the URL: the fields follow it (not when they
  // mount: they keep what the visitor typed before the app came).
  if (shown !== fromUrl) {
    setShown(fromUrl);
    setError(undefined);
  }
  const fieldsShow = useRef(fromUrl);
  useEffect(() => {
    if (fieldsShow.current === fromUrl) return;
    fieldsShow.current = fromUrl;
    if (minRef.current) minRef.current.value = inUrl(state.minPrice);
    if (maxRef.current) maxRef.current.value = inUrl(state.maxPrice);
  }, [fromUrl, state.minPrice, state.maxPrice]);
  const errorId = useId();
  const clearId = useId();
  const set = state.minPrice !== undefined || state.maxPrice !== undefined;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // What the fields show: typed while React was still taking the page over, it may not be in the state yet.
    const typed = new FormData(event.currentTarget);
    const result = checkPriceRange(String(typed.get("minPrice") ?? ""), String(typed.get("maxPrice") ?? ""));
    if (!result.ok) {
      setError(result);
      return;
    }
    setError(undefined);
    onApply({ minPrice: result.minPrice, maxPrice: result.maxPrice });
  };

  const field = (name: "minPrice" | "maxPrice", label: string, value: string, invalid: boolean, ref: RefObject<HTMLInputElement | null>, placeholder: number | null | undefined) => (
    <label className="form-control">
      <span className="label-text mb-1 block text-sm font-medium">{label}</span>
      <input
        ref={ref}
        name={name}
        form={formId}
        autoComplete="off"
        type="number"
        inputMode="decimal"
        min={0}
        step="any"
        className="input input-bordered w-36"
        defaultValue={value}
        placeholder={placeholder === null || placeholder === undefined ? undefined : String(placeholder)}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
      />
    </label>
  );

  return (
    // noValidate: the zod rule speaks, in the store's words, rather than the browser's bubble.
    <>
      <form method="get" action="/tools" aria-label={CATALOG_TEXT.priceRange} noValidate onSubmit={onSubmit} className="mb-8 flex flex-wrap items-end gap-2">
        <KeepBrowse state={state} except={["minPrice", "maxPrice"]} />
        {field("minPrice", CATALOG_TEXT.minPrice, inUrl(state.minPrice), error?.field === "minPrice", minRef, range?.min)}
        {field("maxPrice", CATALOG_TEXT.maxPrice, inUrl(state.maxPrice), error?.field === "maxPrice", maxRef, range?.max)}
        <button type="submit" form={formId} className="btn">
          {CATALOG_TEXT.applyPrice}
        </button>
        {set && (
          // Without the app's code it sends the form below: the view without a range.
          <button
            type="submit"
            form={clearId}
            className="btn btn-ghost"
            onClick={(e) => {
              e.preventDefault();
              onApply({ minPrice: undefined, maxPrice: undefined });
            }}
          >
            {CATALOG_TEXT.clearPrice}
          </button>
        )}
        {error && (
          <p id={errorId} role="alert" className="text-error w-full text-sm">
            {error.message}
          </p>
        )}
      </form>
      <form id={clearId} method="get" action="/tools" hidden>
        <KeepBrowse state={state} except={["minPrice", "maxPrice"]} />
      </form>
    </>
  );
}

export default ToolsPage;
