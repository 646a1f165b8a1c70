/**
 * The links of the parts every page shares (the navigation bar, the cart's icon) without naming
 * the router: the app gives them react-router's `Link` and `NavLink` (app/layout.tsx), and the
 * home page's first load, which runs without the router (app/home-start.tsx, decision 0025),
 * gives them plain anchors with the same markup. Kept free of react-router and TanStack Query:
 * this module is in the home page's first download.
 */
import { createContext, useContext, type ComponentType, type ReactNode } from "react";

interface LinkProps {
  to: string;
  className?: string;
  children?: ReactNode;
  "aria-label"?: string;
  "aria-disabled"?: boolean;
  "data-testid"?: string;
}

export interface NavLinkProps extends Omit<LinkProps, "className"> {
  /** As react-router's NavLink: `end`, the link is active on its own path only, not below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
}

export interface NavKit {
  Link: ComponentType<LinkProps>;
  NavLink: ComponentType<NavLinkProps>;
}

/** Is `to` the page at `pathname`, as react-router's NavLink decides (its path, or below it unless `end`)? */
export function isActiveAt(pathname: string, to: string, end = false): boolean {
  if (pathname === to) return true;
  return !end && to !== "/" && pathname.startsWith(`${to}/`);
}

const PlainLink = ({ to, children, ...rest }: LinkProps) => (
  <a href={to} {...rest}>
    {children}
  </a>
);

/** A NavLink as an anchor, marked for the page at the address it was rendered at (the first load renders one page). */
const PlainNavLink = ({ to, end, className, children, ...rest }: NavLinkProps) => {
  const isActive = typeof window !== "undefined" && isActiveAt(window.location.pathname, to, end);
  return (
    <a aria-current={isActive ? "page" : undefined} className={typeof className === "function" ? className({ isActive }) : className} href={to} {...rest}>
      {children}
    </a>
  );
};

export const PLAIN_LINKS: NavKit = { Link: PlainLink, NavLink: PlainNavLink };

const NavKitContext = createContext<NavKit>(PLAIN_LINKS);

export const NavKitProvider = NavKitContext.Provider;

export const useNavKit = (): NavKit => useContext(NavKitContext);
