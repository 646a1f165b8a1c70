import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { CATEGORY_LABELS, LIMITS, type Category } from "../../../../contract/constants";
import { CATALOG_TEXT } from "../../../../contract/texts/catalog";
import type { Suggestion as ToolSuggestion } from "../../../../contract/schemas";
import { moveActive, SUGGEST_DEBOUNCE_MS, suggestQuery, useDebounced } from "../suggest";

/**
 * The catalogue's search box with search-as-you-type suggestions: a searchbox that owns a listbox
 * (aria-controls, aria-activedescendant; the WAI-ARIA list-autocomplete pattern, without the
 * combobox role because the box stays the "Search tools" searchbox). Arrows move through the
 * suggestions, Enter opens the highlighted tool (or searches when none is), Escape closes the list.
 * Before the app's code runs it is a plain GET form to /tools; `children` are the hidden fields
 * that keep the rest of the view.
 */
export function SearchBox({
  q,
  onSearch,
  children,
  formId,
}: {
  q: string | undefined;
  onSearch: (q: string | undefined) => void;
  children?: ReactNode;
  /** Before the app runs: the catalogue's one form that the box and its button belong to (tools-page.tsx). */
  formId?: string | undefined;
}) {
  const navigate = useNavigate();
  /**
   * The box is uncontrolled: what it shows is the browser's, typed before the app took the page
   * over or after, and never written over by a render. Controlled, a render that came before the
   * app had read the typed text (React keeps a value when it hydrates, but the next render writes
   * the state's) emptied the box, and a Search pressed then sent nothing (issue 54). `draft`
   * follows what is typed after, for the suggestions only; Search sends what the box shows.
   */
  const inputRef = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState(q ?? "");
  // Back, Forward and links change the search in the URL: the box follows it (not when it mounts:
  // it keeps what the visitor typed before the app came).
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setDraft(q ?? "");
  }
  const boxShows = useRef(q);
  useEffect(() => {
    if (boxShows.current === q || !inputRef.current) return;
    boxShows.current = q;
    inputRef.current.value = q ?? "";
  }, [q]);
  // Open only after the shopper types: a page opened with ?q= shows no list over the results.
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebounced(draft.trim().slice(0, LIMITS.search), SUGGEST_DEBOUNCE_MS);
  const suggestions = useQuery(suggestQuery(typed, open));
  // A new list (new text) starts with nothing highlighted.
  const [listFor, setListFor] = useState<ToolSuggestion[] | undefined>(undefined);
  if (listFor !== suggestions.data) {
    setListFor(suggestions.data);
    setActive(-1);
  }
  const items = open && typed !== "" && draft.trim() !== "" ? (suggestions.data ?? []) : [];
  const expanded = items.length > 0;
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (suggestion: ToolSuggestion) => {
    close();
    void navigate(`/tools/${encodeURIComponent(suggestion._id)}`);
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    close();
    // What the box shows: typed while React was still taking the page over, it is not in `draft`.
    onSearch(String(new FormData(event.currentTarget).get("q") ?? "").trim() || undefined);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!expanded) {
        setOpen(true);
        return;
      }
      setActive((current) => moveActive(current, event.key === "ArrowDown" ? 1 : -1, items.length));
    } else if (event.key === "Enter" && expanded && active >= 0 && items[active]) {
      event.preventDefault();
      choose(items[active]);
    } else if (event.key === "Escape" && expanded) {
      // A search input clears itself on Escape: here Escape only closes the list.
      event.preventDefault();
      close();
    }
  };

  return (
    <form role="search" method="get" action="/tools" onSubmit={onSubmit} className="flex flex-1 items-end gap-2">
      {children}
      <div className="relative flex-1">
        <label className="form-control">
          <span className="label-text mb-1 block text-sm font-medium">{CATALOG_TEXT.searchLabel}</span>
          <input
            ref={inputRef}
            type="search"
            name="q"
            form={formId}
            className="input input-bordered w-full"
            placeholder={CATALOG_TEXT.searchPlaceholder}
            defaultValue={q ?? ""}
            maxLength={LIMITS.search}
            autoComplete="off"
            aria-autocomplete="list"
            aria-controls={expanded ? listId : undefined}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            onChange={(e) => {
              setDraft(e.target.value);
              setOpen(true);
            }}
            onKeyDown={onKeyDown}
            onBlur={close}
          />
        </label>
        {expanded && (
          <ul
            id={listId}
            role="listbox"
            aria-label={CATALOG_TEXT.suggestions}
            className="bg-base-100 border-base-300 rounded-box absolute top-full right-0 left-0 z-20 mt-1 max-h-96 overflow-auto border p-1 shadow-lg"
          >
            {items.map((suggestion, index) => (
              <li
                key={suggestion._id}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={`flex cursor-pointer items-baseline justify-between gap-3 rounded px-3 py-2 ${index === active ? "bg-primary text-primary-content" : "hover:bg-base-200"}`}
                // The box keeps the focus (and its list) while a suggestion is clicked.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(suggestion)}
                onMouseEnter={() => setActive(index)}
              >
                <span>{suggestion.name}</span>
                <span className={index === active ? "text-xs" : "text-base-content/80 text-xs"}>{CATEGORY_LABELS[suggestion.category as Category] ?? suggestion.category}</span>
              </li>
            ))}
          </ul>
        )}
        <div className="sr-only" aria-live="polite">
          {open && typed !== "" && suggestions.isFetched ? CATALOG_TEXT.suggestionsCount(items.length) : ""}
        </div>
      </div>
      <button type="submit" form={formId} className="btn btn-primary">
        {CATALOG_TEXT.search}
      </button>
    </form>
  );
}
