import { useQuery } from "@tanstack/react-query";
import { photoSrcSet } from "../../../../contract/images";
import { Link, useParams, useSearchParams } from "react-router";
import { JSON_LD_REVIEWS } from "../../../../contract/review-constants";
import type { ToolReview } from "../../../../contract/review-schemas";
import { STOCK_ALERT_PARAM } from "../../../../contract/stock-alert-links";
import { CATEGORY_LABELS, LOW_STOCK } from "../../../../contract/constants";
import { formatDollars } from "../../../../contract/money";
import type { Tool } from "../../../../contract/schemas";
import { TOOL_TEXT } from "../../../../contract/texts/tool";
import { NotFound } from "../../../components/ui/not-found";
import { PriceTiersTable } from "../../../components/ui/price-tiers";
import { ErrorState, Spinner } from "../../../components/ui/states";
import { ApiRequestError } from "../../../lib/api";
import { AddToCartButton } from "../../cart";
import { RELATED_COUNT, relatedQuery, toolQuery } from "../api";
import { ToolGrid } from "../components/tool-card";
import { StockAlertOffer } from "../components/stock-alert";
import { StockAlertLinkPanel } from "../components/stock-alert-link";
import { ToolReviews } from "../components/tool-reviews";
import { TradePrice } from "../components/trade-price";
import { toolReviewsQuery, toolReviewViewOf } from "../tool-reviews-api";
import { stockState } from "../stock";
import { PageTitle, usePageHead } from "../../../lib/page-title";

/** schema.org availability: what a search engine shows beside the price. */
function availability(tool: Tool): string {
  if (tool.availableQuantity < Math.max(1, tool.minimumQuantity)) return "https://schema.org/OutOfStock";
  if (tool.availableQuantity <= LOW_STOCK) return "https://schema.org/LimitedAvailability";
  return "https://schema.org/InStock";
}

/**
 * The tool as schema.org `Product` data (the server writes it into the page's head; it makes paths
 * absolute), with its rating and first reviews. Their words are JSON strings, never markup: the
 * server escapes `<` and `>` inside the script element.
 */
export function productJsonLd(tool: Tool, reviews: ToolReview[] = []): Record<string, unknown> {
  const rated =
    tool.rating.count > 0
      ? {
          aggregateRating: { "@type": "AggregateRating", ratingValue: tool.rating.average, reviewCount: tool.rating.count, bestRating: 5, worstRating: 1 },
          review: reviews.slice(0, JSON_LD_REVIEWS).map((r) => ({
            "@type": "Review",
            author: { "@type": "Person", name: r.name },
            datePublished: r.createdAt.slice(0, 10),
            ...(r.title ? { name: r.title } : {}),
            reviewBody: r.body,
            reviewRating: { "@type": "Rating", ratingValue: r.rating, bestRating: 5, worstRating: 1 },
          })),
        }
      : {};
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    sku: tool._id,
    name: tool.name,
    description: tool.description,
    image: tool.image,
    category: CATEGORY_LABELS[tool.category],
    url: `/tools/${encodeURIComponent(tool._id)}`,
    offers: {
      "@type": "Offer",
      price: tool.price.toFixed(2),
      priceCurrency: "USD",
      availability: availability(tool),
      url: `/tools/${encodeURIComponent(tool._id)}`,
    },
    ...rated,
  };
}

/** Other tools of the tool's category; nothing at all while they load or if they fail (the page is whole without them). */
function RelatedTools({ tool }: { tool: Tool }) {
  const related = useQuery(relatedQuery(tool.category));
  const others = (related.data?.items ?? []).filter((other) => other._id !== tool._id).slice(0, RELATED_COUNT);
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="related-heading" className="mx-auto max-w-6xl px-4 pb-12">
      <h2 id="related-heading" className="mb-6 text-2xl font-bold">
        {TOOL_TEXT.related}
      </h2>
      <ToolGrid tools={others} />
    </section>
  );
}

/** A tool's public page: anyone may read it; 'Book Now' leads to the spec's purchase page. */
export default function ToolPage() {
  const { id = "" } = useParams();
  const tool = useQuery(toolQuery(id));
  const [search] = useSearchParams();
  const reviews = useQuery({ ...toolReviewsQuery(id, toolReviewViewOf(search)), enabled: tool.isSuccess });
  const missing = tool.isError && tool.error instanceof ApiRequestError && (tool.error.status === 404 || tool.error.status === 400);
  usePageHead(tool.data ? { image: tool.data.image, jsonLd: productJsonLd(tool.data, reviews.data?.items) } : {});

  if (tool.isPending) {
    return (
      <>
        <PageTitle title={null} />
        <Spinner />
      </>
    );
  }
  // A missing tool's title is the 404 page's (NotFound renders it).
  if (missing) {
    return (
      <NotFound>
        <p role="alert" className="mt-4 text-lg">
          {TOOL_TEXT.notFound}
        </p>
        <Link to="/tools" className="btn btn-outline btn-primary mt-6">
          {TOOL_TEXT.backToTools}
        </Link>
      </NotFound>
    );
  }
  if (tool.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <PageTitle title={TOOL_TEXT.notFoundTitle} />
        <ErrorState message={tool.error.message} onRetry={() => void tool.refetch()} />
        <Link to="/tools" className="btn btn-primary mt-6">
          {TOOL_TEXT.backToTools}
        </Link>
      </div>
    );
  }

  const data = tool.data;
  const stock = stockState(data);
  return (
    <>
      <PageTitle title={data.name} description={data.description.slice(0, 160)} />
      <StockAlertLinkPanel kind={search.get(STOCK_ALERT_PARAM)} token={search.get("token") ?? ""} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
        <figure className="bg-base-200 rounded-box overflow-hidden">
          <img
            src={data.image}
            srcSet={photoSrcSet(data.image)}
            sizes="(min-width: 768px) 50vw, 100vw"
            alt={data.name}
            width={640}
            height={480}
            fetchPriority="high"
            // The largest paint: drawn with the first frame it is ready for, not a frame later.
            decoding="sync"
            className="w-full"
          />
        </figure>
        <div className="flex flex-col gap-4">
          <p className="text-sm">
            <span className="font-medium">{TOOL_TEXT.category}: </span>
            <Link to={`/tools?category=${data.category}`} className="link link-primary">
              {CATEGORY_LABELS[data.category]}
            </Link>
          </p>
          <h1 className="text-3xl font-bold">{data.name}</h1>
          <p className="text-primary text-2xl font-bold" data-testid="tool-price">
            {formatDollars(data.price)}
          </p>
          <TradePrice tool={data} />
          <p className={stock.orderable ? "text-success font-medium" : "text-error font-medium"} data-testid="stock-state">
            {stock.text}
          </p>
          <p>
            <span className="font-medium">{TOOL_TEXT.minimum}: </span>
            <span data-testid="minimum-quantity">{data.minimumQuantity}</span>
          </p>
          <PriceTiersTable tool={data} />
          <p className="text-base-content/80 whitespace-pre-line">{data.description}</p>
          <div className="flex flex-wrap items-start gap-3">
            <Link to={`/purchase/${data._id}`} className="btn btn-primary">
              {TOOL_TEXT.bookNow}
            </Link>
            <AddToCartButton key={data._id} tool={data} quantity={data.minimumQuantity} />
          </div>
          {!stock.orderable && <StockAlertOffer key={data._id} tool={data} />}
        </div>
      </div>
      <ToolReviews tool={data} />
      <RelatedTools tool={data} />
    </>
  );
}
