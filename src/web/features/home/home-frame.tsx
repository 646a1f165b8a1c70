import type { ReactNode } from "react";
import { HydrationPart } from "../../lib/responsive";
import { PageTitle } from "../../lib/page-title";
import { Carousel } from "./components/carousel";

/** The home page's sections below the carousel, each in a boundary of its own. */
export interface HomeParts {
  categories: ReactNode;
  ourTools: ReactNode;
  infoStrip: ReactNode;
  reviews: ReactNode;
  looks: ReactNode;
}

/**
 * The home page's order of sections, free of the router and of the data layer: the page as the
 * app renders it fills it with its sections (home-page.tsx), and the home page's first load
 * (app/home-start.tsx, decision 0025) hydrates the carousel and leaves every other section as
 * the server rendered it (their links work as links) until the app takes the page over. Each
 * section is a Suspense boundary of its own on both, so either hydrates the server's HTML.
 */
export function HomeFrame({ parts }: { parts: HomeParts }) {
  return (
    <>
      <PageTitle />
      <Carousel />
      <HydrationPart>{parts.categories}</HydrationPart>
      <HydrationPart>{parts.ourTools}</HydrationPart>
      <HydrationPart>{parts.infoStrip}</HydrationPart>
      <HydrationPart>{parts.reviews}</HydrationPart>
      <HydrationPart>{parts.looks}</HydrationPart>
    </>
  );
}
