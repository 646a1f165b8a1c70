import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useSearchParams } from "react-router";
import { RATING_MAX } from "../../../../contract/constants";
import { formatDay } from "../../../../contract/day-format";
import { TOOL_REVIEW_SORTS, TOOL_REVIEWS_PAGE_SIZE, type ToolReviewSort } from "../../../../contract/review-constants";
import type { ToolReview } from "../../../../contract/review-schemas";
import type { Tool } from "../../../../contract/schemas";
import { TOOL_REVIEW_TEXT } from "../../../../contract/texts/tool-reviews";
import { toolRatingQuery, toolReviewHref, toolReviewsQuery, toolReviewViewOf } from "../tool-reviews-api";
import { WriteReview } from "./write-review";

/** The same date on the server and in every browser (the review's UTC day). */

function StarsOf({ rating }: { rating: number }) {
  const whole = Math.round(rating);
  return (
    <span className="text-warning tracking-wider" aria-hidden="true">
      {"★".repeat(whole)}
      <span className="text-base-300">{"★".repeat(Math.max(0, RATING_MAX - whole))}</span>
    </span>
  );
}

/** A review's words are text (React escapes them), never HTML. */
function ToolReviewItem({ review }: { review: ToolReview }) {
  return (
    <li>
      <article className="border-base-300 border-b py-4" data-testid="tool-review">
        <div className="flex flex-wrap items-center gap-2">
          <StarsOf rating={review.rating} />
          <span className="text-sm" data-testid="tool-review-rating">
            {TOOL_REVIEW_TEXT.rating(review.rating)}
          </span>
          {review.verified && <span className="badge badge-success badge-soft badge-sm">{TOOL_REVIEW_TEXT.verifiedPurchase}</span>}
        </div>
        {review.title && <h3 className="mt-1 font-semibold break-words">{review.title}</h3>}
        <p className="text-base-content/70 text-sm">{TOOL_REVIEW_TEXT.byOn(review.name, formatDay(new Date(review.createdAt)))}</p>
        <p className="mt-2 break-words whitespace-pre-line">{review.body}</p>
      </article>
    </li>
  );
}

/**
 * A tool's reviews, rendered on the server with the page: the average, the count, the stars'
 * breakdown, a page of reviews (newest first or by rating) and its pager. The sort is a GET form
 * and the pager links, so they work before (and without) the app; the app applies a sort as chosen.
 */
export function ToolReviews({ tool }: { tool: Tool }) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const view = toolReviewViewOf(search);
  const summary = useQuery(toolRatingQuery(tool._id));
  const list = useQuery({ ...toolReviewsQuery(tool._id, view), placeholderData: keepPreviousData });
  const count = summary.data?.count ?? tool.rating.count;
  const average = summary.data?.average ?? tool.rating.average;
  const pages = Math.max(1, Math.ceil((list.data?.total ?? count) / TOOL_REVIEWS_PAGE_SIZE));
  const sortTo = (sort: ToolReviewSort) => void navigate(toolReviewHref(tool._id, { sort, page: 1 }), { preventScrollReset: true });

  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="mx-auto max-w-6xl px-4 pb-12" data-testid="tool-reviews">
      <h2 id="reviews-heading" className="mb-4 text-2xl font-bold">
        {TOOL_REVIEW_TEXT.heading}
      </h2>
      {count === 0 ? (
        <p data-testid="rating-summary">{TOOL_REVIEW_TEXT.toolEmpty}</p>
      ) : (
        <div className="grid gap-8 md:grid-cols-[16rem_1fr]">
          <div>
            <p className="flex items-center gap-2 text-lg" data-testid="rating-summary">
              <StarsOf rating={average} />
              <span>{TOOL_REVIEW_TEXT.average(average, count)}</span>
            </p>
            <ul className="mt-3 flex flex-col gap-1" data-testid="rating-breakdown">
              {(summary.data?.stars ?? []).map((row) => (
                <li key={row.stars} className="flex items-center gap-2 text-sm">
                  <span className="w-14">{TOOL_REVIEW_TEXT.starsRow(row.stars)}</span>
                  <progress className="progress progress-warning w-32" value={row.count} max={count} aria-label={TOOL_REVIEW_TEXT.starsCount(row.stars, row.count)} />
                  <span aria-hidden="true">{row.count}</span>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <form
              method="get"
              action={`/tools/${encodeURIComponent(tool._id)}#reviews`}
              className="flex flex-wrap items-end gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                const chosen = new FormData(event.currentTarget).get("reviewSort");
                sortTo((TOOL_REVIEW_SORTS as readonly string[]).includes(String(chosen)) ? (chosen as ToolReviewSort) : "newest");
              }}
            >
              <label className="flex flex-col gap-1 text-sm">
                <span className="font-medium">{TOOL_REVIEW_TEXT.sortLabel}</span>
                <select
                  name="reviewSort"
                  className="select select-bordered select-sm"
                  value={view.sort}
                  onChange={(event) => sortTo(event.target.value as ToolReviewSort)}
                >
                  {TOOL_REVIEW_SORTS.map((sort) => (
                    <option key={sort} value={sort}>
                      {TOOL_REVIEW_TEXT.sorts[sort]}
                    </option>
                  ))}
                </select>
              </label>
              <button type="submit" className="btn btn-sm btn-outline">
                {TOOL_REVIEW_TEXT.show}
              </button>
            </form>
            <ol className="mt-2" data-testid="tool-review-list">
              {(list.data?.items ?? []).map((review) => (
                <ToolReviewItem key={review._id} review={review} />
              ))}
            </ol>
            {pages > 1 && (
              <nav aria-label={TOOL_REVIEW_TEXT.heading} className="mt-4 flex items-center gap-4">
                {view.page > 1 && (
                  <Link to={toolReviewHref(tool._id, { ...view, page: view.page - 1 })} preventScrollReset className="btn btn-sm btn-outline">
                    {TOOL_REVIEW_TEXT.previous}
                  </Link>
                )}
                <span className="text-sm" data-testid="review-page">
                  {TOOL_REVIEW_TEXT.pageOf(view.page, pages)}
                </span>
                {view.page < pages && (
                  <Link to={toolReviewHref(tool._id, { ...view, page: view.page + 1 })} preventScrollReset className="btn btn-sm btn-outline">
                    {TOOL_REVIEW_TEXT.next}
                  </Link>
                )}
              </nav>
            )}
          </div>
        </div>
      )}
      <WriteReview tool={tool} />
    </section>
  );
}
