import { TEXT } from "../../../contract/texts/site";
import { useNavKit } from "../../lib/nav-kit";

/**
 * The navigation bar's cart icon, a link to the cart with the count when it is known. Without a
 * count (the moment before the count's code has come: navbar.tsx) it is named just "Cart".
 * Its link is the router's in the app and a plain anchor on the home page's first load (lib/nav-kit.tsx).
 */
export function CartButton({ count }: { count?: number }) {
  const { NavLink } = useNavKit();
  return (
    <NavLink
      to="/cart"
      className="btn btn-ghost btn-circle relative"
      aria-label={count === undefined ? TEXT.nav.cart : TEXT.nav.cartLabel(count)}
      data-testid="cart-link"
    >
      <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" d="M3 3h2l2.4 12.2a1 1 0 0 0 1 .8h9.7a1 1 0 0 0 1-.8L21 7H6M9 20h.01M18 20h.01" />
      </svg>
      {count !== undefined && count > 0 && (
        <span className="badge badge-primary badge-sm absolute -top-1 -right-1" data-testid="cart-count" aria-hidden="true">
          {count}
        </span>
      )}
    </NavLink>
  );
}
