import type { Review } from "../../../../contract/schemas";
import { RATING_MAX } from "../../../../contract/constants";
import { REVIEW_TEXT } from "../../../../contract/texts/reviews";

export function Stars({ rating }: { rating: number }) {
  return (
    <span className="text-warning tracking-wider" role="img" aria-label={REVIEW_TEXT.rating(rating)}>
      {"★".repeat(rating)}
      <span className="text-base-300">{"★".repeat(Math.max(0, RATING_MAX - rating))}</span>
    </span>
  );
}

/** Review text is rendered as text (React escapes it), never as HTML. */
export function ReviewCard({ review, className = "" }: { review: Review; className?: string }) {
  return (
    <article className={`card bg-base-100 border-base-300 border ${className}`} data-testid="review-card">
      <div className="card-body">
        <div className="flex items-center justify-between gap-2">
          <h3 className="font-semibold">
            {review.name}
            {review.verifiedBuyer && <span className="badge badge-success badge-soft badge-sm ml-2">{REVIEW_TEXT.verifiedBuyer}</span>}
          </h3>
          <Stars rating={review.rating} />
        </div>
        <p className="text-sm" data-testid="review-rating">
          {REVIEW_TEXT.rating(review.rating)}
        </p>
        <p className="text-base-content/80 break-words whitespace-pre-line">{review.description}</p>
      </div>
    </article>
  );
}
