import type { ReactNode } from "react";
import { TEXT } from "../../contract/texts/site";
import { HydrationPart } from "../lib/responsive";

/**
 * Every page's frame: the skip link, the navigation bar, the page, the footer (in a boundary of
 * its own: it hydrates on its own, later). Free of the router and of the data layer: the app's
 * layout route fills it (layout.tsx), and so does the home page's first load, which runs without
 * them (app/home-start.tsx, decision 0025). Both give the same markup, so either hydrates the
 * server's HTML.
 */
export function SiteFrame({ navbar, footer, children }: { navbar: ReactNode; footer: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-2">
        {TEXT.a11y.skipToContent}
      </a>
      {navbar}
      <main id="main" className="flex-1">
        {children}
      </main>
      <HydrationPart>{footer}</HydrationPart>
    </div>
  );
}
