/**
 * Search-as-you-type: the suggestions query and a debounce. Only the catalogue page imports this
 * module, so none of it reaches the home page's chunk.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, withQuery } from "../../lib/api";
import { SUGGESTIONS_MAX } from "../../../contract/constants";
import type { Suggestion as ToolSuggestion } from "../../../contract/schemas";

/** How long typing must pause before the suggestions are fetched. */
export const SUGGEST_DEBOUNCE_MS = 200;

/** `active`: the list is open (the shopper is typing in the box). */
export const suggestQuery = (q: string, active = true) =>
  queryOptions({
    queryKey: ["tools", "suggest", q] as const,
    queryFn: ({ signal }): Promise<ToolSuggestion[]> =>
      api.get<ToolSuggestion[]>(withQuery("/api/tool/suggest", { q }), signal).then((list) => list.slice(0, SUGGESTIONS_MAX)),
    enabled: active && q !== "",
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The highlighted suggestion after an arrow key: -1 is the typed text itself, so the arrows
 * cycle through the suggestions and back to what was typed.
 */
export function moveActive(current: number, step: 1 | -1, count: number): number {
  if (count === 0) return -1;
  const positions = count + 1;
  return ((current + 1 + step + positions) % positions) - 1;
}
