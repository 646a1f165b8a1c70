import { useEffect } from "react";
import { useLocation, useNavigate } from "react-router";

/**
 * Back or Forward pressed while React was still taking a server-rendered page over (it does
 * so in slices, start.tsx) changed the address before the router listened for it: show the
 * page the address now names. Runs after the router's own listener is attached (a child's passive effect
 * follows every layout effect), so nothing can slip in between.
 */
export function CatchUpWithAddress() {
  const shown = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const { pathname, search, hash } = window.location;
    if (pathname !== shown.pathname || search !== shown.search || hash !== shown.hash) void navigate(`${pathname}${search}${hash}`, { replace: true });
    // Once, when React has taken the page over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}
