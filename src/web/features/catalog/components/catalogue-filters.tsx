import { useEffect, useId, useRef, useSyncExternalStore, type ReactNode } from "react";
import { Link } from "react-router";
import type { Facets } from "../../../../contract/catalogue-io";
import { CATALOG_TEXT } from "../../../../contract/texts/catalog";
import { CATALOG_FILTERS_TEXT as TEXT } from "../../../../contract/texts/catalog-filters";
import { useTypedEarly } from "../../../lib/typed-early";
import { browseSearch, changeBrowse, splitRange, type BrowseState } from "../browse-state";
import { categoryLinks, filterView, filtersKey, filtersOfFields } from "../filters";
import type { CatalogueMenu } from "../menu";

/** The fields of the filters as a form would send them: checked boxes, kept values and the ranges' ends. */
function fieldsIn(panel: Element): [string, string][] {
  const fields: [string, string][] = [];
  for (const input of panel.querySelectorAll<HTMLInputElement>("input[name]")) {
    if (input.type === "checkbox" && !input.checked) continue;
    fields.push([input.name, input.value]);
  }
  return fields;
}

interface FiltersProps {
  state: BrowseState;
  menu: CatalogueMenu | undefined;
  facets: Facets | undefined;
  /** The category tree as the page's select lists it (parents first, each with its depth). */
  categories: { slug: string; name: string; depth: number }[];
  /** The catalogue's one form before (and without) the app (tools-page.tsx): every field belongs to it then. */
  formId: string | undefined;
  /** The brands and specifications the fields choose now: the page puts them in the address. */
  onFilters: (chosen: Pick<BrowseState, "brand" | "spec">) => void;
  /** Without the app: the button that sends the one form. */
  children?: ReactNode;
}

/**
 * The catalogue's filters with counts (issue 51): the category tree as links, the brands and each
 * filterable specification as checkboxes ("Stihl (12)": the count is in the label), a number as a
 * range. A choice that leaves nothing is disabled, never hidden; a checked one stays enabled. The
 * fields are uncontrolled, like the page's selects (tools-page.tsx says why): a box ticked while the
 * app takes the page over is taken once (useTypedEarly), later ones as they change.
 */
