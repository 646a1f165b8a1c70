import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { NavLink } from "react-router";
import { TEXT } from "../../../contract/texts/site";
import { useSession } from "../../lib/session";
import { cartQuery, mergeGuestCart } from "./cart-query";
import { countOf, useGuestCart } from "./guest-cart";

/**
 * The navigation bar's cart: an icon with the count, on every page. A visitor's count is the
 * browser's cart; a customer's is the server's. When a visitor signs in or up (form or Google),
 * the browser's cart joins the account's here, once, whichever page they land on.
 */
export function CartLink() {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const guest = useGuestCart();
  const server = useQuery({ ...cartQuery(), enabled: user !== null });
  const userId = user?.id;
  const hasGuestLines = guest.length > 0;

  useEffect(() => {
    if (userId && hasGuestLines) void mergeGuestCart(queryClient);
  }, [userId, hasGuestLines, queryClient]);

  const count = user ? (server.data?.count ?? 0) : countOf(guest);
  return (
    <NavLink to="/cart" className="btn btn-ghost btn-circle relative" aria-label={TEXT.nav.cartLabel(count)} data-testid="cart-link">
      <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" strokeWidth="2" aria-hidden="true">
        <path strokeLinecap="round" strokeLinejoin="round" d="M3 3h2l2.4 12.2a1 1 0 0 0 1 .8h9.7a1 1 0 0 0 1-.8L21 7H6M9 20h.01M18 20h.01" />
      </svg>
      {count > 0 && (
        <span className="badge badge-primary badge-sm absolute -top-1 -right-1" data-testid="cart-count" aria-hidden="true">
          {count}
        </span>
      )}
    </NavLink>
  );
}
