import { MAX_PAGE } from "../../contract/constants";

/**
 * Is there a page after this one? With an exact total, the total says; past a capped one
 * (`X-Total-Count-Exact: false`, "more than 1,000"), a full page says there may be more, up to
 * the deepest page the API serves by number.
 */
export function hasNextPage(args: { page: number; total: number; exact: boolean; shown: number; limit: number }): boolean {
  if (args.exact) return args.page * args.limit < args.total;
  return args.shown === args.limit && args.page < MAX_PAGE;
}
