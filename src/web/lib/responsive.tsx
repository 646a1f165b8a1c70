import { Suspense, type ReactNode } from "react";

/** Hidden below Tailwind's `md` breakpoint (a phone): cards past a phone's share of a list. Written here so Tailwind sees the class. */
export const PHONE_HIDDEN = "max-md:hidden";

/**
 * A part of a server-rendered page that the browser may take over (hydrate) on its own, in
 * a task of its own: React hydrates each Suspense boundary separately and yields between
 * them, so a long page does not block the main thread in one long task. Nothing in it suspends.
 */
export function HydrationPart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
