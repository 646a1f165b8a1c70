import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Link, NavLink, useNavigate } from "react-router";
import { TEXT } from "../../contract/texts/site";
import { CartButton } from "../features/cart";
import { signOut, useSession } from "../lib/session";

/**
 * The cart's count (and a guest's cart joined to the account on sign-in) comes in a chunk of its
 * own, as the page is taken over: what the first download must carry is smaller by it, and the
 * icon is a link to the cart meanwhile. (The server renders it whole: its render waits for it.)
 */
const CartLink = lazy(() => import("../features/cart/cart-link"));

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "menu-active font-semibold" : "");

export function Navbar() {
  const { user, isPending } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The menu is a popover: the platform opens and closes it, without the app's code too (a page
  // rendered on the server works before it runs); the state only mirrors it for aria-expanded.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLUListElement>(null);
  // Opened before the app took the page over, the menu is open as it hydrates, and its toggle
  // event came before React listened: the state starts from the element.
  useEffect(() => {
    if (menuRef.current?.matches(":popover-open")) setMenuOpen(true);
  }, []);

  const onSignOut = async () => {
    await signOut(queryClient);
    navigate("/");
  };

  const links = (
    <>
      <li>
        <NavLink to="/" end className={linkClass}>
          {TEXT.nav.home}
        </NavLink>
      </li>
      <li>
        <NavLink to="/tools" className={linkClass}>
          {TEXT.nav.purchase}
        </NavLink>
      </li>
      <li>
        <NavLink to="/blogs" className={linkClass}>
          {TEXT.nav.blogs}
        </NavLink>
      </li>
      <li>
        <NavLink to="/about" className={linkClass}>
          {TEXT.nav.about}
        </NavLink>
      </li>
      {user && (
        <li>
          <NavLink to="/dashboard" className={linkClass}>
            {TEXT.nav.dashboard}
          </NavLink>
        </li>
      )}
      {user?.role === "admin" && (
        <li>
          <NavLink to="/admin" className={linkClass}>
            {TEXT.nav.admin}
          </NavLink>
        </li>
      )}
      <li>
        {user ? (
          <button type="button" onClick={() => void onSignOut()}>
            {TEXT.nav.signOut}
          </button>
        ) : (
          <NavLink to="/login" className={linkClass} aria-disabled={isPending}>
            {TEXT.nav.login}
          </NavLink>
        )}
      </li>
    </>
  );

  return (
    <header className="bg-base-100 border-base-300 sticky top-0 z-30 border-b">
      <nav className="navbar mx-auto max-w-7xl px-4" aria-label={TEXT.a11y.mainNav}>
        <div className="navbar-start">
          <Link to="/" className="flex items-center gap-2 text-xl font-bold">
            <img src="/images/logo.svg" alt="" width={40} height={40} />
            <span>{TEXT.brand}</span>
          </Link>
        </div>
        <div className="navbar-end">
          <ul className="menu menu-horizontal hidden gap-1 lg:flex" data-testid="desktop-menu">
            {links}
          </ul>
          <Suspense fallback={<CartButton />}>
            <CartLink />
          </Suspense>
          <button
            type="button"
            className="btn btn-ghost lg:hidden"
            aria-label={TEXT.nav.openMenu}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            popoverTarget="mobile-menu"
          >
            <svg xmlns="http://www.w3.org/2000/svg" className="h-6 w-6" fill="none" viewBox="0 0 24 24" stroke="currentColor" aria-hidden="true">
              <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2" d="M4 6h16M4 12h16M4 18h16" />
            </svg>
          </button>
        </div>
      </nav>
      <ul
        id="mobile-menu"
        popover="auto"
        // Below the bar, the page's width; a popover is fixed in the top layer, and closed it is
        // hidden here since the menu's own display would override the browser's.
        className="menu bg-base-100 text-base-content border-base-300 fixed inset-x-0 top-16 bottom-auto m-0 w-full border-x-0 border-t border-b-0 p-4 not-open:hidden lg:hidden"
        data-testid="mobile-menu"
        ref={menuRef}
        onToggle={(event) => setMenuOpen(event.newState === "open")}
        // Any choice in the menu (a link or Sign Out) closes it.
        onClick={() => menuRef.current?.hidePopover()}
      >
        {links}
      </ul>
    </header>
  );
}
