import { Navigate, Outlet, useLocation } from "react-router";
import { TEXT } from "../../../contract/texts/site";
import { Spinner } from "../../components/ui/states";
import { useSession } from "../../lib/session";

/** Router state carried to /login: the page to return to afterwards. */
export interface FromState {
  from?: string;
}

/** Protected routes: a spinner while the session loads, the login page when signed out. */
export function RequireAuth() {
  const { user, isPending } = useSession();
  const location = useLocation();
  if (isPending) return <Spinner label={TEXT.states.checkingSession} />;
  if (!user) {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/login" replace state={{ from } satisfies FromState} />;
  }
  return <Outlet />;
}

