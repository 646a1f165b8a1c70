/**
 * `1234.5` → `$1,234.50` (formatted by hand, see money.ts, which re-exports it). A module of its
 * own: the home page's tool cards need only this, and the app's chunk holds a module it imports
 * whole (bench:page).
 */
export const formatDollars = (dollars: number): string =>
  `${dollars < 0 ? "-" : ""}$${Math.abs(dollars).toFixed(2).replace(/\B(?=(\d{3})+\.)/g, ",")}`;