export function CatalogueFilters({ state, menu, facets, categories, formId, onFilters, children }: FiltersProps) {
  const view = filterView(menu, facets, state);
  const shown = filtersKey(state);
  const read = (panel: Element) => filtersOfFields(fieldsIn(panel));
  const panelRef = useTypedEarly<HTMLFormElement>(
    shown,
    (panel) => filtersKey(read(panel)),
    // What the fields chose before the app came, read back from its key.
    (chosen) => onFilters(filtersOfFields(new URLSearchParams(chosen))),
  );
  const apply = () => {
    if (panelRef.current) onFilters(read(panelRef.current));
  };

  // The fields follow the address when it changes (Back, Forward, a link), not when they mount.
  const fieldsShow = useRef(shown);
  useEffect(() => {
    if (fieldsShow.current === shown) return;
    fieldsShow.current = shown;
    const panel = panelRef.current;
    if (!panel) return;
    const spec = state.spec ?? {};
    for (const box of panel.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      box.checked = box.name === "brand" ? (state.brand ?? []).includes(box.value) : (spec[box.name.slice(5)] ?? []).includes(box.value);
    }
    for (const field of panel.querySelectorAll<HTMLInputElement>('input[type="number"]')) {
      // Not the field being typed in: leaving the other end sent the range, and this one is still the shopper's.
      if (field === document.activeElement) continue;
      const [, key = "", end] = /^spec\.(.+)\.(min|max)$/.exec(field.name) ?? [];
      const range = (spec[key] ?? []).map(splitRange).find(Boolean);
      field.value = end === "min" ? (range?.min ?? "") : (range?.max ?? "");
    }
  }, [shown, state.brand, state.spec, panelRef]);

  const headingId = useId();
  const box = (name: string, choice: (typeof view.brands)[number]) => (
    <label key={choice.value} className={`flex items-center gap-2 text-sm ${choice.disabled ? "opacity-60" : "cursor-pointer"}`}>
      <input
        type="checkbox"
        name={name}
        value={choice.value}
        form={formId}
        autoComplete="off"
        className="checkbox checkbox-sm"
        defaultChecked={choice.checked}
        disabled={choice.disabled}
        onChange={apply}
      />
      {choice.label}
    </label>
  );

  return (
    // Its own GET form once the app runs (Enter in a range sends it, the app takes it over); before, every field belongs to the one form.
    <form
      ref={panelRef}
      method="get"
      action="/tools"
      className="flex flex-col gap-6"
      data-testid="catalogue-filters"
      onSubmit={(event) => {
        event.preventDefault();
        apply();
      }}
    >
      <nav aria-labelledby={headingId}>
        <h3 id={headingId} className="mb-2 text-sm font-semibold">
          {TEXT.categories}
        </h3>
        <ul className="flex flex-col gap-1 text-sm">
          {categoryLinks(categories, facets, state).map((link) => (
            <li key={link.slug ?? ""} style={{ paddingInlineStart: `${link.depth}rem` }}>
              {link.disabled ? (
                <span aria-disabled="true" className="opacity-60">
                  {link.label}
                </span>
              ) : (
                <Link
                  to={{ pathname: "/tools", search: browseSearch(changeBrowse(state, { category: link.slug })) }}
                  preventScrollReset
                  aria-current={link.current ? "page" : undefined}
                  className={link.current ? "font-semibold" : "link link-hover"}
                >
                  {link.label}
                </Link>
              )}
            </li>
          ))}
        </ul>
      </nav>
      {view.brands.length > 0 && (
        <fieldset className="flex flex-col gap-1" data-testid="brand-filter">
          <legend className="mb-1 text-sm font-semibold">{CATALOG_TEXT.brandLabel}</legend>
          {view.brands.map((choice) => box("brand", choice))}
        </fieldset>
      )}
      {view.specs.map((spec) =>
        spec.kind === "choice" ? (
          spec.choices.length > 0 && (
            <fieldset key={spec.key} className="flex flex-col gap-1" data-testid={`spec-filter-${spec.key}`}>
              <legend className="mb-1 text-sm font-semibold">{spec.legend}</legend>
              {spec.choices.map((choice) => box(`spec.${spec.key}`, choice))}
            </fieldset>
          )
        ) : (
          <fieldset key={spec.key} className="flex flex-col gap-1" data-testid={`spec-filter-${spec.key}`}>
            <legend className="mb-1 text-sm font-semibold">{spec.legend}</legend>
            <div className="flex gap-2">
              {(["min", "max"] as const).map((end) => (
                <label key={end} className="flex flex-col text-sm">
                  <span className="mb-1">{end === "min" ? TEXT.rangeMin : TEXT.rangeMax}</span>
                  <input
                    type="number"
                    name={`spec.${spec.key}.${end}`}
                    form={formId}
                    autoComplete="off"
                    inputMode="decimal"
                    step="any"
                    className="input input-bordered input-sm w-24"
                    defaultValue={end === "min" ? spec.min : spec.max}
                    placeholder={end === "min" ? spec.low : spec.high}
                    // A range is sent when the shopper leaves the field or presses Enter (the panel has no
                    // submit button once the app runs, and several number fields: Enter would send nothing).
                    onBlur={apply}
                    onKeyDown={(event) => {
                      if (event.key !== "Enter") return;
                      event.preventDefault();
                      apply();
                    }}
                  />
                </label>
              ))}
            </div>
          </fieldset>
        ),
      )}
      {view.kept.map(({ name, value }) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} form={formId} />
      ))}
      {children}
    </form>
  );
}

const PHONE = "(max-width: 767.98px)";
const subscribePhone = (onChange: () => void) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};

/** Whether the viewport is a phone's (below Tailwind's `md`): false on the server and while hydrating. */
export function usePhone(): boolean {
  return useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
}

/**
 * The filters on a phone, once the app runs: a "Filters" button opening them as a sheet (the
 * platform's modal `<dialog>`: focus moves in and stays, Escape and "Close" close it, the page
 * behind is inert). The list behind it follows each choice as it is made.
 */
export function FiltersSheet({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className="btn mb-4 w-full" aria-haspopup="dialog" onClick={() => ref.current?.showModal()}>
        {label}
      </button>
      <dialog ref={ref} className="modal modal-bottom" aria-labelledby={titleId}>
        <div className="modal-box max-h-[85vh]">
          <div className="mb-4 flex items-center justify-between">
            <h2 id={titleId} className="text-lg font-bold">
              {TEXT.filters}
            </h2>
            <button type="button" className="btn btn-sm" onClick={() => ref.current?.close()}>
              {TEXT.closeFilters}
            </button>
          </div>
          {children}
        </div>
      </dialog>
    </>
  );
}
