/**
 * A client-side move that keeps the page where the shopper is (app/layout.tsx's ScrollOnNavigation
 * does not scroll it to the top): a product's option chosen on its page moves to that tool's
 * address, and the shopper keeps looking at the choices. `<Link state={KEEP_SCROLL_STATE}>`.
 */
export const KEEP_SCROLL = "keepScroll";
export const KEEP_SCROLL_STATE = { [KEEP_SCROLL]: true } as const;
