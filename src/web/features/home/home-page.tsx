import { useQuery } from "@tanstack/react-query";
import { lazy } from "react";
import { Link } from "react-router";
import { HOME_PHONE_TOOLS, HOME_TOOLS_COUNT } from "../../../contract/storefront";
import { HydrationPart } from "../../lib/responsive";
import { TEXT } from "../../../contract/texts/site";
import { QueryView } from "../../components/ui/states";
import { ToolGrid, toolsQuery } from "../catalog";
import { Carousel } from "./components/carousel";
import { Categories, Section } from "./components/sections";
import { PageTitle } from "../../lib/page-title";

// Below the first screen: a chunk of its own, off the home page's first download (the server's HTML already shows it).
const belowTheFold = () => import("./components/below-the-fold");
const InfoStrip = lazy(() => belowTheFold().then((m) => ({ default: m.InfoStrip })));
const SpecialLooks = lazy(() => belowTheFold().then((m) => ({ default: m.SpecialLooks })));
const Statistics = lazy(() => belowTheFold().then((m) => ({ default: m.Statistics })));
const Reviews = lazy(() => belowTheFold().then((m) => ({ default: m.Reviews })));

export function HomePage() {
  const tools = useQuery(toolsQuery({ limit: HOME_TOOLS_COUNT }));
  return (
    <>
      <PageTitle />
      <Carousel />
      <HydrationPart>
        <Categories />
      </HydrationPart>
      <Section title={TEXT.home.ourTools} id="our-tools-heading">
        <QueryView query={tools} isEmpty={(d) => d.items.length === 0} empty={TEXT.home.emptyCatalog}>
          {(data) => (
            <>
              <ToolGrid tools={data.items} phoneCount={HOME_PHONE_TOOLS} />
              {(data.total > data.items.length || data.items.length > HOME_PHONE_TOOLS) && (
                // On a phone whenever it hides some of these; on a wider screen when there are more than these.
                <div className={`mt-8 text-center ${data.total > data.items.length ? "" : "md:hidden"}`}>
                  <Link to="/tools" className="btn btn-outline btn-primary">
                    {TEXT.home.allTools}
                  </Link>
                </div>
              )}
            </>
          )}
        </QueryView>
      </Section>
      <HydrationPart>
        <InfoStrip />
      </HydrationPart>
      <HydrationPart>
        <Reviews />
      </HydrationPart>
      <HydrationPart>
        <SpecialLooks />
        <Statistics />
      </HydrationPart>
    </>
  );
}
