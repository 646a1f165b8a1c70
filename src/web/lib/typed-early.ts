import { useEffect, useRef, type RefObject } from "react";
import { useHydrated } from "./hydrated";

/**
 * A form on a server-rendered page can be used before the app has taken the page over (main.tsx
 * asks for the app once the first screen is painted). React keeps what a control shows when it
 * takes it over, but sends no change for it: this hands such a value (what `read` finds in the
 * element, against what the app `shown`) to `take`, once, when the element mounts, so the app acts
 * on it as if it had been there (a category chosen before the code came shows its tools). An
 * element the app rendered itself shows what it was given, and nothing happens. Its controls need
 * `autoComplete="off"`: else the browser, on Back, restores the values of the earlier visit, and
 * they would be taken for the visitor's.
 *
 * For controls whose choice the app must act on as it comes (the catalogue's category and sort,
 * which change the view at once). A text field is better uncontrolled (the search box, the price
 * range): a controlled one shows the state's value at the app's first render after hydration, which
 * can come before this hands it the typed text, and empties the field meanwhile (issue 54).
 */
export function useTypedEarly<T extends Element>(shown: string, read: (element: T) => string, take: (value: string) => void): RefObject<T | null> {
  const ref = useRef<T>(null);
  // Only an element that was the server's HTML can hold what a visitor did before the app came: one
  // the app rendered itself (a move from another page) shows what the app gave it, and whatever it
  // reads then (an option the menu has not listed yet) is not a visitor's choice to act on.
  const fromServer = useRef(!useHydrated());
  useEffect(() => {
    if (!fromServer.current) return;
    const value = ref.current ? read(ref.current) : undefined;
    if (value !== undefined && value !== shown) take(value);
    // Once: what the visitor did before the app came. Later changes reach the controls' onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
