/**
 * Which page a path is, by react-router's own `matchPath`, as the browser's router decides it:
 * for the server, among the route table's pages (src/contract/routes.ts, entry-server.tsx); in
 * the browser, among the router's (app/router.tsx: the same paths, which TypeScript holds to the
 * table, without the table's server-side fields in the home page's download). Here and not in
 * src/contract: importing react-router loads React with it (it cannot be tree-shaken out of a
 * bundle: React is CommonJS), and the server's start-up must not. The server reaches it through
 * its lazily loaded entry (pages/render.ts loads that).
 */
import { matchPath, type Params } from "react-router";

/** The page among `paths` at `pathname` and its params as they are in the path; null for a path no page has (the 404 page's). */
export function matchPage<P extends string>(paths: readonly P[], pathname: string): { path: P; params: Params } | null {
  for (const path of paths) {
    // As a plain string: react-router would otherwise type the params from a literal pattern.
    const pattern: string = path;
    const match = matchPath(pattern, pathname);
    if (match) return { path, params: match.params };
  }
  return null;
}
