/** Hidden below Tailwind's `md` breakpoint (a phone): cards past a phone's share of a list. Written here so Tailwind sees the class. */
export const PHONE_HIDDEN = "max-md:hidden";
