import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useSession } from "../../lib/session";
import { CartButton } from "./cart-button";
import { cartQuery, mergeGuestCart } from "./cart-query";
import { countOf, useGuestCart } from "./guest-cart";

/**
 * The navigation bar's cart: an icon with the count, on every page. A visitor's count is the
 * browser's cart; a customer's is the server's. When a visitor signs in or up (form or Google),
 * the browser's cart joins the account's here, once, whichever page they land on. A chunk of its
 * own (navbar.tsx): the page works without it until it comes.
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
  return <CartButton count={count} />;
}

export default CartLink;
