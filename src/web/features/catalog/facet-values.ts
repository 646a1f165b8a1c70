/**
 * The facets' values as the catalogue's page and the server's render both read them: a module of
 * its own, with no imports, so the server (pages/render.ts, loaded at start) takes it without the
 * web's query library.
 */
import type { Facets } from "../../../contract/catalogue-io";

/** A specification's value as the URL and the form name it (`true`, `18`, `petrol`). */
export const specValueParam = (value: string | number | boolean): string => String(value);

/** Facets that count nothing: what a filter the API refuses (an old link's gone brand or specification) leaves, as the list says (no tool). */
export const NO_FACETS: Facets = { total: 0, categories: [], brands: [], specs: [], price: { min: null, max: null } };

export interface FacetSpecValues {
  key: string;
  kind: string;
  values?: { value: string | number | boolean }[];
}

/** The values of the facets' choice specifications, as the catalogue's menu keeps them (every value the catalogue has). */
export const menuSpecsOf = (specs: FacetSpecValues[] = []): { key: string; values: string[] }[] =>
  specs.filter((s) => s.kind === "choice").map((s) => ({ key: s.key, values: (s.values ?? []).map((v) => specValueParam(v.value)) }));
