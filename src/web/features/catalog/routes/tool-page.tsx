import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useParams, useSearchParams } from "react-router";
import { STOCK_ALERT_PARAM } from "../../../../contract/stock-alert-links";
import { CATEGORY_LABELS } from "../../../../contract/constants";
import { formatDollars } from "../../../../contract/money";
import type { Tool } from "../../../../contract/schemas";
import { TOOL_TEXT } from "../../../../contract/texts/tool";
import { NotFound } from "../../../components/ui/not-found";
import { PriceTiersTable } from "../../../components/ui/price-tiers";
import { ErrorState, Spinner } from "../../../components/ui/states";
import { ApiRequestError } from "../../../lib/api";
import { AddToCartButton } from "../../cart";
import { RELATED_COUNT, relatedQuery, toolQuery } from "../api";
import { cardDetails } from "../components/card-details";
import { ToolGrid } from "../components/tool-card";
import { PhotoGallery } from "../components/photo-gallery";
import { VariantOptions } from "../components/variant-options";
import { productJsonLd, specText } from "../product";
import { StockAlertOffer } from "../components/stock-alert";
import { StockAlertLinkPanel } from "../components/stock-alert-link";
import { ToolReviews } from "../components/tool-reviews";
import { TradePrice } from "../components/trade-price";
import { toolReviewsQuery, toolReviewViewOf } from "../tool-reviews-api";
import { stockState } from "../stock";
import { PageTitle, usePageHead } from "../../../lib/page-title";

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
      <ToolGrid tools={others} details={cardDetails} />
    </section>
  );
}

/** Home, the tool's categories from its root (each its catalogue), the tool: its place in the tree. */
function Breadcrumbs({ tool }: { tool: Tool }) {
  const path = tool.categoryPath.length > 0 ? tool.categoryPath : [{ slug: tool.category, name: CATEGORY_LABELS[tool.category] }];
  return (
    <nav aria-label={TOOL_TEXT.breadcrumb} className="breadcrumbs mx-auto max-w-6xl px-4 pt-6 text-sm">
      <ol>
        <li>
          <Link to="/">{TOOL_TEXT.home}</Link>
        </li>
        {path.map((category) => (
          <li key={category.slug}>
            <Link to={`/tools?category=${encodeURIComponent(category.slug)}`}>{category.name}</Link>
          </li>
        ))}
        <li>
          <span aria-current="page">{tool.name}</span>
        </li>
      </ol>
    </nav>
  );
}

/** The tool's specifications, in the definitions' order, each value with its unit. */
function SpecTable({ tool }: { tool: Tool }) {
  if (tool.specs.length === 0) return null;
  return (
    <section aria-labelledby="specs-heading" className="flex flex-col gap-2">
      <h2 id="specs-heading" className="text-xl font-bold">
        {TOOL_TEXT.specifications}
      </h2>
      <table className="table-sm table" data-testid="spec-table">
        <thead className="sr-only">
          <tr>
            <th scope="col">{TOOL_TEXT.specName}</th>
            <th scope="col">{TOOL_TEXT.specValue}</th>
          </tr>
        </thead>
        <tbody>
          {tool.specs.map((spec) => (
            <tr key={spec.key}>
              <th scope="row" className="font-medium">
                {spec.name}
              </th>
              <td>{specText(spec)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A tool's public page: anyone may read it; 'Book Now' leads to the spec's purchase page. */
export default function ToolPage() {
  const { id = "" } = useParams();
  // A product's other tool, chosen on this page, shows this one's until its own data has come.
  const tool = useQuery({ ...toolQuery(id), placeholderData: keepPreviousData });
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
      <Breadcrumbs tool={data} />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 pt-4 pb-10 md:grid-cols-2" aria-busy={tool.isPlaceholderData || undefined}>
        <PhotoGallery key={data._id} name={data.name} images={data.images.length > 0 ? data.images : [data.image]} />
        <div className="flex flex-col gap-4">
          <p className="text-sm">
            <span className="font-medium">{TOOL_TEXT.category}: </span>
            <Link to={`/tools?category=${data.category}`} className="link link-primary">
              {CATEGORY_LABELS[data.category]}
            </Link>
          </p>
          {data.brand && (
            <p className="text-sm">
              <span className="font-medium">{TOOL_TEXT.brand}: </span>
              <Link to={`/tools?brand=${data.brand.slug}`} className="link link-primary" data-testid="tool-brand">
                {data.brand.name}
              </Link>
            </p>
          )}
          <h1 className="text-3xl font-bold">{data.name}</h1>
          <VariantOptions tool={data} />
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
          <SpecTable tool={data} />
        </div>
      </div>
      <ToolReviews tool={data} />
      <RelatedTools tool={data} />
    </>
  );
}
