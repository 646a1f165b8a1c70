import { useEffect, useRef, type RefObject } from "react";

/**
 * A form on a server-rendered page can be used before the app has taken the page over (main.tsx
 * asks for the app once the first screen is painted). React keeps what a control shows when it
 * takes it over, but sends no change for it: this hands such a value (what `read` finds in the
 * element, against what the app `shown`) to `take`, once, when the element mounts, so the app acts
 * on it as if it had been there (a category chosen before the code came shows its tools). An
 * element the app rendered itself shows what it was given, and nothing happens. Its controls need
 * `autoComplete="off"`: else the browser, on Back, restores the values of the earlier visit, and
 * they would be taken for the visitor's.
 */
export function useTypedEarly<T extends Element>(shown: string, read: (element: T) => string, take: (value: string) => void): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const value = ref.current ? read(ref.current) : undefined;
    if (value !== undefined && value !== shown) take(value);
    // Once: what the visitor did before the app came. Later changes reach the controls' onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}

/** What an input or a select shows. */
export const valueOf = (control: HTMLInputElement | HTMLSelectElement): string => control.value;
