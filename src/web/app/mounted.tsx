import { useEffect } from "react";

/** The whole stylesheet (./stylesheet.ts). One that does not load leaves the page its own rules. */
export const wholeStylesheet = () => import("./stylesheet").catch((error: unknown) => console.error(error));

/**
 * Marks the root once React has taken it over: browser tests wait for it before clicking, and
 * the no-JavaScript carousel rules step aside (styles.css). Then the whole stylesheet is asked
 * for, for what the app shows beyond the page as rendered. (The app's, start.tsx, and the home
 * page's first load's, home-start.tsx.)
 */
export function Mounted() {
  useEffect(() => {
    document.getElementById("root")?.setAttribute("data-hydrated", "");
    void wholeStylesheet();
  }, []);
  return null;
}
