import { useEffect, useRef, useState, type ReactNode } from "react";
import { TEXT } from "../../contract/texts/site";
import { useNavKit } from "../lib/nav-kit";

/** Who is signed in, as the navigation bar shows it. */
export interface NavUser {
  role?: string | null;
}

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "menu-active font-semibold" : "");

/**
 * The navigation bar as the visitor sees it, free of the router and of the data layer: the app
 * gives it the session, the sign-out and the cart's icon (navbar.tsx), and so does the home page's
 * first load, which runs without them (app/home-start.tsx, decision 0025). Its links are the
 * router's or plain anchors (lib/nav-kit.tsx). `cart`: the icon in its Suspense boundary (a
 * boundary of the same place on both, so the first load hydrates what the server rendered).
 */
export function NavbarView({ user, isPending, onSignOut, cart }: { user: NavUser | null; isPending: boolean; onSignOut: () => void; cart: ReactNode }) {
  const { Link, NavLink } = useNavKit();
  // The menu is a popover: the platform opens and closes it, without the app's code too (a page
  // rendered on the server works before it runs); the state only mirrors it for aria-expanded.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLUListElement>(null);
  // Opened before the app took the page over, the menu is open as it hydrates, and its toggle
  // event came before React listened: the state starts from the element.
  useEffect(() => {
    if (menuRef.current?.matches(":popover-open")) setMenuOpen(true);
  }, []);

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
          <button type="button" onClick={onSignOut}>
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
          {cart}
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
