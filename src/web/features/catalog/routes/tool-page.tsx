import { useQuery } from "@tanstack/react-query";
import { photoSrcSet } from "../../../../contract/images";
import { Link, useParams } from "react-router";
import { CATEGORY_LABELS } from "../../../../contract/constants";
import { formatDollars } from "../../../../contract/money";
import { TOOL_TEXT } from "../../../../contract/texts/tool";
import { ErrorState, Spinner } from "../../../components/ui/states";
import { ApiRequestError } from "../../../lib/api";
import { AddToCartButton } from "../../cart";
import { toolQuery } from "../api";
import { stockState } from "../stock";
import { usePageTitle } from "../../../lib/page-title";

const T = TOOL_TEXT;

/** A tool's public page: anyone may read it; 'Book Now' leads to the spec's purchase page. */
export default function ToolPage() {
  const { id = "" } = useParams();
  const tool = useQuery(toolQuery(id));
  usePageTitle(tool.data ? tool.data.name : tool.isError ? T.notFoundTitle : null, tool.data?.description.slice(0, 160));

  if (tool.isPending) return <Spinner />;
  if (tool.isError) {
    const missing = tool.error instanceof ApiRequestError && (tool.error.status === 404 || tool.error.status === 400);
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        {missing ? (
          <p role="alert" className="text-lg">
            {T.notFound}
          </p>
        ) : (
          <ErrorState message={tool.error.message} onRetry={() => void tool.refetch()} />
        )}
        <Link to="/tools" className="btn btn-primary mt-6">
          {T.backToTools}
        </Link>
      </div>
    );
  }

  const data = tool.data;
  const stock = stockState(data);
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 md:grid-cols-2">
      <figure className="bg-base-200 rounded-box overflow-hidden">
        <img src={data.image} srcSet={photoSrcSet(data.image)} sizes="(min-width: 768px) 50vw, 100vw" alt={data.name} width={640} height={480} className="w-full" />
      </figure>
      <div className="flex flex-col gap-4">
        <p className="text-sm">
          <span className="font-medium">{T.category}: </span>
          <Link to={`/tools?category=${data.category}`} className="link link-primary">
            {CATEGORY_LABELS[data.category]}
          </Link>
        </p>
        <h1 className="text-3xl font-bold">{data.name}</h1>
        <p className="text-primary text-2xl font-bold" data-testid="tool-price">
          {formatDollars(data.price)}
        </p>
        <p className={stock.orderable ? "text-success font-medium" : "text-error font-medium"} data-testid="stock-state">
          {stock.text}
        </p>
        <p>
          <span className="font-medium">{T.minimum}: </span>
          <span data-testid="minimum-quantity">{data.minimumQuantity}</span>
        </p>
        <p className="text-base-content/80 whitespace-pre-line">{data.description}</p>
        <div className="flex flex-wrap items-start gap-3">
          <Link to={`/purchase/${data._id}`} className="btn btn-primary">
            {T.bookNow}
          </Link>
          <AddToCartButton key={data._id} tool={data} quantity={data.minimumQuantity} />
        </div>
      </div>
    </div>
  );
}
