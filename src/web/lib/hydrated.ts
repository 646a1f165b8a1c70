/**
 * Whether the app's code has taken the page over: false while the server renders and while the
 * browser hydrates (so both render the same), true from then on. A control that needs the app
 * (one without a plain-HTML form of its own) is shown disabled until then, never dead.
 */
import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
