/**
 * The store's whole stylesheet, as a chunk of its own: Vite's `import()` of this module loads
 * the sheet (a `<link rel="stylesheet">`) and resolves once it is applied.
 *
 * A page the server rendered carries the rules its HTML uses in its head (pages/render.ts), so
 * the app asks for the rest only once it has taken the page over (start.tsx): fetched, parsed and
 * applied while the app's code loaded and hydrated, the sheet added long tasks of its own in that
 * busy time on a slow phone (decision 0011). A page the browser renders waits for it before its
 * first render (start.tsx), and the entry asks for it with the app (../main.tsx).
 */
import "../styles.css";
