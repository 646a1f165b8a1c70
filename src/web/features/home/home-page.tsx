import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { HOME_PHONE_TOOLS, HOME_TOOLS_COUNT } from "../../../contract/storefront";
import { TEXT } from "../../../contract/texts/site";
import { QueryView } from "../../components/ui/states";
import { preloadable } from "../../lib/preloadable";
import { cardDetails, ToolGrid, toolsQuery } from "../catalog";
import { Categories, Section } from "./components/sections";
import { HomeFrame } from "./home-frame";

// Below the first screen: a chunk of its own, off the home page's first download (the server's HTML already shows it).
const belowTheFold = () => import("./components/below-the-fold");
const InfoStrip = preloadable(() => belowTheFold().then((m) => ({ default: m.InfoStrip })));
const SpecialLooks = preloadable(() => belowTheFold().then((m) => ({ default: m.SpecialLooks })));
const Statistics = preloadable(() => belowTheFold().then((m) => ({ default: m.Statistics })));
const Reviews = preloadable(() => belowTheFold().then((m) => ({ default: m.Reviews })));

/** Loads the sections below the first screen (the app taking the home page over from its first load: app/start.tsx). */
export const preloadBelowTheFold = (): Promise<unknown> => Promise.all([InfoStrip, SpecialLooks, Statistics, Reviews].map((part) => part.preload()));

function OurTools() {
  const tools = useQuery(toolsQuery({ limit: HOME_TOOLS_COUNT }));
  return (
    <Section title={TEXT.home.ourTools} id="our-tools-heading">
      <QueryView query={tools} isEmpty={(d) => d.items.length === 0} empty={TEXT.home.emptyCatalog}>
        {(data) => (
          <>
            <ToolGrid tools={data.items} phoneCount={HOME_PHONE_TOOLS} details={cardDetails} />
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
  );
}

export function HomePage() {
  return (
    <HomeFrame
      parts={{
        categories: <Categories />,
        ourTools: <OurTools />,
        infoStrip: <InfoStrip />,
        reviews: <Reviews />,
        looks: (
          <>
            <SpecialLooks />
            <Statistics />
          </>
        ),
      }}
    />
  );
}
