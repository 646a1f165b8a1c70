import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { HOME_PHONE_REVIEWS, HOME_PHONE_TOOLS, HOME_REVIEWS_COUNT, HOME_TOOLS_COUNT } from "../../../contract/constants";
import { HydrationPart, PHONE_HIDDEN } from "../../lib/responsive";
import { TEXT } from "../../../contract/texts/site";
import { QueryView } from "../../components/ui/states";
import { ToolGrid, toolsQuery } from "../catalog";
import { ReviewCard, reviewsQuery } from "../reviews";
import { Carousel } from "./components/carousel";
import { Categories, InfoStrip, Section, SpecialLooks, Statistics } from "./components/sections";
import { usePageTitle } from "../../lib/page-title";

export function HomePage() {
  usePageTitle();
  const tools = useQuery(toolsQuery({ limit: HOME_TOOLS_COUNT }));
  const reviews = useQuery(reviewsQuery(HOME_REVIEWS_COUNT));
  return (
    <>
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
      <Section title={TEXT.home.reviews} id="reviews-heading">
        <QueryView query={reviews} isEmpty={(d) => d.items.length === 0} empty={TEXT.reviews.empty}>
          {(data) => (
            <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="review-grid">
              {data.items.map((review, i) => (
                <HydrationPart key={review._id}>
                  <ReviewCard review={review} className={i >= HOME_PHONE_REVIEWS ? PHONE_HIDDEN : ""} />
                </HydrationPart>
              ))}
            </div>
          )}
        </QueryView>
      </Section>
      <HydrationPart>
        <SpecialLooks />
        <Statistics />
      </HydrationPart>
    </>
  );
}
