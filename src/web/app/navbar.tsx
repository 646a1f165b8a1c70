import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { useNavigate } from "react-router";
import { CartButton } from "../features/cart";
import { signOut, useSession } from "../lib/session";
import { NavbarView } from "./navbar-view";

/**
 * The cart's count (and a guest's cart joined to the account on sign-in) comes in a chunk of its
 * own, as the page is taken over: what the first download must carry is smaller by it, and the
 * icon is a link to the cart meanwhile. (The server renders it whole: its render waits for it.)
 */
const CartLink = lazy(() => import("../features/cart/cart-link"));

/** The app's navigation bar: the session from the data layer, the sign-out through it (the view: navbar-view.tsx). */
export function Navbar() {
  const { user, isPending } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const onSignOut = () =>
    void signOut(queryClient).then(() => navigate("/"));
  return (
    <NavbarView
      user={user}
      isPending={isPending}
      onSignOut={onSignOut}
      cart={
        <Suspense fallback={<CartButton />}>
          <CartLink />
        </Suspense>
      }
    />
  );
}
