/**
 * The catalogue's filters with counts (issue 51, `/tools`): apart from catalog.ts, whose words the
 * home page's download carries (the search box), so that only the catalogue's own chunk has these.
 */
import { formatWhole } from "../money";

export const CATALOG_FILTERS_TEXT = {
  /** The sidebar's heading, and the phone's button that opens it as a sheet. */
  filters: "Filters",
  /** How many filters are chosen, on the phone's button ("Filters (2)"). */
  filtersChosen: (count: number) => (count > 0 ? `Filters (${formatWhole(count)})` : "Filters"),
  closeFilters: "Close",
  /** Without JavaScript, the filters' own button: sends the catalogue's one form (as "Show" does beside the selects). */
  applyFilters: "Apply filters",
  categories: "Categories",
  allCategories: "All tools",
  /** A choice with how many rows of the list it leaves: "Stihl (12)". */
  withCount: (label: string, count: number | undefined) => (count === undefined ? label : `${label} (${formatWhole(count)})`),
  /** A specification's legend: its name and unit ("Bar length (in)"). */
  specLegend: (name: string, unit: string | null) => (unit ? `${name} (${unit})` : name),
  yes: "Yes",
  no: "No",
  rangeMin: "From",
  rangeMax: "To",
  /** The range the catalogue has, shown as the fields' placeholders. */
  rangeFrom: (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value)),
} as const;
