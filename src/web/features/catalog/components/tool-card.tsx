import type { KeyboardEvent, ReactNode } from "react";
import { photoSrcSet } from "../../../../contract/images";
import { Link } from "react-router";
import type { Tool } from "../../../../contract/schemas";
import { HydrationPart, PHONE_HIDDEN } from "../../../lib/responsive";
import { formatDollars } from "../../../../contract/dollars";
import { TEXT } from "../../../../contract/texts/site";

/** A button is pressed with Space as well as Enter; a link only follows Enter by itself. */
function pressOnSpace(event: KeyboardEvent<HTMLAnchorElement>) {
  if (event.key === " ") {
    event.preventDefault();
    event.currentTarget.click();
  }
}

/**
 * `headingLevel`: the card's name is a heading one level below the section it sits in.
 * `eager`: the picture is the page's largest on a phone's first screen: loaded at once, first.
 * `details`: more lines under the price (the catalogue's brand and options: card-details.tsx,
 * kept out of the home page's download, whose budget they would pass).
 */
export function ToolCard({ tool, headingLevel = 3, className = "", eager = false, details }: { tool: Tool; headingLevel?: 2 | 3; className?: string; eager?: boolean; details?: CardDetails }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className={`card bg-base-100 border-base-300 border shadow-sm transition hover:shadow-md ${className}`} data-testid="tool-card">
      <figure className="bg-base-200 aspect-[4/3]">
        <img src={tool.image} srcSet={photoSrcSet(tool.image)} sizes="(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw" alt={tool.name} width={640} height={480} loading={eager ? "eager" : "lazy"} fetchPriority={eager ? "high" : "auto"} decoding={eager ? "sync" : "auto"} className="h-full w-full object-cover" />
      </figure>
      <div className="card-body">
        <Heading className="card-title text-lg">
          <Link to={`/tools/${tool._id}`} className="link-hover">
            {tool.name}
          </Link>
        </Heading>
        <p className="text-primary text-xl font-bold" data-testid="tool-price">
          {formatDollars(tool.price)}
        </p>
        {details?.(tool)}
        <p className="text-sm" data-testid="tool-rating">
          {tool.rating.count > 0 ? (
            <>
              <span aria-hidden="true">
                <span className="text-warning">★</span> {tool.rating.average.toFixed(1)} ({tool.rating.count})
              </span>
              <span className="sr-only">{TEXT.card.rating(tool.rating.average, tool.rating.count)}</span>
            </>
          ) : (
            TEXT.card.noRatingYet
          )}
        </p>
        <p className="text-base-content/80 line-clamp-3 text-sm">{tool.description}</p>
        <div className="card-actions mt-2 justify-end">
          {/* The spec's 'Book Now' button: a real link (new tab, no script needed) that presents as a button. */}
          <Link to={`/purchase/${tool._id}`} role="button" className="btn btn-primary" onKeyDown={pressOnSpace}>
            {TEXT.home.bookNow}
          </Link>
        </div>
      </div>
    </article>
  );
}

/** What a page adds to each card under its price. */
export type CardDetails = (tool: Tool) => ReactNode;

/** 1, 2 or 3 columns by screen width (spec §9); `phoneCount`: a phone shows only the first few; `eagerFirst`: the grid opens the page. */
export function ToolGrid({ tools, headingLevel, phoneCount, eagerFirst, details }: { tools: Tool[]; headingLevel?: 2 | 3; phoneCount?: number; eagerFirst?: boolean; details?: CardDetails }) {
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="tool-grid">
      {tools.map((tool, i) => (
        <HydrationPart key={tool._id}>
          <ToolCard tool={tool} headingLevel={headingLevel} className={phoneCount !== undefined && i >= phoneCount ? PHONE_HIDDEN : ""} eager={eagerFirst && i === 0} details={details} />
        </HydrationPart>
      ))}
    </div>
  );
}
